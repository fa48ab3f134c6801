//! The outage under steady traffic: the scenario in which retries with a timeout keep a
//! provider down after it has come back, and clients that hold back let it recover.
//!
//! The provider is the article's with three changes, so that it has a capacity traffic
//! can exceed: it works on [`WORKERS`] request at a time and queues up to
//! [`QUEUE_LIMIT`] more (first come, first served); no charge takes the slow path, so its
//! capacity is `WORKERS` per 15 ms latency (66⅔ a second, below the 90 a second the
//! client's pacer allows and the 100 its rate limit admits); and it is down for 3 s from
//! 10 s. Customers arrive at random at [`LOAD_PERCENT`] of that capacity for about
//! [`ARRIVALS_S`] seconds.
//!
//! What follows (sim/tests/traffic.rs checks it over 100 seeds): during the outage every
//! request fails, the clients that retry build a backlog, and once the outage ends the
//! backlog reaches the provider faster than it can answer. Its queue grows past the
//! client's 1 s timeout, so every answer arrives after the client stopped waiting: the
//! provider works flat out on requests nobody awaits, each timeout sends another, and
//! goodput stays at zero while customers keep arriving. A client that waits for every
//! answer, or that caps what it has in flight, never feeds that loop.

use super::incident::{Incident, IncidentPlan};
use super::rng::Odds;
use super::scenario::Scenario;
use super::strategy::StrategyName;
use super::time::{secs, US_PER_S};
use super::traffic::{Traffic, TrafficPlan};

/// Requests the provider works on at once.
pub const WORKERS: u32 = 1;
/// Requests that may wait for it.
pub const QUEUE_LIMIT: u32 = 1_000;
/// The arrival rate, in percent of the provider's capacity.
pub const LOAD_PERCENT: u64 = 80;
/// About how long customers keep arriving.
pub const ARRIVALS_S: u32 = 60;
/// When the outage starts.
pub const START_US: u64 = secs(10);
/// How long it lasts.
pub const LENGTH_US: u64 = secs(3);

/// The provider's capacity in requests a second: its workers over the usual latency
/// (with no slow charges), rounded down.
pub fn capacity_per_s(scenario: &Scenario) -> u64 {
    u64::from(scenario.provider.max_inflight) * US_PER_S / scenario.provider.latency_us.max(1)
}

/// The outage scenario for `strategy` and `seed` (with no record: set `record` to keep
/// one).
pub fn scenario(strategy: StrategyName, seed: u64) -> Scenario {
    let mut s = Scenario::article(strategy, seed);
    s.record = false;
    s.provider.max_inflight = WORKERS;
    s.provider.queue_limit = QUEUE_LIMIT;
    s.provider.slow = Odds::NEVER;
    s.provider.incident = IncidentPlan {
        kind: Incident::Down,
        start_us: START_US,
        length_us: LENGTH_US,
    };
    let rate = u64::from(WORKERS) * US_PER_S * LOAD_PERCENT / (100 * s.provider.latency_us);
    let Ok(rate_per_s) = u32::try_from(rate) else {
        unreachable!("a few dozen a second")
    };
    s.traffic = TrafficPlan {
        shape: Traffic::Steady,
        rate_per_s,
    };
    s.customers = rate_per_s * ARRIVALS_S;
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_runs_at_eighty_percent_of_a_capacity_the_pacer_and_the_limit_exceed() {
        let s = scenario(StrategyName::Keyed, 1);
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(capacity_per_s(&s), 66);
        assert_eq!(s.traffic.rate_per_s, 53);
        assert_eq!(s.customers, 3_180);
        assert!(u64::from(s.client.pacer_per_s) > capacity_per_s(&s));
        assert!(u64::from(s.provider.rate_limit) > capacity_per_s(&s));
    }
}

//! The limiter lab: seven small experiments about rate limits, each deterministic in
//! simulated time and fixed by its seed.
//!
//! Each experiment has a parameter struct whose `Default` is the article's setup, and a
//! `run(&params, seed)` that returns a serialisable result (camelCase JSON fields) or an
//! error saying which parameter is out of bounds. The core keeps numbers only: the
//! tables, the flat result cells the page and `ratelab limits --json` print, and the
//! errors' sentences are written by the page layer from these results.

pub mod burst;
pub mod clients;
pub mod fleet;
pub mod herd;
pub mod memory;
pub mod neighbour;
pub mod units;

use super::limiter::Policy;
use super::time::secs;
use serde::{Deserialize, Serialize};

/// The simulated wall clock's epoch second at simulated instant 0: Sun, 30 Aug 2026
/// 10:40:59 GMT. Headers that name an instant (HTTP-dates, Unix seconds) use it.
pub const LAB_EPOCH_S: u64 = 1_788_086_459;

/// The article's published limit: 10 requests per second.
pub const ARTICLE_POLICY: Policy = Policy {
    limit: 10,
    window_us: secs(1),
};

crate::named_enum! {
    /// The seven experiments: the article's six in the order it meets them, then the
    /// fleet, which takes the article's limit to several instances.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum ExperimentName as "experiment" {
        /// A burst on each side of a window boundary, against all three limiters.
        Burst = "burst",
        /// One wait written four ways, read naively and correctly.
        Units = "units",
        /// Blind, obedient and proactive clients against a token bucket.
        Clients = "clients",
        /// One noisy caller and two quiet ones, global bucket against per-key buckets.
        Neighbour = "neighbour",
        /// What each limiter costs to remember for many callers.
        Memory = "memory",
        /// A hundred clients told to wait the same second, with and without jitter.
        Herd = "herd",
        /// One limit held by several instances, each of six ways (`crate::fleet`).
        Fleet = "fleet",
    }
}

/// One experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum LabResult {
    /// See [`burst`].
    Burst(burst::BurstResult),
    /// See [`units`].
    Units(units::UnitsResult),
    /// See [`clients`].
    Clients(clients::ClientsResult),
    /// See [`neighbour`].
    Neighbour(neighbour::NeighbourResult),
    /// See [`memory`].
    Memory(memory::MemoryResult),
    /// See [`herd`].
    Herd(herd::HerdResult),
    /// See [`crate::fleet::measure`].
    Fleet(crate::fleet::measure::FleetResult),
}

impl LabResult {
    /// Which experiment this is.
    pub fn name(&self) -> ExperimentName {
        match self {
            LabResult::Burst(_) => ExperimentName::Burst,
            LabResult::Units(_) => ExperimentName::Units,
            LabResult::Clients(_) => ExperimentName::Clients,
            LabResult::Neighbour(_) => ExperimentName::Neighbour,
            LabResult::Memory(_) => ExperimentName::Memory,
            LabResult::Herd(_) => ExperimentName::Herd,
            LabResult::Fleet(_) => ExperimentName::Fleet,
        }
    }
}

/// Runs one experiment with the article's parameters and `seed`.
pub fn run(name: ExperimentName, seed: u64) -> LabResult {
    let bug = "the default parameters are valid";
    match name {
        ExperimentName::Burst => {
            LabResult::Burst(burst::run(&burst::BurstParams::default(), seed).expect(bug))
        }
        ExperimentName::Units => {
            LabResult::Units(units::run(&units::UnitsParams::default()).expect(bug))
        }
        ExperimentName::Clients => {
            LabResult::Clients(clients::run(&clients::ClientsParams::default(), seed).expect(bug))
        }
        ExperimentName::Neighbour => LabResult::Neighbour(
            neighbour::run(&neighbour::NeighbourParams::default(), seed).expect(bug),
        ),
        ExperimentName::Memory => {
            LabResult::Memory(memory::run(&memory::MemoryParams::default()).expect(bug))
        }
        ExperimentName::Herd => {
            LabResult::Herd(herd::run(&herd::HerdParams::default(), seed).expect(bug))
        }
        ExperimentName::Fleet => LabResult::Fleet(
            crate::fleet::measure::run(&crate::fleet::measure::FleetParams::default(), seed)
                .expect(bug),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in ExperimentName::ALL {
            assert_eq!(name.as_str().parse::<ExperimentName>(), Ok(name));
            assert_eq!(run(name, 1).name(), name);
        }
        let e = "bursts".parse::<ExperimentName>().unwrap_err();
        assert_eq!(
            e.names,
            [
                "burst",
                "units",
                "clients",
                "neighbour",
                "memory",
                "herd",
                "fleet"
            ]
        );
    }

    #[test]
    fn results_are_the_same_for_the_same_seed() {
        for name in ExperimentName::ALL {
            let a = serde_json::to_string(&run(name, 9)).unwrap();
            assert_eq!(a, serde_json::to_string(&run(name, 9)).unwrap(), "{name}");
        }
    }
}

/// A response from the article's token bucket, with the headers it carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SampleResponse {
    /// 200 or 429.
    pub status: u16,
    /// The headers, in the order they are written.
    pub headers: Vec<(&'static str, String)>,
}

/// What our token bucket publishes: the response to the first request into a fresh
/// bucket (a 200), and to the first request it refuses (a 429), all at one instant.
pub fn sample_responses() -> [SampleResponse; 2] {
    use super::headers::response_headers;
    use super::limiter::{Scope, TokenBucket};
    let policy = ARTICLE_POLICY;
    let mut bucket = TokenBucket::new(policy.limit, policy, Scope::PerKey)
        .expect("the article's policy is valid");
    let first = bucket.check(0, "caller", 1).expect("cost 1 fits");
    let refused = (1..=policy.limit)
        .map(|_| bucket.check(0, "caller", 1).expect("cost 1 fits"))
        .find(|d| !d.allowed)
        .expect("a bucket of `limit` refuses the request after it is empty");
    [first, refused].map(|d| SampleResponse {
        status: if d.allowed { 200 } else { 429 },
        headers: response_headers(policy, &d),
    })
}

#[cfg(test)]
mod sample_tests {
    use super::*;

    #[test]
    fn a_200_and_a_429_carry_both_header_shapes_and_only_the_429_says_retry_after() {
        let [ok, refused] = sample_responses();
        assert_eq!((ok.status, refused.status), (200, 429));
        let get = |r: &SampleResponse, n: &str| {
            r.headers
                .iter()
                .find(|(k, _)| *k == n)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(get(&ok, "RateLimit-Remaining").as_deref(), Some("9"));
        assert_eq!(
            get(&ok, "RateLimit-Policy").as_deref(),
            Some("\"burst\";q=10;w=1")
        );
        assert_eq!(get(&ok, "Retry-After"), None);
        assert_eq!(get(&refused, "RateLimit-Remaining").as_deref(), Some("0"));
        assert_eq!(get(&refused, "Retry-After").as_deref(), Some("1"));
        assert_eq!(
            get(&refused, "RateLimit").as_deref(),
            Some("\"burst\";r=0;t=1")
        );
    }
}

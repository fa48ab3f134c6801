//! The concurrency limit: at most `limit` requests in flight per caller, whatever the
//! rate, like the simulated provider's own cap on requests it works on at once.
//!
//! **The hold time.** A real server frees a slot when the request finishes; a pure
//! function of arrival instants cannot see that, so each admitted request is told how
//! long it holds its slot. [`ConcurrencyLimit::decide_holding`] takes that service time
//! per request; [`Limiter::decide_delayed`] (and so the lab's experiments and `ratelab serve`'s
//! endpoint) uses the limiter's fixed `hold_us`, which [`super::LimiterKind::build`] sets
//! to [`DEFAULT_HOLD_US`], the simulated provider's usual latency. The state is the
//! instant each request in flight will finish, so its memory grows with the requests in
//! flight (8 bytes each), not with the rate.
//!
//! The published policy is `limit` in flight; its window is only what the headers
//! advertise. What bounds the rate is `limit / hold`: a caller whose requests finish
//! quickly can send far more than `limit` per window.

use super::{Decision, Keyed, LimiterError, Policy, Rule, Scope, StatePayload, MAX_WINDOW_US};
use crate::time::ms;

/// The hold [`super::LimiterKind::build`] gives each request: the simulated provider's
/// usual latency (`ProviderConfig::default().latency_us`).
pub const DEFAULT_HOLD_US: u64 = ms(15);

/// One caller's requests in flight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlightState {
    /// The latest instant this state has seen.
    pub at_us: u64,
    /// When each request in flight finishes, earliest first. (A `Vec`: a request that
    /// holds its slot longer goes in the middle, which a `Vec` does with the insert the
    /// lab's burst already uses, where a `VecDeque` brings code of its own.)
    pub finishes_us: Vec<u64>,
}

/// Bytes one request in flight costs.
pub const BYTES_PER_FLIGHT: u64 = std::mem::size_of::<u64>() as u64;

impl StatePayload for FlightState {
    fn payload_bytes(&self) -> u64 {
        std::mem::size_of::<u64>() as u64 + self.finishes_us.len() as u64 * BYTES_PER_FLIGHT
    }
}

impl FlightState {
    /// Lets go of the requests finished by `now_us` (or the state's own time, if later);
    /// returns the instant it was read at.
    fn landed(&mut self, now_us: u64) -> u64 {
        let now_us = now_us.max(self.at_us);
        let landed = self.finishes_us.partition_point(|&t| t <= now_us);
        if landed > 0 {
            // The ones still in flight move to the front.
            self.finishes_us.copy_within(landed.., 0);
            self.finishes_us.truncate(self.finishes_us.len() - landed);
        }
        self.at_us = now_us;
        now_us
    }
}

/// The concurrency limit's rule: at most `limit` in flight, each held `hold_us` unless
/// told otherwise.
#[derive(Clone, Copy, Debug)]
pub struct FlightRule {
    policy: Policy,
    hold_us: u64,
}

/// A concurrency limiter.
pub type ConcurrencyLimit = Keyed<FlightRule>;

impl ConcurrencyLimit {
    /// At most `policy.limit` in flight, each request holding its slot `hold_us` unless
    /// told otherwise ([`ConcurrencyLimit::decide_holding`]).
    pub fn new(policy: Policy, hold_us: u64, scope: Scope) -> Result<Self, LimiterError> {
        policy.check()?;
        if !(1..=MAX_WINDOW_US).contains(&hold_us) {
            return Err(LimiterError::Hold { hold_us });
        }
        Ok(Keyed::with(FlightRule { policy, hold_us }, scope))
    }

    /// How long each request holds its slot by default.
    pub fn hold_us(&self) -> u64 {
        self.rule().hold_us
    }

    /// Requests `key` has in flight at `now_us`.
    pub fn in_flight(&mut self, now_us: u64, key: &str) -> u32 {
        self.callers.get_mut(key).map_or(0, |s| {
            s.landed(now_us);
            s.finishes_us.len() as u32
        })
    }

    /// Decides a request of `cost` slots (already known to be within the limit) that,
    /// if admitted, holds them for `hold_us`.
    pub fn decide_holding(&mut self, now_us: u64, key: &str, cost: u32, hold_us: u64) -> Decision {
        let limit = self.rule().policy.limit;
        assert!((1..=limit).contains(&cost));
        FlightRule::holding(self.state(now_us, key), limit, now_us, cost, hold_us)
    }
}

impl FlightRule {
    /// Decides a request of `cost` slots held `hold_us` against `s`.
    fn holding(s: &mut FlightState, limit: u32, now_us: u64, cost: u32, hold_us: u64) -> Decision {
        let now_us = s.landed(now_us);
        let busy = s.finishes_us.len();
        let allowed = busy + cost as usize <= limit as usize;
        if allowed {
            let finish_us = now_us.saturating_add(hold_us);
            let at = s.finishes_us.partition_point(|&t| t <= finish_us);
            for _ in 0..cost {
                s.finishes_us.insert(at, finish_us);
            }
        }
        let f = &s.finishes_us;
        Decision {
            allowed,
            remaining: limit - f.len() as u32,
            retry_after_us: if allowed {
                0
            } else {
                // The earliest finishes must land until `cost` slots are free.
                f[busy + cost as usize - limit as usize - 1] - now_us
            },
            reset_us: f.last().map_or(0, |&t| t - now_us),
        }
    }
}

impl Rule for FlightRule {
    type State = FlightState;

    fn policy(&self) -> Policy {
        self.policy
    }

    fn fresh(&self, _now_us: u64) -> FlightState {
        FlightState::default()
    }

    fn spent(&self, state: &mut FlightState, now_us: u64) -> bool {
        // Nothing in flight: a fresh caller.
        state.finishes_us.last().is_none_or(|&t| t <= now_us)
    }

    fn decide(&self, state: &mut FlightState, now_us: u64, cost: u32) -> (Decision, u64) {
        let decision = Self::holding(state, self.policy.limit, now_us, cost, self.hold_us);
        (decision, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::limiter::Limiter;
    use crate::time::secs;

    fn limiter() -> ConcurrencyLimit {
        ConcurrencyLimit::new(POLICY, ms(15), Scope::PerKey).unwrap()
    }

    #[test]
    fn at_most_the_limit_in_flight_and_a_slot_frees_when_a_request_finishes() {
        let mut l = limiter();
        for i in 0..10 {
            assert!(l.check(ms(i), "a", 1).unwrap().allowed);
        }
        let d = l.check(ms(10), "a", 1).unwrap();
        assert!(!d.allowed);
        // The first finishes at 15 ms.
        assert_eq!(d.retry_after_us, ms(5));
        assert_eq!(d.reset_us, ms(14));
        assert!(!l.check(ms(15) - 1, "a", 1).unwrap().allowed);
        let d = l.check(ms(15), "a", 1).unwrap();
        assert!(d.allowed);
        assert_eq!(d.remaining, 0);
        assert_eq!(l.in_flight(ms(15), "a"), 10);
    }

    #[test]
    fn the_rate_is_not_limited_only_what_is_held_at_once() {
        // One request every 2 ms, each held 15 ms: never more than 8 in flight, so all
        // 500 in a second pass a limit of "10".
        let mut l = limiter();
        let passed = (0..500)
            .filter(|i| l.check(ms(2) * i, "a", 1).unwrap().allowed)
            .count();
        assert_eq!(passed, 500);
    }

    #[test]
    fn each_request_may_hold_its_own_service_time() {
        let mut l = ConcurrencyLimit::new(
            Policy {
                limit: 2,
                window_us: secs(1),
            },
            ms(15),
            Scope::PerKey,
        )
        .unwrap();
        assert!(l.decide_holding(0, "a", 1, secs(1)).allowed);
        assert!(l.decide_holding(0, "a", 1, ms(5)).allowed);
        let d = l.decide_holding(ms(1), "a", 1, ms(5));
        assert!(!d.allowed);
        // The short one finishes first, whatever the order they came in.
        assert_eq!(d.retry_after_us, ms(4));
        assert_eq!(d.reset_us, secs(1) - ms(1));
        assert!(l.decide_holding(ms(5), "a", 1, ms(5)).allowed);
        assert!(!l.check(ms(9), "a", 1).unwrap().allowed);
        assert!(l.check(ms(10), "a", 1).unwrap().allowed);
    }

    #[test]
    fn payload_is_eight_bytes_plus_eight_per_request_in_flight() {
        let mut l = limiter();
        l.check(0, "a", 3).unwrap();
        l.check(0, "bb", 1).unwrap();
        assert_eq!(l.payload_bytes(), (8 + 3 * 8) + (8 + 8) + 3);
        assert_eq!(l.forget_spent(ms(15)), 2);
    }

    #[test]
    fn bad_hold_is_refused() {
        for hold_us in [0, MAX_WINDOW_US + 1] {
            assert_eq!(
                ConcurrencyLimit::new(POLICY, hold_us, Scope::Global).err(),
                Some(LimiterError::Hold { hold_us })
            );
        }
    }
}

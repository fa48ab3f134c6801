//! The sliding-window counter (Cloudflare's "sliding window" from its 2017 engineering
//! blog post on counting requests at the edge): two counters per caller, the current
//! aligned window's and the previous one's, and an estimate of the last window's count
//! in which the previous window weighs as much of it as still overlaps the sliding
//! window ending now.
//!
//! At `elapsed` µs into the current window, the estimate is
//! `previous · (window − elapsed) / window + current`, and a request of `cost` units is
//! allowed while the estimate plus `cost` is at most the limit. The comparison is made
//! exactly, multiplied through by the window, so nothing is rounded.
//!
//! **The approximation.** The estimate assumes the previous window's requests were
//! spread evenly over it. It is exact when they were; when they bunched at the end of the
//! previous window it undercounts (the sliding window really holds more than the
//! estimate, so up to `limit` more can slip through in the worst case, a boundary burst
//! shaped like the fixed window's), and when they bunched at its start it overcounts
//! (a caller is refused while the true sliding window has room). What it buys is the
//! fixed window's memory: two counters whatever the traffic, where the exact sliding
//! log keeps one instant per request.

use super::{Decision, Keyed, LimiterError, Policy, Rule, Scope, StatePayload};

/// One caller's two counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterState {
    /// The latest instant this state has seen; its window is the current one.
    pub at_us: u64,
    /// Units allowed in the window holding `at_us`.
    pub current: u32,
    /// Units allowed in the window before it.
    pub previous: u32,
}

// Fixed-width integers only, so the payload is the same on wasm32 and 64-bit targets.
const _: () = assert!(std::mem::size_of::<CounterState>() == 16);

impl StatePayload for CounterState {}

/// The sliding-window counter's rule: at most `limit` units in any window, estimated.
#[derive(Clone, Copy, Debug)]
pub struct CounterRule {
    policy: Policy,
}

/// A sliding-window-counter limiter.
pub type SlidingCounter = Keyed<CounterRule>;

impl CounterState {
    /// The counters as they stand at `now_us` (or at the state's own time, if later),
    /// rolled over into the window holding it.
    fn rolled(&mut self, now_us: u64, window_us: u64) {
        let now_us = now_us.max(self.at_us);
        let (seen, now) = (self.at_us / window_us, now_us / window_us);
        if now == seen + 1 {
            self.previous = self.current;
            self.current = 0;
        } else if now > seen + 1 {
            self.previous = 0;
            self.current = 0;
        }
        self.at_us = now_us;
    }
}

impl SlidingCounter {
    /// At most `policy.limit` units in any window of `policy.window_us`, as estimated
    /// from two counters (see the module's doc for how far the estimate can be off).
    pub fn new(policy: Policy, scope: Scope) -> Result<Self, LimiterError> {
        policy.check()?;
        Ok(Keyed::with(CounterRule { policy }, scope))
    }

    /// The estimated units in the sliding window ending at `now_us`, in thousandths
    /// (rounded down), without recording anything.
    pub fn milli_estimate(&mut self, now_us: u64, key: &str) -> u64 {
        let window_us = self.rule().policy.window_us;
        let s = self.state(now_us, key);
        s.rolled(now_us, window_us);
        let left_us = window_us - s.at_us % window_us;
        let scaled = u128::from(s.previous) * u128::from(left_us)
            + u128::from(s.current) * u128::from(window_us);
        (scaled * 1_000 / u128::from(window_us)) as u64
    }
}

/// Units of cost 1 that still fit at `elapsed_us` into a window, with these counts.
fn room(limit: u32, window_us: u64, previous: u32, current: u32, elapsed_us: u64) -> u64 {
    let w = u128::from(window_us);
    let weighted = u128::from(previous) * (w - u128::from(elapsed_us));
    let allowance = u128::from(limit) * w;
    (allowance.saturating_sub(weighted) / w).saturating_sub(u128::from(current)) as u64
}

/// The earliest offset into a window, with these counts, at which `cost` more units
/// fit; `None` if they never do in that window.
fn fits_from(limit: u32, window_us: u64, previous: u32, current: u32, cost: u32) -> Option<u64> {
    let slack = u64::from(limit).checked_sub(u64::from(current) + u64::from(cost))?;
    if previous == 0 {
        return Some(0);
    }
    // previous · (window − e) ≤ slack · window  ⇔  e ≥ window − ⌊slack · window / previous⌋
    let w = u128::from(window_us);
    let tolerated = u128::from(slack) * w / u128::from(previous);
    let from = w.saturating_sub(tolerated) as u64;
    (from < window_us).then_some(from)
}

impl Rule for CounterRule {
    type State = CounterState;

    fn policy(&self) -> Policy {
        self.policy
    }

    fn fresh(&self, now_us: u64) -> CounterState {
        CounterState {
            at_us: now_us,
            current: 0,
            previous: 0,
        }
    }

    fn spent(&self, state: &mut CounterState, now_us: u64) -> bool {
        // Once both counters are zero at `now_us`, the state is a fresh one.
        let mut s = *state;
        s.rolled(now_us, self.policy.window_us);
        s.current == 0 && s.previous == 0
    }

    fn decide(&self, s: &mut CounterState, now_us: u64, cost: u32) -> (Decision, u64) {
        let Policy { limit, window_us } = self.policy;
        s.rolled(now_us, window_us);
        let now_us = s.at_us;
        let start_us = now_us - now_us % window_us;
        let elapsed_us = now_us - start_us;
        let allowed = room(limit, window_us, s.previous, s.current, elapsed_us) >= u64::from(cost);
        if allowed {
            s.current += cost;
        }
        let (previous, current) = (s.previous, s.current);
        let retry_after_us = if allowed {
            0
        } else {
            // This window (while the previous one's weight fades), else the next one
            // (where this window's count is the previous), else the one after: empty.
            let at_us = fits_from(limit, window_us, previous, current, cost)
                .map(|e| start_us + e)
                .filter(|&t| t >= now_us)
                .or_else(|| {
                    fits_from(limit, window_us, current, 0, cost).map(|e| start_us + window_us + e)
                })
                .unwrap_or(start_us + 2 * window_us);
            (at_us - now_us).max(1)
        };
        let reset_us = if current > 0 {
            start_us + 2 * window_us - now_us
        } else if previous > 0 {
            start_us + window_us - now_us
        } else {
            0
        };
        let decision = Decision {
            allowed,
            remaining: room(limit, window_us, previous, current, elapsed_us) as u32,
            retry_after_us,
            reset_us,
        };
        (decision, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::limiter::Limiter;
    use crate::limiter::SlidingLog;
    use crate::time::{ms, secs};

    fn limiter() -> SlidingCounter {
        SlidingCounter::new(POLICY, Scope::PerKey).unwrap()
    }

    #[test]
    fn the_previous_window_weighs_what_still_overlaps() {
        let mut l = limiter();
        // Ten spread over the first second, then 250 ms into the next: the previous
        // window still counts 10 · 0.75 = 7.5, so 2 more fit (9.5 ≤ 10), not a third.
        for i in 0..10 {
            assert!(l.check(ms(100 * i), "a", 1).unwrap().allowed);
        }
        assert_eq!(l.milli_estimate(ms(1_250), "a"), 7_500);
        let d = l.check(ms(1_250), "a", 1).unwrap();
        assert!(d.allowed);
        assert_eq!(d.remaining, 1);
        assert!(l.check(ms(1_250), "a", 1).unwrap().allowed);
        let d = l.check(ms(1_250), "a", 1).unwrap();
        assert!(!d.allowed);
        // 10 · (1 − e) + 2 + 1 ≤ 10 from e = 0.3: at 1,300 ms.
        assert_eq!(d.retry_after_us, ms(50));
        assert!(!l.check(ms(1_300) - 1, "a", 1).unwrap().allowed);
        assert!(l.check(ms(1_300), "a", 1).unwrap().allowed);
        // Two windows after its last count, the caller is spent.
        assert_eq!(l.forget_spent(secs(3)), 1);
    }

    #[test]
    fn a_full_current_window_waits_for_the_next_one_and_its_fading_weight() {
        let mut l = limiter();
        assert!(l.check(ms(500), "a", 10).unwrap().allowed);
        let d = l.check(ms(600), "a", 1).unwrap();
        assert!(!d.allowed);
        // Next window: 10 · (1 − e) + 1 ≤ 10 from e = 0.1, at 1,100 ms.
        assert_eq!(d.retry_after_us, ms(500));
        assert_eq!(d.reset_us, ms(1_400));
        assert!(!l.check(ms(1_100) - 1, "a", 1).unwrap().allowed);
        assert!(l.check(ms(1_100), "a", 1).unwrap().allowed);
    }

    #[test]
    fn the_approximation_undercounts_a_burst_at_the_end_of_a_window() {
        // Ten at 990 ms: the true sliding window at 1,010 ms holds all ten, so the log
        // refuses; the counter reads them as spread over the window (10 · 0.99 = 9.9)
        // and still lets none in. At 1,500 ms the log still holds ten and refuses; the
        // counter estimates 5 and lets 5 more in: 15 inside one second.
        let mut counter = limiter();
        let mut log = SlidingLog::new(POLICY, Scope::PerKey).unwrap();
        for _ in 0..10 {
            assert!(counter.check(ms(990), "a", 1).unwrap().allowed);
            assert!(log.check(ms(990), "a", 1).unwrap().allowed);
        }
        assert!(!counter.check(ms(1_010), "a", 1).unwrap().allowed);
        assert!(!log.check(ms(1_010), "a", 1).unwrap().allowed);
        let admitted = (0..10)
            .filter(|_| counter.check(ms(1_500), "a", 1).unwrap().allowed)
            .count();
        assert_eq!(admitted, 5);
        assert!(!log.check(ms(1_500), "a", 1).unwrap().allowed);
    }

    #[test]
    fn the_approximation_overcounts_a_burst_at_the_start_of_a_window() {
        // Ten at 0 ms: at 1,500 ms the true window (500 ms to 1,500 ms) is empty and the
        // log lets ten in; the counter still weighs the previous ten as 5.
        let mut counter = limiter();
        let mut log = SlidingLog::new(POLICY, Scope::PerKey).unwrap();
        assert!(counter.check(0, "a", 10).unwrap().allowed);
        assert!(log.check(0, "a", 10).unwrap().allowed);
        let count = |l: &mut dyn Limiter| {
            (0..10)
                .filter(|_| l.check(ms(1_500), "a", 1).unwrap().allowed)
                .count()
        };
        assert_eq!(count(&mut counter), 5);
        assert_eq!(count(&mut log), 10);
    }

    #[test]
    fn payload_is_sixteen_bytes_plus_key_bytes_per_caller() {
        let mut l = limiter();
        for k in ["a", "bb"] {
            l.check(0, k, 1).unwrap();
        }
        assert_eq!(l.payload_bytes(), 2 * 16 + 3);
    }
}

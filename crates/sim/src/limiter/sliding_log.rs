//! The sliding window log: keep the instant of every allowed unit and count those that
//! fall inside the last window.
//!
//! Exact: no span of one window ever holds more than the limit, wherever it starts. The
//! price is memory that grows with traffic: a caller at the limit costs one timestamp per
//! allowed unit, where the other two limiters cost a couple of integers.

use super::{Decision, Keyed, LimiterError, Policy, Rule, Scope, StatePayload};
use std::collections::VecDeque;

/// One caller's log: the instant of every allowed unit still inside the window, oldest
/// first. A request costing `n` units is logged `n` times; a refused one not at all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogState {
    /// Allowed instants, non-decreasing.
    pub admitted_us: VecDeque<u64>,
}

/// Bytes one logged instant costs.
pub const BYTES_PER_ENTRY: u64 = std::mem::size_of::<u64>() as u64;

impl StatePayload for LogState {
    fn payload_bytes(&self) -> u64 {
        self.admitted_us.len() as u64 * BYTES_PER_ENTRY
    }
}

/// The sliding log's rule: at most `limit` units in any window, counted exactly.
#[derive(Clone, Copy, Debug)]
pub struct LogRule {
    policy: Policy,
}

/// A sliding-window-log limiter.
pub type SlidingLog = Keyed<LogRule>;

impl SlidingLog {
    /// At most `policy.limit` units in any window of `policy.window_us`.
    pub fn new(policy: Policy, scope: Scope) -> Result<Self, LimiterError> {
        policy.check()?;
        Ok(Keyed::with(LogRule { policy }, scope))
    }

    /// [`Limiter::decide_delayed`] for one unit, answering only whether it was allowed: the
    /// provider asks this for every request, and needs no headers.
    #[inline]
    pub fn admit_one(&mut self, now_us: u64, key: &str) -> bool {
        let policy = self.rule().policy;
        let log = &mut self.state(now_us, key).admitted_us;
        log_if_it_fits(log, policy, now_us, 1).1
    }

    /// Units `key` has inside the window ending at `now_us`, after dropping the ones
    /// that have left it. A caller never seen has none, and is not remembered for asking.
    pub fn in_window(&mut self, now_us: u64, key: &str) -> u32 {
        let window_us = self.rule().policy.window_us;
        self.callers.get_mut(key).map_or(0, |state| {
            let log = &mut state.admitted_us;
            expire(log, now_us, window_us);
            log.len() as u32
        })
    }

    /// How `key`'s window stands at `now_us` against a limit of `limit` (which may be
    /// below the policy's own, for a provider that has shrunk), without logging anything:
    /// `allowed` if one more unit fits, the units that remain, how long until one more
    /// would fit, and how long until the window is empty.
    pub fn standing(&mut self, now_us: u64, key: &str, limit: u32) -> Decision {
        let window_us = self.rule().policy.window_us;
        let log = &mut self.state(now_us, key).admitted_us;
        let now_us = expire(log, now_us, window_us);
        let len = log.len();
        let allowed = len < limit as usize;
        Decision {
            allowed,
            remaining: (limit as usize).saturating_sub(len) as u32,
            retry_after_us: if allowed {
                0
            } else {
                log[len - limit as usize].saturating_add(window_us) - now_us
            },
            reset_us: log
                .back()
                .map_or(0, |&t| t.saturating_add(window_us) - now_us),
        }
    }

    /// Instants currently logged for all callers together.
    pub fn entries(&self) -> u64 {
        self.callers
            .states()
            .map(|(_, s)| s.admitted_us.len() as u64)
            .sum()
    }
}

impl Rule for LogRule {
    type State = LogState;

    fn policy(&self) -> Policy {
        self.policy
    }

    fn fresh(&self, _now_us: u64) -> LogState {
        LogState::default()
    }

    fn spent(&self, state: &mut LogState, now_us: u64) -> bool {
        // A log whose every instant has left the window is an empty log.
        expire(&mut state.admitted_us, now_us, self.policy.window_us);
        state.admitted_us.is_empty()
    }

    fn decide(&self, state: &mut LogState, now_us: u64, cost: u32) -> (Decision, u64) {
        let Policy { limit, window_us } = self.policy;
        let log = &mut state.admitted_us;
        let (now_us, allowed) = log_if_it_fits(log, self.policy, now_us, cost);
        let retry_after_us = if allowed {
            0
        } else {
            // The oldest entries must leave until this cost fits.
            let must_leave = log.len() + cost as usize - limit as usize;
            log[must_leave - 1].saturating_add(window_us) - now_us
        };
        assert!(log.len() as u32 <= limit);
        let decision = Decision {
            allowed,
            remaining: limit - log.len() as u32,
            retry_after_us,
            reset_us: log
                .back()
                .map_or(0, |&t| t.saturating_add(window_us) - now_us),
        };
        (decision, 0)
    }
}

/// Expires `log` at `now_us` and logs `cost` units there if they fit under the limit.
/// Returns the instant the log was read at (see [`expire`]) and whether they fitted.
#[inline]
fn log_if_it_fits(log: &mut VecDeque<u64>, policy: Policy, now_us: u64, cost: u32) -> (u64, bool) {
    let now_us = expire(log, now_us, policy.window_us);
    let allowed = log.len() as u64 + u64::from(cost) <= u64::from(policy.limit);
    if allowed {
        for _ in 0..cost {
            log.push_back(now_us);
        }
    }
    (now_us, allowed)
}

/// Drops the instants that have left the window ending at `now_us`, and returns the
/// instant the log is read at: never earlier than its newest entry, so a clock that
/// steps back stands still.
fn expire(log: &mut VecDeque<u64>, now_us: u64, window_us: u64) -> u64 {
    let now_us = now_us.max(log.back().copied().unwrap_or(0));
    // An instant t is inside the window while now < t + window.
    while log
        .front()
        .is_some_and(|&t| t.saturating_add(window_us) <= now_us)
    {
        log.pop_front();
    }
    now_us
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::limiter::Limiter;
    use crate::time::{ms, secs};

    fn limiter() -> SlidingLog {
        SlidingLog::new(POLICY, Scope::PerKey).unwrap()
    }

    #[test]
    fn no_window_anywhere_holds_more_than_the_limit() {
        let mut l = limiter();
        for i in 0..10 {
            assert!(l.check(ms(850) + i, "a", 1).unwrap().allowed);
        }
        // Just after a clock-second boundary: still the same sliding second.
        let d = l.check(ms(1_020), "a", 1).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.remaining, 0);
        // The oldest entry (850 ms) leaves at 1,850 ms exactly.
        assert_eq!(d.retry_after_us, ms(830));
        assert_eq!(d.reset_us, ms(1_850) + 9 - ms(1_020));
        assert!(!l.check(ms(1_850) - 1, "a", 1).unwrap().allowed);
        let d = l.check(ms(1_850), "a", 1).unwrap();
        assert!(d.allowed);
        assert_eq!(d.remaining, 0, "the other nine are still inside");
    }

    #[test]
    fn refused_requests_are_not_logged() {
        let mut l = limiter();
        assert!(l.check(0, "a", 10).unwrap().allowed);
        for t in 1..500 {
            assert!(!l.check(ms(t), "a", 1).unwrap().allowed);
        }
        assert_eq!(l.entries(), 10);
        // Had the refusals been logged, this would still be refused.
        assert!(l.check(secs(1), "a", 10).unwrap().allowed);
    }

    #[test]
    fn a_cost_is_logged_once_per_unit_and_waits_for_enough_to_leave() {
        let mut l = limiter();
        assert!(l.check(0, "a", 3).unwrap().allowed);
        assert!(l.check(ms(100), "a", 3).unwrap().allowed);
        assert!(l.check(ms(200), "a", 3).unwrap().allowed);
        assert_eq!(l.entries(), 9);
        let d = l.check(ms(300), "a", 4).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.remaining, 1);
        // 9 + 4 − 10 = 3 must leave: the third is from t = 0, gone at 1,000 ms.
        assert_eq!(d.retry_after_us, ms(700));
        let d = l.check(ms(1_050), "a", 4).unwrap();
        assert!(d.allowed);
        assert_eq!(d.remaining, 0);
        // The newest of the four leaves at 2,050 ms.
        assert_eq!(d.reset_us, secs(1));
    }

    #[test]
    fn admit_one_answers_as_decide_does_for_one_unit() {
        let mut by_decide = limiter();
        let mut by_admit = limiter();
        // Bursts of 1 to 24 requests 0 to 500 ms apart: some fit, some are refused.
        let (mut t, mut allowed) = (0, 0);
        for i in 0..200u64 {
            t += ms(i * 37 % 500);
            for _ in 0..(i * 13 % 24 + 1) {
                let d = by_decide.check(t, "a", 1).unwrap().allowed;
                assert_eq!(by_admit.admit_one(t, "a"), d, "at {t} µs");
                allowed += u32::from(d);
            }
            assert_eq!(by_admit.entries(), by_decide.entries());
        }
        assert!((100..2_000).contains(&allowed), "{allowed} allowed");
    }

    #[test]
    fn in_window_counts_what_is_still_inside_and_remembers_no_stranger() {
        let mut l = limiter();
        l.check(0, "a", 3).unwrap();
        l.check(ms(400), "a", 2).unwrap();
        assert_eq!(l.in_window(ms(999), "a"), 5);
        // The three from t = 0 leave at 1 s exactly.
        assert_eq!(l.in_window(secs(1), "a"), 2);
        assert_eq!(l.entries(), 2, "expired entries are dropped");
        assert_eq!(l.in_window(secs(1), "b"), 0);
        assert_eq!(l.callers.len(), 1, "asking about b did not create it");
        // Under the global scope every key reads the one shared log.
        let mut g = SlidingLog::new(POLICY, Scope::Global).unwrap();
        g.check(0, "a", 4).unwrap();
        assert_eq!(g.in_window(1, "anyone"), 4);
    }

    #[test]
    fn payload_is_eight_bytes_per_entry_plus_key_bytes() {
        let mut l = limiter();
        for i in 0..7 {
            l.check(i, "acme", 1).unwrap();
        }
        l.check(0, "b", 2).unwrap();
        assert_eq!(l.payload_bytes(), 9 * 8 + 4 + 1);
    }
}

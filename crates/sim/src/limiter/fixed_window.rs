//! The fixed window: count each caller's requests in aligned windows
//! `[k · window, (k + 1) · window)` and forget the count when a new window starts.
//!
//! Cheap and easy to explain, and exploitable at every boundary: a caller can spend a
//! whole allowance at the end of one window and another at the start of the next, so the
//! server must be provisioned for twice the published rate over a short span.

use super::{Decision, Keyed, LimiterError, Policy, Rule, Scope, StatePayload};

/// One caller's window: which one, and how much of it is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowState {
    /// `now_us / window_us` of the window being counted.
    pub window_index: u64,
    /// Units allowed in that window. Refused requests are not counted: a caller who is
    /// turned away has not used anything.
    pub used: u32,
}

// Fixed-width integers only, so the payload is the same on wasm32 and 64-bit targets.
const _: () = assert!(std::mem::size_of::<WindowState>() == 16);

impl StatePayload for WindowState {}

/// The fixed window's rule: `limit` units per aligned window.
#[derive(Clone, Copy, Debug)]
pub struct WindowRule {
    policy: Policy,
}

/// A fixed-window limiter.
pub type FixedWindow = Keyed<WindowRule>;

impl FixedWindow {
    /// `policy.limit` units per aligned window of `policy.window_us`.
    pub fn new(policy: Policy, scope: Scope) -> Result<Self, LimiterError> {
        policy.check()?;
        Ok(Keyed::with(WindowRule { policy }, scope))
    }
}

impl Rule for WindowRule {
    type State = WindowState;

    fn policy(&self) -> Policy {
        self.policy
    }

    fn fresh(&self, now_us: u64) -> WindowState {
        WindowState {
            window_index: now_us / self.policy.window_us,
            used: 0,
        }
    }

    fn spent(&self, state: &mut WindowState, now_us: u64) -> bool {
        // A count of an earlier window is never read again: the next request starts a
        // new window at 0, as a fresh state would.
        state.window_index < now_us / self.policy.window_us
    }

    fn decide(&self, state: &mut WindowState, now_us: u64, cost: u32) -> (Decision, u64) {
        let Policy { limit, window_us } = self.policy;
        let index_now = now_us / window_us;
        if index_now > state.window_index {
            *state = WindowState {
                window_index: index_now,
                used: 0,
            };
        }
        // An earlier instant is counted in the state's own (later) window.
        let index = state.window_index;
        let now_us = now_us.max(index * window_us);
        let allowed = state.used + cost <= limit;
        if allowed {
            state.used += cost;
        }
        assert!(state.used <= limit);
        let window_end_us = (index + 1).saturating_mul(window_us);
        let reset_us = window_end_us - now_us;
        let decision = Decision {
            allowed,
            remaining: limit - state.used,
            retry_after_us: if allowed { 0 } else { reset_us },
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
    use crate::time::{ms, secs};

    fn limiter() -> FixedWindow {
        FixedWindow::new(POLICY, Scope::PerKey).unwrap()
    }

    #[test]
    fn counts_within_aligned_windows_and_resets_at_the_edge() {
        let mut l = limiter();
        for i in 0..10 {
            let d = l.check(ms(850) + i, "a", 1).unwrap();
            assert!(d.allowed);
            assert_eq!(d.remaining, 9 - i as u32);
            assert_eq!(d.reset_us, ms(150) - i);
        }
        let d = l.check(secs(1) - 1, "a", 1).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.remaining, 0);
        assert_eq!(d.retry_after_us, 1, "the window ends one µs later");
        // The boundary itself belongs to the next window: a whole new allowance.
        let d = l.check(secs(1), "a", 1).unwrap();
        assert!(d.allowed);
        assert_eq!(d.remaining, 9);
        assert_eq!(d.reset_us, secs(1));
    }

    #[test]
    fn refused_requests_are_not_counted() {
        let mut l = limiter();
        assert!(l.check(0, "a", 8).unwrap().allowed);
        // Costs 3 with 2 left: refused, and the 2 are still there afterwards.
        let d = l.check(1, "a", 3).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.remaining, 2);
        assert_eq!(d.retry_after_us, secs(1) - 1);
        let d = l.check(2, "a", 2).unwrap();
        assert!(d.allowed);
        assert_eq!(d.remaining, 0);
    }

    #[test]
    fn a_later_window_forgets_everything_even_after_a_gap() {
        let mut l = limiter();
        assert!(l.check(ms(10), "a", 10).unwrap().allowed);
        let d = l.check(secs(7) + ms(400), "a", 4).unwrap();
        assert!(d.allowed);
        assert_eq!(d.remaining, 6);
        assert_eq!(d.reset_us, ms(600));
    }

    #[test]
    fn payload_is_one_state_plus_key_bytes_per_caller() {
        let mut l = limiter();
        l.check(0, "acme", 1).unwrap();
        l.check(0, "bakery", 1).unwrap();
        l.check(5, "acme", 1).unwrap();
        assert_eq!(l.payload_bytes(), 2 * 16 + 4 + 6);
    }
}

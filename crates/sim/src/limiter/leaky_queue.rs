//! The leaky bucket as a queue, as nginx's `limit_req` runs it: requests leave at the
//! rate, one every `window / limit`; a request that finds others ahead of it waits its
//! turn (it is *delayed*, not refused) as long as at most `burst` requests' worth of
//! work is ahead of it; beyond that it is refused.
//!
//! nginx keeps, per caller, the "excess" ahead of the last admitted request and the time
//! it was measured: a new request finds that excess minus what has leaked since, plus
//! the last request's own turn, and is refused if that is more than `burst`, else
//! delayed by it divided by the rate (see the `limit_req` and `limit_req_zone`
//! directives in nginx's documentation). This module keeps the same figure in exact
//! integer parts, like the token bucket: one request is `window_us` parts and every
//! microsecond leaks `limit` parts.
//!
//! **`nodelay`.** With nginx's `nodelay`, a request that would have waited is served at
//! once, but it still takes its place in the queue: the slots drain at the rate as if it
//! had waited. So the decisions (which requests are admitted, which refused) are the
//! same as the queue's; only the delay is zero.
//!
//! A request that costs `n` is `n` requests' worth of work, admitted if its last unit
//! fits. A caller with nothing queued admits `burst + 1` requests at one instant: one
//! served at once and `burst` waiting, which is the limiter's capacity.

use super::{Callers, Decision, Limiter, LimiterError, Policy, Scope, StatePayload, MAX_LIMIT};

/// One caller's queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueState {
    /// Work not yet served at `at_us`, in parts (one request is `window_us` parts):
    /// the admitted requests still waiting, and the one being served.
    pub backlog_parts: u64,
    /// When the backlog was last brought up to date.
    pub at_us: u64,
}

// Fixed-width integers only, so the payload is the same on wasm32 and 64-bit targets.
const _: () = assert!(std::mem::size_of::<QueueState>() == 16);

impl StatePayload for QueueState {}

/// A leaky-bucket-as-a-queue limiter (nginx `limit_req … burst=N [nodelay]`).
#[derive(Clone, Debug)]
pub struct LeakyQueue {
    policy: Policy,
    burst: u32,
    nodelay: bool,
    callers: Callers<QueueState>,
}

impl LeakyQueue {
    /// Requests leave at `policy.limit` per `policy.window_us`; up to `burst` wait in
    /// the queue. With `nodelay`, a queued request is served at once but its slot still
    /// drains at the rate.
    pub fn new(
        policy: Policy,
        burst: u32,
        nodelay: bool,
        scope: Scope,
    ) -> Result<Self, LimiterError> {
        policy.check()?;
        if burst >= MAX_LIMIT {
            return Err(LimiterError::Burst { burst });
        }
        Ok(Self {
            policy,
            burst,
            nodelay,
            callers: Callers::new(scope),
        })
    }

    /// Requests that may wait behind the one being served.
    pub fn burst(&self) -> u32 {
        self.burst
    }

    /// True if queued requests are served at once.
    pub fn nodelay(&self) -> bool {
        self.nodelay
    }

    /// The caller's backlog brought up to `now_us` (or to its own time, if later).
    fn drained(&mut self, now_us: u64, key: &str) -> &mut QueueState {
        let per_us = u64::from(self.policy.limit);
        let q = self.callers.state(key, || QueueState {
            backlog_parts: 0,
            at_us: now_us,
        });
        let now_us = now_us.max(q.at_us);
        let leaked = (now_us - q.at_us).saturating_mul(per_us);
        q.backlog_parts = q.backlog_parts.saturating_sub(leaked);
        q.at_us = now_us;
        q
    }
}

impl Limiter for LeakyQueue {
    fn policy(&self) -> Policy {
        self.policy
    }

    fn callers(&self) -> usize {
        self.callers.len()
    }

    fn knows(&self, key: &str) -> bool {
        self.callers.knows(key)
    }

    fn forget_spent(&mut self, now_us: u64) -> usize {
        // An empty queue is a new caller's queue.
        let per_us = u64::from(self.policy.limit);
        self.callers.forget(|q| {
            let leaked = now_us.saturating_sub(q.at_us).saturating_mul(per_us);
            q.backlog_parts <= leaked
        })
    }

    fn capacity(&self) -> u32 {
        self.burst + 1
    }

    fn decide(&mut self, now_us: u64, key: &str, cost: u32) -> Decision {
        self.decide_delayed(now_us, key, cost).0
    }

    fn decide_delayed(&mut self, now_us: u64, key: &str, cost: u32) -> (Decision, u64) {
        assert!((1..=self.capacity()).contains(&cost));
        let Policy { limit, window_us } = self.policy;
        let per_us = u64::from(limit);
        let most_ahead = u64::from(self.burst) * window_us;
        let nodelay = self.nodelay;
        let q = self.drained(now_us, key);
        // What is ahead of the request's last unit.
        let ahead_of_last = q.backlog_parts + u64::from(cost - 1) * window_us;
        let allowed = ahead_of_last <= most_ahead;
        let delay_us = if allowed && !nodelay {
            q.backlog_parts.div_ceil(per_us)
        } else {
            0
        };
        if allowed {
            q.backlog_parts += u64::from(cost) * window_us;
        }
        let backlog = q.backlog_parts;
        // A further request of cost 1 fits while the backlog ahead of it is within burst.
        let remaining = if backlog <= most_ahead {
            (most_ahead - backlog) / window_us + 1
        } else {
            0
        };
        let decision = Decision {
            allowed,
            remaining: remaining as u32,
            retry_after_us: if allowed {
                0
            } else {
                (ahead_of_last - most_ahead).div_ceil(per_us)
            },
            reset_us: backlog.div_ceil(per_us),
        };
        (decision, delay_us)
    }

    fn payload_bytes(&self) -> u64 {
        self.callers.payload_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::time::ms;

    fn queue(burst: u32, nodelay: bool) -> LeakyQueue {
        LeakyQueue::new(POLICY, burst, nodelay, Scope::PerKey).unwrap()
    }

    #[test]
    fn a_burst_waits_its_turn_at_the_rate_and_the_rest_is_refused() {
        let mut q = queue(4, false);
        // One served at once, four queued 100 ms apart, the sixth refused.
        for i in 0..5 {
            let (d, delay_us) = q.check_delayed(0, "a", 1).unwrap();
            assert!(d.allowed, "{i}");
            assert_eq!(delay_us, ms(100) * i);
            assert_eq!(d.remaining, 4 - i as u32);
        }
        let (d, delay_us) = q.check_delayed(0, "a", 1).unwrap();
        assert!(!d.allowed);
        assert_eq!(delay_us, 0);
        // The first request's turn ends at 100 ms: then one slot is free.
        assert_eq!(d.retry_after_us, ms(100));
        assert_eq!(d.reset_us, ms(500));
        assert!(!q.check(ms(100) - 1, "a", 1).unwrap().allowed);
        let (d, delay_us) = q.check_delayed(ms(100), "a", 1).unwrap();
        assert!(d.allowed);
        // Four ahead of it (400 ms of work), so it leaves at 500 ms.
        assert_eq!(delay_us, ms(400));
    }

    #[test]
    fn nodelay_admits_the_same_requests_without_waiting() {
        let mut delayed = queue(3, false);
        let mut at_once = queue(3, true);
        let mut now_us = 0;
        for i in 0..200u64 {
            now_us += [0, ms(10), ms(40), ms(150)][(i * 7 % 4) as usize];
            let (a, wait_us) = delayed.check_delayed(now_us, "a", 1).unwrap();
            let (b, none_us) = at_once.check_delayed(now_us, "a", 1).unwrap();
            assert_eq!(a, b, "request {i}");
            assert_eq!(none_us, 0);
            assert!(wait_us <= ms(300));
        }
    }

    #[test]
    fn a_burst_of_zero_serves_one_per_interval_and_never_queues() {
        let mut q = queue(0, false);
        assert_eq!(q.capacity(), 1);
        assert_eq!(q.check_delayed(0, "a", 1).unwrap(), (q_ok(0, ms(100)), 0));
        assert!(!q.check(ms(99), "a", 1).unwrap().allowed);
        assert_eq!(q.check_delayed(ms(100), "a", 1).unwrap().1, 0);
    }

    fn q_ok(remaining: u32, reset_us: u64) -> Decision {
        Decision {
            allowed: true,
            remaining,
            retry_after_us: 0,
            reset_us,
        }
    }

    #[test]
    fn a_cost_is_that_many_turns() {
        let mut q = queue(4, false);
        assert_eq!(q.check_delayed(0, "a", 3).unwrap().1, 0);
        // Three turns ahead: waits 300 ms; its last unit has four ahead of it.
        let (d, delay_us) = q.check_delayed(0, "a", 2).unwrap();
        assert!(d.allowed);
        assert_eq!(delay_us, ms(300));
        assert!(!q.check(0, "a", 1).unwrap().allowed);
    }

    #[test]
    fn bad_burst_is_refused() {
        assert_eq!(
            LeakyQueue::new(POLICY, MAX_LIMIT, false, Scope::Global).err(),
            Some(LimiterError::Burst { burst: MAX_LIMIT })
        );
    }
}

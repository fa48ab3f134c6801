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
//! integer parts, as a [`Drain`](super::Drain), the state GCRA and the token bucket keep too: one
//! request is `window_us` parts and every microsecond leaks `limit` parts. So a queue of
//! `burst` waiting admits exactly what GCRA with a burst of `burst + 1` admits; the
//! queue also makes each admitted request wait for the work ahead of it.
//!
//! **`nodelay`.** With nginx's `nodelay`, a request that would have waited is served at
//! once, but it still takes its place in the queue: the slots drain at the rate as if it
//! had waited. So the decisions (which requests are admitted, which refused) are the
//! same as the queue's; only the delay is zero.
//!
//! A request that costs `n` is `n` requests' worth of work, admitted if its last unit
//! fits. A caller with nothing queued admits `burst + 1` requests at one instant: one
//! served at once and `burst` waiting, which is the limiter's capacity.

use super::drain::{AsQueue, DrainRule};
use super::{Keyed, Limiter, LimiterError, Policy, Scope, MAX_LIMIT};

/// A leaky-bucket-as-a-queue limiter (nginx `limit_req … burst=N [nodelay]`): the
/// [`DrainRule`] with room for the one served and `burst` waiting, each admitted request
/// waiting for the backlog it found unless `nodelay`.
pub type LeakyQueue = Keyed<DrainRule<AsQueue>>;

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
        Ok(Keyed::with(
            DrainRule::new(policy, burst + 1, !nodelay),
            scope,
        ))
    }

    /// Requests that may wait behind the one being served.
    pub fn burst(&self) -> u32 {
        self.capacity() - 1
    }

    /// True if queued requests are served at once.
    pub fn nodelay(&self) -> bool {
        !self.rule().waits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::limiter::Decision;
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

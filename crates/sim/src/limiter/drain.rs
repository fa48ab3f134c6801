//! Work that drains at one rate: the one state the token bucket, GCRA and the leaky queue
//! keep for a caller.
//!
//! Each of the three remembers how much admitted work is still ahead of the caller and
//! lets it drain at the policy's rate: GCRA calls it how far the theoretical arrival time
//! lies ahead of now, the leaky queue the backlog still waiting, and the token bucket the
//! tokens taken and not yet refilled (its level is the capacity less this). A request of
//! `cost` is admitted if the work ahead, with it added, is at most `room` requests' worth;
//! all three then answer with the same figures. So GCRA with a burst of `b`, a queue of
//! `b − 1` waiting and a bucket of `b` tokens admit exactly the same requests; they differ
//! in what they are given to build them, and a queue (without `nodelay`) holds what it
//! admits until the work ahead of it has drained.
//!
//! The work is kept in exact integer parts, so every platform gives the same answer: one
//! request is `window_us` parts and every microsecond drains `limit` parts. Nothing is
//! rounded except where a wait is turned into whole microseconds (always upwards).
//!
//! The three are one rule, [`DrainRule`]: the room it leaves, and whether an admitted
//! request waits. Its type parameter only says which of the three it was built as, so
//! each keeps its own constructor and extras, while the code that decides is one.

use super::{Decision, Policy, Rule, StatePayload};
use std::marker::PhantomData;

/// One caller's work still to drain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drain {
    /// Work admitted and not yet drained at `at_us`, in parts (one request is
    /// `window_us` parts); 0 if all of it has drained.
    pub ahead_parts: u64,
    /// The latest instant this state has seen.
    pub at_us: u64,
}

// Fixed-width integers only, so the payload is the same on wasm32 and 64-bit targets.
const _: () = assert!(std::mem::size_of::<Drain>() == 16);

impl StatePayload for Drain {}

impl Drain {
    /// Nothing ahead, first seen at `at_us`.
    pub const fn at(at_us: u64) -> Self {
        Self {
            ahead_parts: 0,
            at_us,
        }
    }

    /// Drains what `per_us` parts a microsecond take away by `now_us` (or by the state's
    /// own time, if later: a clock that steps back stands still).
    pub fn drain(&mut self, now_us: u64, per_us: u64) {
        let now_us = now_us.max(self.at_us);
        let drained = (now_us - self.at_us).saturating_mul(per_us);
        self.ahead_parts = self.ahead_parts.saturating_sub(drained);
        self.at_us = now_us;
    }

    /// True if everything has drained by `now_us`: a fresh state then.
    pub fn empty_by(&self, now_us: u64, per_us: u64) -> bool {
        self.ahead_parts <= now_us.saturating_sub(self.at_us).saturating_mul(per_us)
    }

    /// Drains to `now_us` and admits `cost` requests if the work ahead, with them, is at
    /// most `room` requests' worth. Returns the decision and the work that was ahead of
    /// the request when it came (what a queue makes it wait for).
    pub fn admit(&mut self, policy: Policy, room: u32, now_us: u64, cost: u32) -> (Decision, u64) {
        let Policy { limit, window_us } = policy;
        let per_us = u64::from(limit);
        let room_parts = u64::from(room) * window_us;
        self.drain(now_us, per_us);
        let before = self.ahead_parts;
        let after = before + u64::from(cost) * window_us;
        let allowed = after <= room_parts;
        if allowed {
            self.ahead_parts = after;
        }
        let ahead = self.ahead_parts;
        let decision = Decision {
            allowed,
            remaining: ((room_parts - ahead.min(room_parts)) / window_us) as u32,
            // Until enough has drained for the whole cost to fit.
            retry_after_us: if allowed {
                0
            } else {
                (after - room_parts).div_ceil(per_us)
            },
            reset_us: ahead.div_ceil(per_us),
        };
        (decision, before)
    }
}

/// The rule of the token bucket, GCRA and the leaky queue: admit a request if the work
/// ahead, with it, is at most `room` requests' worth. `K` ([`AsBucket`], [`AsGcra`],
/// [`AsQueue`]) names which of them it was built as, and changes nothing it decides.
#[derive(Clone, Copy, Debug)]
pub struct DrainRule<K> {
    policy: Policy,
    /// Requests' worth of work that may be ahead, the request's own included: the
    /// bucket's capacity, GCRA's burst, one served and the queue's burst waiting.
    room: u32,
    /// True if an admitted request waits for the work that was ahead of it (a queue
    /// without `nodelay`); otherwise it is served at once.
    waits: bool,
    kind: PhantomData<K>,
}

/// Built as a token bucket.
#[derive(Clone, Copy, Debug)]
pub enum AsBucket {}

/// Built as GCRA.
#[derive(Clone, Copy, Debug)]
pub enum AsGcra {}

/// Built as a leaky queue.
#[derive(Clone, Copy, Debug)]
pub enum AsQueue {}

impl<K> DrainRule<K> {
    /// Work drains at `policy`'s rate; `room` requests' worth may be ahead; an admitted
    /// request waits for what was ahead of it if `waits`.
    pub(super) const fn new(policy: Policy, room: u32, waits: bool) -> Self {
        Self {
            policy,
            room,
            waits,
            kind: PhantomData,
        }
    }

    /// True if an admitted request waits for the work ahead of it.
    pub fn waits(&self) -> bool {
        self.waits
    }
}

impl<K> Rule for DrainRule<K> {
    /// The work ahead: GCRA's TAT, the queue's backlog, the bucket's tokens taken.
    type State = Drain;

    fn policy(&self) -> Policy {
        self.policy
    }

    fn capacity(&self) -> u32 {
        self.room
    }

    fn fresh(&self, now_us: u64) -> Drain {
        Drain::at(now_us)
    }

    fn decide(&self, drain: &mut Drain, now_us: u64, cost: u32) -> (Decision, u64) {
        let (decision, ahead_parts) = drain.admit(self.policy, self.room, now_us, cost);
        let delay_us = if decision.allowed && self.waits {
            ahead_parts.div_ceil(u64::from(self.policy.limit))
        } else {
            0
        };
        (decision, delay_us)
    }

    fn spent(&self, drain: &mut Drain, now_us: u64) -> bool {
        // Nothing ahead: a fresh caller's TAT, an empty queue, a full bucket.
        drain.empty_by(now_us, u64::from(self.policy.limit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::limiter::{Gcra, LeakyQueue, Scope, TokenBucket};
    use crate::rng::SimRng;
    use crate::time::ms;

    #[test]
    fn it_drains_at_the_rate_and_a_clock_that_steps_back_stands_still() {
        // Ten per second: one request is 1,000,000 parts, draining 10 parts a µs.
        let mut d = Drain::at(ms(5));
        let (first, before) = d.admit(POLICY, 2, ms(5), 2);
        assert!(first.allowed && before == 0);
        assert_eq!(
            (d.ahead_parts, first.remaining, first.reset_us),
            (2_000_000, 0, ms(200))
        );
        d.drain(ms(4), 10);
        assert_eq!((d.ahead_parts, d.at_us), (2_000_000, ms(5)));
        assert!(!d.empty_by(ms(204), 10) && d.empty_by(ms(205), 10));
        let (refused, _) = d.admit(POLICY, 2, ms(55), 1);
        assert!(!refused.allowed);
        assert_eq!(refused.retry_after_us, ms(50));
    }

    #[test]
    fn gcra_a_queue_and_a_bucket_admit_the_same_requests() {
        let mut gcra = Gcra::new(POLICY, 4, Scope::PerKey).unwrap();
        let mut queue = LeakyQueue::new(POLICY, 3, true, Scope::PerKey).unwrap();
        let mut bucket = TokenBucket::new(4, POLICY, Scope::PerKey).unwrap();
        let mut rng = SimRng::from_seed(11);
        let mut now_us = 0;
        for _ in 0..3_000 {
            now_us += rng.below(ms(120));
            let cost = 1 + rng.below(4) as u32;
            let d = gcra.check(now_us, "a", cost);
            assert_eq!(d, queue.check(now_us, "a", cost), "at {now_us} µs");
            assert_eq!(d, bucket.check(now_us, "a", cost), "at {now_us} µs");
        }
    }
}

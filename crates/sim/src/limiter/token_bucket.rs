//! The token bucket: each caller has a bucket of `capacity` tokens that refills at
//! `limit` tokens per `window_us`; a request takes `cost` tokens or is refused.
//!
//! There are no windows, so there is no boundary to exploit, and the state is two
//! integers whatever the traffic. The refill is arithmetic at read time: the bucket
//! remembers its level and when it last looked, and adds what the elapsed time earned.
//!
//! The bucket keeps what has been taken from it and not yet refilled, in exact integer
//! parts, as a [`Drain`] (the state GCRA and the leaky queue keep too), so every platform
//! gives the same answer: one token is `window_us` parts and every microsecond refills
//! `limit` parts, and the level is the capacity less what is still to refill. Ten tokens
//! per second is then 10 parts per µs with 1,000,000 parts to a token; nothing is ever
//! rounded except where a wait is turned into whole microseconds (always upwards).

use super::drain::{AsBucket, DrainRule};
use super::{Drain, Keyed, Limiter, LimiterError, Policy, Scope, MAX_LIMIT};

/// A token-bucket limiter: the [`DrainRule`] with room for `capacity` tokens taken, and
/// no wait. A request takes `cost` tokens if the bucket holds them: if what is taken,
/// with them, is at most the capacity.
pub type TokenBucket = Keyed<DrainRule<AsBucket>>;

impl TokenBucket {
    /// Buckets of `capacity` tokens, refilled at `refill.limit` tokens per
    /// `refill.window_us`. A new caller's bucket starts full.
    pub fn new(capacity: u32, refill: Policy, scope: Scope) -> Result<Self, LimiterError> {
        refill.check()?;
        if !(1..=MAX_LIMIT).contains(&capacity) {
            return Err(LimiterError::Capacity { capacity });
        }
        Ok(Keyed::with(DrainRule::new(refill, capacity, false), scope))
    }

    fn full_parts(&self) -> u64 {
        u64::from(self.capacity()) * self.policy().window_us
    }

    /// The caller's bucket brought up to `now_us` (or to its own time, if later).
    fn refilled(&mut self, now_us: u64, key: &str) -> &mut Drain {
        let per_us = u64::from(self.policy().limit);
        let taken = self.state(now_us, key);
        taken.drain(now_us, per_us);
        taken
    }

    /// The caller's level at `now_us`, in parts.
    fn level_parts(&mut self, now_us: u64, key: &str) -> u64 {
        let full = self.full_parts();
        full - self.refilled(now_us, key).ahead_parts
    }

    /// Empties the caller's bucket at `now_us`. A client that mirrors a server's bucket
    /// calls this on a 429: the server has just said there is nothing left.
    pub fn empty(&mut self, now_us: u64, key: &str) {
        let full = self.full_parts();
        self.refilled(now_us, key).ahead_parts = full;
    }

    /// The caller's level at `now_us` in thousandths of a token (rounded down), without
    /// taking any: what a chart of the bucket draws.
    pub fn milli_tokens(&mut self, now_us: u64, key: &str) -> u64 {
        let window_us = self.policy().window_us;
        let parts = self.level_parts(now_us, key);
        (u128::from(parts) * 1_000 / u128::from(window_us)) as u64
    }

    /// When the caller's bucket, left alone from `now_us`, is full again.
    pub fn full_at(&mut self, now_us: u64, key: &str) -> u64 {
        let per_us = u64::from(self.policy().limit);
        let taken = self.refilled(now_us, key);
        taken.at_us + taken.ahead_parts.div_ceil(per_us)
    }

    /// Whole tokens in the caller's bucket at `now_us`, without taking any.
    pub fn tokens(&mut self, now_us: u64, key: &str) -> u32 {
        let window_us = self.policy().window_us;
        (self.level_parts(now_us, key) / window_us) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::time::{ms, secs};

    /// Ten tokens, ten per second.
    fn bucket() -> TokenBucket {
        TokenBucket::new(10, POLICY, Scope::PerKey).unwrap()
    }

    #[test]
    fn starts_full_and_refills_one_token_per_100_ms_exactly() {
        let mut b = bucket();
        for i in 0..10 {
            let d = b.check(0, "a", 1).unwrap();
            assert!(d.allowed);
            assert_eq!(d.remaining, 9 - i);
        }
        let d = b.check(0, "a", 1).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.retry_after_us, ms(100));
        assert_eq!(d.reset_us, secs(1));
        // One µs short of a token is still refused, and told to wait exactly one µs.
        let d = b.check(ms(100) - 1, "a", 1).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.retry_after_us, 1);
        let d = b.check(ms(100), "a", 1).unwrap();
        assert!(d.allowed);
        assert_eq!(d.remaining, 0);
        assert_eq!(d.reset_us, secs(1));
    }

    #[test]
    fn refill_is_capped_at_the_capacity() {
        let mut b = bucket();
        assert!(b.check(0, "a", 10).unwrap().allowed);
        // An hour idle earns 36,000 tokens; the bucket holds ten.
        assert_eq!(b.tokens(secs(3_600), "a"), 10);
        let d = b.check(secs(3_600), "a", 10).unwrap();
        assert!(d.allowed);
        assert!(!b.check(secs(3_600), "a", 1).unwrap().allowed);
    }

    #[test]
    fn a_cost_takes_that_many_tokens_and_waits_for_all_of_them() {
        let mut b = bucket();
        assert!(b.check(0, "a", 3).unwrap().allowed);
        assert!(b.check(0, "a", 3).unwrap().allowed);
        assert!(b.check(0, "a", 3).unwrap().allowed);
        let d = b.check(ms(50), "a", 3).unwrap();
        // 1 token left plus 0.5 earned: 1.5 short of 3, which takes 150 ms.
        assert!(!d.allowed);
        assert_eq!(d.remaining, 1);
        assert_eq!(d.retry_after_us, ms(150));
        assert_eq!(d.reset_us, ms(850));
        // Refused: nothing was taken, so the 1.5 tokens are still there.
        let d = b.check(ms(200), "a", 3).unwrap();
        assert!(d.allowed);
        assert_eq!(d.remaining, 0);
        assert_eq!(d.reset_us, secs(1));
    }

    #[test]
    fn fractions_of_a_token_are_exact() {
        // Three tokens per 7 ms: no whole number of µs per token, and no drift either.
        let mut b = TokenBucket::new(
            3,
            Policy {
                limit: 3,
                window_us: ms(7),
            },
            Scope::Global,
        )
        .unwrap();
        assert!(b.check(0, "x", 3).unwrap().allowed);
        // One token is 7,000 parts at 3 parts per µs: 2,333.33 µs, so wait 2,334.
        let d = b.check(0, "x", 1).unwrap();
        assert_eq!(d.retry_after_us, 2_334);
        assert!(!b.check(2_333, "x", 1).unwrap().allowed);
        assert!(b.check(2_334, "x", 1).unwrap().allowed);
        // 7,000 µs after the start, all three tokens were earned: 1 taken, 2 left.
        assert_eq!(b.tokens(ms(7), "x"), 2);
    }

    #[test]
    fn a_bucket_can_be_emptied_by_a_mirror() {
        let mut b = bucket();
        b.empty(ms(5), "a");
        let d = b.check(ms(5), "a", 1).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.retry_after_us, ms(100));
    }

    #[test]
    fn bad_capacity_is_refused() {
        for capacity in [0, MAX_LIMIT + 1] {
            assert_eq!(
                TokenBucket::new(capacity, POLICY, Scope::Global).err(),
                Some(LimiterError::Capacity { capacity })
            );
        }
    }

    #[test]
    fn payload_is_sixteen_bytes_plus_key_bytes_per_caller() {
        let mut b = bucket();
        for k in ["a", "bb", "ccc"] {
            b.check(0, k, 1).unwrap();
        }
        assert_eq!(b.payload_bytes(), 3 * 16 + 6);
    }
}

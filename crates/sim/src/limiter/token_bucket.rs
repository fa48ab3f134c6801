//! The token bucket: each caller has a bucket of `capacity` tokens that refills at
//! `limit` tokens per `window_us`; a request takes `cost` tokens or is refused.
//!
//! There are no windows, so there is no boundary to exploit, and the state is two
//! integers whatever the traffic. The refill is arithmetic at read time: the bucket
//! remembers its level and when it last looked, and adds what the elapsed time earned.
//!
//! The level is kept in exact integer parts, so every platform gives the same answer:
//! one token is `window_us` parts and every microsecond adds `limit` parts. Ten tokens
//! per second is then 10 parts per µs with 1,000,000 parts to a token; nothing is ever
//! rounded except where a wait is turned into whole microseconds (always upwards).

use super::{Callers, Decision, Limiter, LimiterError, Policy, Scope, StatePayload, MAX_LIMIT};

/// One caller's bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BucketState {
    /// Tokens held, in parts (one token is `window_us` parts).
    pub level_parts: u64,
    /// When the level was last brought up to date.
    pub at_us: u64,
}

// Fixed-width integers only, so the payload is the same on wasm32 and 64-bit targets.
const _: () = assert!(std::mem::size_of::<BucketState>() == 16);

impl StatePayload for BucketState {}

/// A token-bucket limiter.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    capacity: u32,
    policy: Policy,
    callers: Callers<BucketState>,
}

impl TokenBucket {
    /// Buckets of `capacity` tokens, refilled at `refill.limit` tokens per
    /// `refill.window_us`. A new caller's bucket starts full.
    pub fn new(capacity: u32, refill: Policy, scope: Scope) -> Result<Self, LimiterError> {
        refill.check()?;
        if !(1..=MAX_LIMIT).contains(&capacity) {
            return Err(LimiterError::Capacity { capacity });
        }
        Ok(Self {
            capacity,
            policy: refill,
            callers: Callers::new(scope),
        })
    }

    fn full_parts(&self) -> u64 {
        u64::from(self.capacity) * self.policy.window_us
    }

    /// The caller's bucket brought up to `now_us` (or to its own time, if later).
    fn refilled(&mut self, now_us: u64, key: &str) -> &mut BucketState {
        let full = self.full_parts();
        let per_us = u64::from(self.policy.limit);
        let b = self.callers.state(key, || BucketState {
            level_parts: full,
            at_us: now_us,
        });
        let now_us = now_us.max(b.at_us);
        let earned = (now_us - b.at_us).saturating_mul(per_us);
        b.level_parts = b.level_parts.saturating_add(earned).min(full);
        b.at_us = now_us;
        b
    }

    /// Empties the caller's bucket at `now_us`. A client that mirrors a server's bucket
    /// calls this on a 429: the server has just said there is nothing left.
    pub fn empty(&mut self, now_us: u64, key: &str) {
        self.refilled(now_us, key).level_parts = 0;
    }

    /// The caller's level at `now_us` in thousandths of a token (rounded down), without
    /// taking any: what a chart of the bucket draws.
    pub fn milli_tokens(&mut self, now_us: u64, key: &str) -> u64 {
        let window_us = self.policy.window_us;
        let parts = self.refilled(now_us, key).level_parts;
        (u128::from(parts) * 1_000 / u128::from(window_us)) as u64
    }

    /// When the caller's bucket, left alone from `now_us`, is full again.
    pub fn full_at(&mut self, now_us: u64, key: &str) -> u64 {
        let full = self.full_parts();
        let per_us = u64::from(self.policy.limit);
        let b = self.refilled(now_us, key);
        b.at_us + (full - b.level_parts).div_ceil(per_us)
    }

    /// Whole tokens in the caller's bucket at `now_us`, without taking any.
    pub fn tokens(&mut self, now_us: u64, key: &str) -> u32 {
        let window_us = self.policy.window_us;
        (self.refilled(now_us, key).level_parts / window_us) as u32
    }
}

impl Limiter for TokenBucket {
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
        // A bucket that has refilled to the brim is a new caller's bucket.
        let full = self.full_parts();
        let per_us = u64::from(self.policy.limit);
        self.callers.forget(|b| {
            let earned = now_us.saturating_sub(b.at_us).saturating_mul(per_us);
            b.level_parts.saturating_add(earned) >= full
        })
    }

    fn capacity(&self) -> u32 {
        self.capacity
    }

    fn decide(&mut self, now_us: u64, key: &str, cost: u32) -> Decision {
        assert!((1..=self.capacity).contains(&cost));
        let full = self.full_parts();
        let Policy { limit, window_us } = self.policy;
        let per_us = u64::from(limit);
        let need = u64::from(cost) * window_us;
        let b = self.refilled(now_us, key);
        let allowed = b.level_parts >= need;
        if allowed {
            b.level_parts -= need;
        }
        let level = b.level_parts;
        assert!(level <= full);
        Decision {
            allowed,
            remaining: (level / window_us) as u32,
            retry_after_us: if allowed {
                0
            } else {
                (need - level).div_ceil(per_us)
            },
            reset_us: (full - level).div_ceil(per_us),
        }
    }

    fn payload_bytes(&self) -> u64 {
        self.callers.payload_bytes()
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

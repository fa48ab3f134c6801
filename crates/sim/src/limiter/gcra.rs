//! GCRA, the generic cell rate algorithm, as the `governor` crate and redis-cell run it:
//! each caller has a theoretical arrival time (TAT), the instant by which everything it
//! has been allowed would have arrived had it come at the steady rate. The emission
//! interval is `T = window / limit`; the burst tolerance is `τ = (burst − 1) · T`.
//!
//! A request at `now` conforms if `now ≥ TAT − τ`; it then moves the TAT to
//! `max(TAT, now) + T`. A refused request leaves the TAT alone and is told to wait until
//! `TAT − τ`. A request of cost `n` conforms if `now ≥ TAT + (n − 1)·T − τ` and moves the
//! TAT by `n·T` (governor's `check_n`). A fresh caller's TAT is "now", so it may send
//! `burst` requests at once, then one per `T`: the same admissions as a token bucket of
//! `burst` tokens, from one timestamp instead of a level and a time.
//!
//! redis-cell's `CL.THROTTLE key max_burst count period` is the same rule with
//! `burst = max_burst + 1`.
//!
//! `T` need not be a whole number of microseconds, so the TAT is kept exactly as how far
//! it lies ahead of the last instant seen, in parts: a [`Drain`](super::Drain), the state the leaky
//! queue and the token bucket keep too (one request is `window_us` parts, and every
//! microsecond is `limit` parts). A TAT in the past is "now".

use super::drain::{AsGcra, DrainRule};
use super::{Keyed, LimiterError, Policy, Scope, MAX_LIMIT};

/// A GCRA limiter: the [`DrainRule`] with room for `burst`, and no wait. A request
/// conforms if the TAT, moved by its cost, lies at most τ + T = burst · T ahead; a
/// refusal waits until TAT + (n − 1)·T − τ.
pub type Gcra = Keyed<DrainRule<AsGcra>>;

impl Gcra {
    /// One request per `policy.window_us / policy.limit`, with up to `burst` at once
    /// (governor's `Quota::with_period(T).allow_burst(burst)`).
    pub fn new(policy: Policy, burst: u32, scope: Scope) -> Result<Self, LimiterError> {
        policy.check()?;
        if !(1..=MAX_LIMIT).contains(&burst) {
            return Err(LimiterError::Capacity { capacity: burst });
        }
        Ok(Keyed::with(DrainRule::new(policy, burst, false), scope))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::tests::POLICY;
    use crate::limiter::TokenBucket;
    use crate::rng::SimRng;
    use crate::time::{ms, secs};
    use governor::clock::FakeRelativeClock;
    use governor::{Quota, RateLimiter};
    use std::num::NonZeroU32;
    use std::time::Duration;

    #[test]
    fn a_burst_then_one_per_emission_interval() {
        let mut g = Gcra::new(POLICY, 3, Scope::PerKey).unwrap();
        for i in 0..3 {
            let d = g.check(0, "a", 1).unwrap();
            assert!(d.allowed);
            assert_eq!(d.remaining, 2 - i);
        }
        // TAT is 300 ms, τ is 200 ms: the next conforms from 100 ms.
        let d = g.check(ms(40), "a", 1).unwrap();
        assert!(!d.allowed);
        assert_eq!(d.retry_after_us, ms(60));
        assert_eq!(d.reset_us, ms(260));
        assert!(g.check(ms(100), "a", 1).unwrap().allowed);
        assert!(!g.check(ms(199), "a", 1).unwrap().allowed);
        assert!(g.check(ms(200), "a", 1).unwrap().allowed);
        // An idle caller's TAT falls into the past: a full burst again, then forgotten.
        assert_eq!(g.check(secs(5), "a", 1).unwrap().remaining, 2);
        assert_eq!(g.forget_spent(secs(5) + ms(100)), 1);
    }

    #[test]
    fn it_admits_what_a_token_bucket_of_burst_tokens_admits() {
        let mut g = Gcra::new(POLICY, 10, Scope::PerKey).unwrap();
        let mut b = TokenBucket::new(10, POLICY, Scope::PerKey).unwrap();
        let mut rng = SimRng::from_seed(7);
        let mut now_us = 0;
        for _ in 0..5_000 {
            now_us += rng.below(ms(150));
            let cost = 1 + rng.below(3) as u32;
            assert_eq!(g.check(now_us, "a", cost), b.check(now_us, "a", cost));
        }
    }

    /// Runs the same arrivals (µs from the start, and a cost) through our GCRA and
    /// governor's with a fake clock; every decision and every refusal's wait must agree.
    fn agrees_with_governor(policy: Policy, burst: u32, arrivals: &[(u64, u32)]) -> (u32, u32) {
        let period = Duration::from_micros(policy.window_us / u64::from(policy.limit));
        assert_eq!(
            period.as_micros() * u128::from(policy.limit),
            u128::from(policy.window_us),
            "schedules use a whole number of µs per request"
        );
        let quota = Quota::with_period(period)
            .unwrap()
            .allow_burst(NonZeroU32::new(burst).unwrap());
        let clock = FakeRelativeClock::default();
        let theirs = RateLimiter::direct_with_clock(quota, clock.clone());
        let mut ours = Gcra::new(policy, burst, Scope::Global).unwrap();
        let (mut allowed, mut refused) = (0, 0);
        let mut clock_us = 0;
        for (i, &(at_us, cost)) in arrivals.iter().enumerate() {
            clock.advance(Duration::from_micros(at_us - clock_us));
            clock_us = at_us;
            let d = ours.check(at_us, "k", cost).unwrap();
            let verdict = theirs
                .check_n(NonZeroU32::new(cost).unwrap())
                .expect("the cost fits the burst");
            match verdict {
                Ok(()) => {
                    assert!(d.allowed, "request {i} at {at_us} µs: governor allows");
                    allowed += 1;
                }
                Err(not_until) => {
                    assert!(!d.allowed, "request {i} at {at_us} µs: governor refuses");
                    let wait = not_until.wait_time_from(governor::clock::Clock::now(&clock));
                    assert_eq!(
                        u128::from(d.retry_after_us),
                        wait.as_micros(),
                        "request {i} at {at_us} µs: the wait"
                    );
                    refused += 1;
                }
            }
        }
        (allowed, refused)
    }

    #[test]
    fn it_agrees_with_governor_on_steady_bursty_and_random_schedules() {
        let policy = POLICY;
        // Steady at the rate, then at twice the rate.
        let steady: Vec<(u64, u32)> = (0..100).map(|i| (i * ms(100), 1)).collect();
        assert_eq!(agrees_with_governor(policy, 1, &steady), (100, 0));
        let fast: Vec<(u64, u32)> = (0..100).map(|i| (i * ms(50), 1)).collect();
        let (a, r) = agrees_with_governor(policy, 5, &fast);
        assert!(a > 50 && r > 0, "{a} {r}");
        // Volleys of 20 within 2 ms, every 700 ms.
        let bursts: Vec<(u64, u32)> = (0..10u64)
            .flat_map(|v| (0..20u64).map(move |i| (v * ms(700) + i * 100, 1)))
            .collect();
        for burst in [1, 3, 10] {
            // A full burst first, then what 700 ms earn (7), up to the burst, each volley.
            let (a, r) = agrees_with_governor(policy, burst, &bursts);
            assert_eq!(a, burst + 9 * burst.min(7), "{burst}");
            assert_eq!(a + r, 200);
        }
        // Seeded random arrivals and costs, at several bursts and rates.
        for seed in 1..=5 {
            let mut rng = SimRng::from_seed(seed);
            let mut at_us = 0;
            let random: Vec<(u64, u32)> = (0..2_000)
                .map(|_| {
                    at_us += if rng.below(10) == 0 {
                        rng.below(secs(2))
                    } else {
                        rng.below(ms(60))
                    };
                    (at_us, 1 + rng.below(2) as u32)
                })
                .collect();
            for (limit, window_us, burst) in [(10, secs(1), 4), (3, ms(7_500), 2), (20, secs(1), 3)]
            {
                let (a, r) = agrees_with_governor(Policy { limit, window_us }, burst, &random);
                assert!(a > 0 && r > 0, "seed {seed}, {limit}/{window_us}: {a} {r}");
            }
        }
    }

    #[test]
    fn bad_burst_is_refused() {
        assert_eq!(
            Gcra::new(POLICY, 0, Scope::Global).err(),
            Some(LimiterError::Capacity { capacity: 0 })
        );
    }
}

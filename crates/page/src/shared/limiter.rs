//! The sentences for a limiter that cannot be built or cannot decide a request.

use crate::shared::words::Words;
use sim::limiter::{LimiterError, MAX_LIMIT, MAX_WINDOW_US};
use std::fmt;

impl Words for LimiterError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LimiterError::Limit { limit } => write!(
                f,
                "a limit of {limit} requests is outside the allowed range 1–{MAX_LIMIT}"
            ),
            LimiterError::Window { window_us } => write!(
                f,
                "a window of {window_us} µs is outside the allowed range 1–{MAX_WINDOW_US} µs"
            ),
            LimiterError::Capacity { capacity } => write!(
                f,
                "a bucket of {capacity} tokens is outside the allowed range 1–{MAX_LIMIT}"
            ),
            LimiterError::Burst { burst } => write!(
                f,
                "a queue of {burst} waiting requests is outside the allowed range 0–{}",
                MAX_LIMIT - 1
            ),
            LimiterError::Hold { hold_us } => write!(
                f,
                "a hold of {hold_us} µs per request is outside the allowed range 1–{MAX_WINDOW_US} µs"
            ),
            LimiterError::ZeroCost => f.write_str("a request must cost at least 1 unit"),
            LimiterError::CostOverCapacity { cost, capacity } => write!(
                f,
                "a request costing {cost} units can never fit an allowance of {capacity}"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::shared::words::Words;
    use sim::limiter::{LimiterKind, Policy, Scope, TokenBucket, MAX_WINDOW_US};
    use sim::time::secs;

    const POLICY: Policy = Policy {
        limit: 10,
        window_us: secs(1),
    };

    #[test]
    fn every_limiter_error_is_a_sentence() {
        let words = |limit, window_us| {
            LimiterKind::Fixed
                .build(Policy { limit, window_us }, Scope::Global)
                .err()
                .unwrap()
                .sentence()
        };
        assert_eq!(
            words(0, secs(1)),
            "a limit of 0 requests is outside the allowed range 1–1000000"
        );
        assert_eq!(
            words(10, MAX_WINDOW_US + 1),
            "a window of 2678400000001 µs is outside the allowed range 1–2678400000000 µs"
        );
        assert_eq!(
            TokenBucket::new(0, POLICY, Scope::Global)
                .unwrap_err()
                .sentence(),
            "a bucket of 0 tokens is outside the allowed range 1–1000000"
        );
        let mut l = LimiterKind::Sliding.build(POLICY, Scope::PerKey).unwrap();
        assert_eq!(
            l.check(0, "a", 0).unwrap_err().sentence(),
            "a request must cost at least 1 unit"
        );
        assert_eq!(
            l.check(0, "a", 11).unwrap_err().sentence(),
            "a request costing 11 units can never fit an allowance of 10"
        );
    }

    #[test]
    fn the_new_limiters_errors_are_sentences() {
        use sim::limiter::{ConcurrencyLimit, LeakyQueue, MAX_LIMIT};
        assert_eq!(
            LeakyQueue::new(POLICY, MAX_LIMIT, false, Scope::Global)
                .unwrap_err()
                .sentence(),
            "a queue of 1000000 waiting requests is outside the allowed range 0–999999"
        );
        assert_eq!(
            ConcurrencyLimit::new(POLICY, 0, Scope::Global)
                .unwrap_err()
                .sentence(),
            "a hold of 0 µs per request is outside the allowed range 1–2678400000000 µs"
        );
        // A queue's capacity is its burst plus the one served: 10 for the article's policy.
        let mut q = LimiterKind::Queue.build(POLICY, Scope::PerKey).unwrap();
        assert_eq!(
            q.check(0, "a", 11).unwrap_err().sentence(),
            "a request costing 11 units can never fit an allowance of 10"
        );
    }
}

//! The sentences for a limiter that cannot be built or cannot decide a request, and
//! each limiter's name for readers.

use crate::shared::words::Words;
use sim::limiter::{LimiterError, LimiterKind, MAX_LIMIT, MAX_WINDOW_US};
use std::fmt;

/// A limiter as a reader calls it: "fixed window", "leaky bucket, queued", …
pub const fn label(kind: LimiterKind) -> &'static str {
    match kind {
        LimiterKind::Fixed => "fixed window",
        LimiterKind::Sliding => "sliding log",
        LimiterKind::Bucket => "token bucket",
        LimiterKind::Counter => "sliding-window counter",
        LimiterKind::Queue => "leaky bucket, queued",
        LimiterKind::Nodelay => "leaky bucket, nodelay",
        LimiterKind::Gcra => "GCRA",
        LimiterKind::Inflight => "concurrency limit",
    }
}

/// What a limiter's rule is, in one sentence, as the limits page and the docs give it.
pub const fn rule(kind: LimiterKind) -> &'static str {
    match kind {
        LimiterKind::Fixed => "counts requests in aligned windows and forgets the count when a new one starts",
        LimiterKind::Sliding => "logs the instant of every allowed request and counts those in the last window",
        LimiterKind::Bucket => "takes a token per request from a bucket that refills at the rate",
        LimiterKind::Counter => {
            "counts this window and the last, weighting the last by how much of it still overlaps"
        }
        LimiterKind::Queue => {
            "lets requests leave at the rate and holds up to a burst of them waiting; beyond that it refuses"
        }
        LimiterKind::Nodelay => {
            "admits what the queue admits but serves it at once; its slots still drain at the rate"
        }
        LimiterKind::Gcra => {
            "keeps one theoretical arrival time and admits a request no further ahead of it than the burst allows"
        }
        LimiterKind::Inflight => {
            "allows the limit in flight at once, each request holding its slot for its service time (15 ms here)"
        }
    }
}

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
    fn every_limiter_has_a_label_and_a_rule() {
        let labels: Vec<&str> = LimiterKind::ALL.iter().map(|&k| super::label(k)).collect();
        for (i, l) in labels.iter().enumerate() {
            assert!(!labels[..i].contains(l), "{l} twice");
            assert!(!super::rule(LimiterKind::ALL[i]).ends_with('.'));
        }
        assert_eq!(super::label(LimiterKind::Gcra), "GCRA");
        // The concurrency limit's rule names the hold the core gives it.
        assert_eq!(
            sim::limiter::concurrency::DEFAULT_HOLD_US,
            secs(1) / 1_000 * 15
        );
        assert!(super::rule(LimiterKind::Inflight).contains("(15 ms here)"));
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

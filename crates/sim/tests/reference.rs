//! The article's measured runs are the reference table. Each strategy runs on seeds
//! 1..=20 and its figures must land near the article's.
//!
//! Bands: the provider's randomness is binomial. Over ~1,050 requests, 500s (p = 1/20)
//! have a standard deviation of about 7 per run and 1.6 for a 20-seed mean; slow
//! charges (p = 1/33) about 5 per run and 1.2 for the mean. Mean bands are set at
//! roughly ±4 standard deviations of the mean around the article's figure, so they
//! fail when the model changes, not when the dice do. Per-run checks are structural
//! (always zero, always 990) and hold for every seed.

use sim::{run, Scenario, Stats, StrategyName};

const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;

fn runs(strategy: StrategyName) -> Vec<(u64, Stats)> {
    SEEDS
        .map(|seed| {
            (
                seed,
                run(&Scenario::article(strategy, seed)).expect("valid scenario"),
            )
        })
        .collect()
}

fn mean(runs: &[(u64, Stats)], field: &str) -> f64 {
    runs.iter()
        .map(|(_, s)| s.get(field.parse().expect("a stat field")) as f64)
        .sum::<f64>()
        / runs.len() as f64
}

fn assert_mean(runs: &[(u64, Stats)], field: &str, lo: f64, hi: f64) {
    let m = mean(runs, field);
    assert!(
        (lo..=hi).contains(&m),
        "{field}: mean {m:.1} over seeds {SEEDS:?} is outside {lo}..={hi}"
    );
}

fn assert_each(runs: &[(u64, Stats)], what: &str, ok: impl Fn(&Stats) -> bool) {
    for (seed, s) in runs {
        assert!(ok(s), "{what} fails for seed {seed}: {s:?}");
    }
}

#[test]
fn naive_is_mostly_429() {
    let r = runs(StrategyName::Naive);
    // 100 pass the rate check at t = 0, 10 of them fit in flight: 900 × 429, 90 × 503.
    assert_each(&r, "about 900 × 429", |s| {
        (850..=950).contains(&s.rate_limited)
    });
    assert_each(&r, "all 1,000 sent at once", |s| {
        s.client_max_outstanding == 1_000
    });
    assert_each(&r, "at most 10 charged", |s| s.customers_charged <= 10);
}

#[test]
fn paced_has_no_429_and_loses_the_500s() {
    let r = runs(StrategyName::Paced);
    assert_each(&r, "no 429", |s| s.rate_limited == 0);
    assert_each(&r, "no retries", |s| s.requests == 1_000);
    // Article: 939 charged in 12.2 s, 51 valid customers lost to a 500.
    assert_mean(&r, "customersCharged", 920.0, 955.0);
    assert_mean(&r, "serverErrors", 45.0, 57.0);
    assert_mean(&r, "elapsedMs", 11_700.0, 12_700.0);
}

#[test]
fn retry_charges_everyone() {
    let r = runs(StrategyName::Retry);
    assert_each(&r, "all 990 valid customers charged", |s| {
        s.customers_charged == 990
    });
    assert_each(&r, "no duplicates without a timeout", |s| s.duplicates == 0);
    // Article: 1,053 requests in 13 s.
    assert_mean(&r, "requests", 1_035.0, 1_075.0);
    assert_mean(&r, "elapsedMs", 12_300.0, 13_700.0);
}

#[test]
fn timeout_without_key_charges_some_customers_twice() {
    let r = runs(StrategyName::TimeoutNoKey);
    assert_each(&r, "every run double-charges someone", |s| {
        s.duplicates >= 10
    });
    assert_each(&r, "but every valid customer is charged", |s| {
        s.customers_charged == 990
    });
    // Article: 29 customers charged twice.
    assert_mean(&r, "duplicates", 24.0, 35.0);
}

#[test]
fn keyed_has_no_duplicates() {
    let r = runs(StrategyName::Keyed);
    assert_each(&r, "no duplicates", |s| s.duplicates == 0);
    assert_each(&r, "990 charged", |s| {
        s.customers_charged == 990 && s.charges == 990
    });
    assert_each(&r, "10 declined, none retried", |s| {
        s.declined == 10 && s.retried_declined == 0
    });
    assert_each(&r, "few 409s", |s| s.in_progress_conflicts <= 20);
    // Article: 1,084 requests, maxInflight 9, 2 × 409, 13.2 s.
    assert_mean(&r, "requests", 1_065.0, 1_110.0);
    assert_mean(&r, "maxInflight", 8.0, 10.0);
    assert_mean(&r, "inProgressConflicts", 0.5, 8.0);
    assert_mean(&r, "elapsedMs", 12_700.0, 14_000.0);
}

#[test]
fn pool_waits_behind_five_not_a_thousand() {
    let keyed = runs(StrategyName::Keyed);
    let r = runs(StrategyName::Pool);
    assert_each(&r, "no duplicates", |s| s.duplicates == 0);
    assert_each(&r, "990 charged", |s| s.customers_charged == 990);
    assert_each(&r, "the client awaits at most 6", |s| {
        s.client_max_outstanding <= 6
    });
    // A retry now arrives while the slow first attempt still runs: many more 409s.
    assert!(mean(&r, "inProgressConflicts") > 5.0 * mean(&keyed, "inProgressConflicts"));
    // The provider can still hold more than 6: a timed-out slow charge keeps running.
    assert!(
        r.iter().any(|(_, s)| s.max_inflight > 6),
        "the pool's provider-side peak should exceed 6 for some seed"
    );
}

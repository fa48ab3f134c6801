//! Common random numbers: on one seed, the six strategies roll the same dice.
//!
//! The provider's draws are keyed by the customer and the customer's n-th request, not
//! taken from one stream in arrival order, so a customer's first request meets the same
//! luck under every strategy that gets it admitted. That is what makes the compare
//! view's columns differ by the strategy alone.

use sim::provider::{Status, Work};
use sim::record::{Admission, RequestRecord};
use sim::{Scenario, Simulation, StrategyName};
use std::collections::BTreeSet;

const SEEDS: [u64; 5] = [1, 2, 7, 20_261_129, u64::MAX];

/// What the provider's dice decided about one admitted first request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Luck {
    slow: bool,
    processing_us: u64,
    /// Whether it failed with a 500; `None` where no error was drawn for it (a decline).
    failed: Option<bool>,
}

/// Each customer's first request (index `customer − 1`), if the provider admitted it.
fn first_requests(strategy: StrategyName, seed: u64) -> Vec<Option<Luck>> {
    let scenario = Scenario::article(strategy, seed);
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.run_to_end();
    let mut first: Vec<Option<&RequestRecord>> = vec![None; scenario.customers as usize];
    for r in sim.record().unwrap() {
        first[r.customer as usize - 1].get_or_insert(r);
    }
    first
        .into_iter()
        .map(|r| {
            let r = r.expect("every customer sends at least one request");
            assert_eq!(r.attempt, 1, "{strategy} seed {seed}: {r:?}");
            let Admission::Admitted { work, slow, .. } = r.admission else {
                return None;
            };
            let failed = match work {
                Work::Charge | Work::Fail => Some(r.status == Some(Status::ServerError)),
                Work::Decline
                | Work::Conflict
                | Work::Replay(_)
                | Work::Stale(_)
                | Work::Mismatch
                | Work::Down => None,
            };
            Some(Luck {
                slow,
                processing_us: r.done_at_us - r.sent_at_us,
                failed,
            })
        })
        .collect()
}

#[test]
fn every_strategy_meets_the_same_luck_on_a_customers_first_request() {
    let mut mismatches = Vec::new();
    for seed in SEEDS {
        let runs: Vec<_> = StrategyName::ALL
            .iter()
            .map(|&s| (s, first_requests(s, seed)))
            .collect();
        for (i, (a, luck_a)) in runs.iter().enumerate() {
            for (b, luck_b) in &runs[i + 1..] {
                let mut compared = 0;
                let (mut slow, mut errors_compared, mut failed) = (0, 0, 0);
                let mut latencies = BTreeSet::new();
                for (index, pair) in luck_a.iter().zip(luck_b).enumerate() {
                    let (Some(x), Some(y)) = pair else { continue };
                    compared += 1;
                    slow += usize::from(x.slow);
                    latencies.insert(x.processing_us);
                    let customer = index + 1;
                    let mut differ = |what: &str, p: String, q: String| {
                        mismatches.push(format!(
                            "seed {seed}, customer {customer}, {a} vs {b}: {what} {p} vs {q}"
                        ))
                    };
                    if x.slow != y.slow {
                        differ("slow", x.slow.to_string(), y.slow.to_string());
                    }
                    if x.processing_us != y.processing_us {
                        differ(
                            "processing µs",
                            x.processing_us.to_string(),
                            y.processing_us.to_string(),
                        );
                    }
                    if let (Some(p), Some(q)) = (x.failed, y.failed) {
                        errors_compared += 1;
                        failed += usize::from(p);
                        if p != q {
                            differ("500", p.to_string(), q.to_string());
                        }
                    }
                }
                // Naive gets only 10 requests admitted (the in-flight limit at t = 0);
                // every other strategy gets nearly all 1,000 first requests in.
                let enough = if *a == StrategyName::Naive { 10 } else { 900 };
                assert!(
                    compared >= enough,
                    "seed {seed}, {a} vs {b}: only {compared} customers compared"
                );
                // The dice must vary from customer to customer, or equal dice prove nothing.
                if compared >= 900 {
                    assert!(
                        (1..compared).contains(&slow),
                        "seed {seed}, {a} vs {b}: {slow} of {compared} slow"
                    );
                    assert!(
                        (1..errors_compared).contains(&failed),
                        "seed {seed}, {a} vs {b}: {failed} of {errors_compared} failed"
                    );
                    assert!(
                        latencies.len() > 100,
                        "seed {seed}, {a} vs {b}: {} distinct processing times",
                        latencies.len()
                    );
                }
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatches; the first:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(10)].join("\n")
    );
}

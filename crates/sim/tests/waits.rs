//! What a customer waits: the run's p50, p99 and max against every wait sorted by brute
//! force from the record.

use sim::incident::Incident;
use sim::record::RequestRecord;
use sim::rng::Odds;
use sim::time::{ms, whole_ms};
use sim::traffic::{Arrivals, Traffic, TrafficPlan};
use sim::{Scenario, Simulation, Stats, StrategyName};

/// Every finished customer's wait by `t_us`, in whole milliseconds, sorted: from each
/// customer's last request, the instant the client had its answer or gave up waiting.
fn waits_by(record: &[RequestRecord], arrivals: &Arrivals, t_us: u64) -> Vec<u64> {
    let customers = record.iter().map(|r| r.customer).max().unwrap_or(0) as usize;
    let mut last: Vec<Option<&RequestRecord>> = vec![None; customers];
    for r in record {
        last[r.customer as usize - 1] = Some(r);
    }
    let mut waits: Vec<u64> = last
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let at_us = r.client.at_us().filter(|&at| at <= t_us)?;
            Some(whole_ms(at_us - arrivals.at_us(r.customer)))
        })
        .collect();
    waits.sort_unstable();
    waits
}

/// The nearest-rank percentile of sorted `waits` (0 with none).
fn nearest_rank(waits: &[u64], per_cent: u64) -> u64 {
    let rank = (waits.len() as u64 * per_cent).div_ceil(100) as usize;
    rank.checked_sub(1).map_or(0, |i| waits[i])
}

/// The stat `got` is the nearest-rank percentile `want`, or at most `want / 512` above.
fn close(got: u64, want: u64) -> bool {
    want <= got && got - want <= want / 512 && (want >= 1_024 || got == want)
}

fn check(stats: &Stats, waits: &[u64], why: &str) {
    let (p50, p99) = (nearest_rank(waits, 50), nearest_rank(waits, 99));
    assert!(
        close(stats.wait_p50_ms, p50),
        "{why}: p50 {stats:?} vs {p50}"
    );
    assert!(
        close(stats.wait_p99_ms, p99),
        "{why}: p99 {stats:?} vs {p99}"
    );
    assert_eq!(
        stats.wait_max_ms,
        waits.last().copied().unwrap_or(0),
        "{why}: max"
    );
    assert!(
        stats.wait_p50_ms <= stats.wait_p99_ms
            && stats.wait_p99_ms <= stats.wait_max_ms
            && stats.wait_max_ms <= stats.elapsed_ms,
        "{why}: p50 ≤ p99 ≤ max ≤ elapsed: {stats:?}"
    );
}

#[test]
fn every_strategy_reports_the_waits_a_sort_finds() {
    for (strategy, incident) in StrategyName::ALL
        .into_iter()
        .flat_map(|s| Incident::ALL.map(|i| (s, i)))
    {
        for seed in 1..=3 {
            let mut scenario = Scenario::article(strategy, seed);
            scenario.provider.incident.kind = incident;
            scenario.record = true;
            if seed == 3 {
                // Traffic that keeps arriving: each wait starts at its own arrival.
                scenario.traffic = TrafficPlan {
                    shape: Traffic::Steady,
                    rate_per_s: 150,
                };
            }
            let mut sim = Simulation::new(&scenario).unwrap();
            let stats = sim.run_to_end();
            let record = sim.record().unwrap();
            let waits = waits_by(record, sim.arrivals(), u64::MAX);
            assert_eq!(waits.len(), 1_000, "{strategy} seed {seed}");
            check(&stats, &waits, &format!("{strategy} seed {seed}"));
            // In a batch everyone arrived at 0: the longest wait is the run's length.
            // Arriving over time, it is shorter.
            assert_eq!(
                stats.wait_max_ms == stats.elapsed_ms,
                seed != 3,
                "{strategy} seed {seed}"
            );
        }
    }
}

#[test]
fn a_run_cut_short_counts_only_the_customers_finished_by_then() {
    for strategy in StrategyName::ALL {
        let mut scenario = Scenario::article(strategy, 2);
        scenario.record = true;
        let mut sim = Simulation::new(&scenario).unwrap();
        let end = sim.run_to_end();
        let record = sim.record().unwrap().to_vec();
        let incident = scenario.provider.incident;
        for t_us in [0, ms(15), ms(400), ms(3_000), end.elapsed_ms * 1_000 / 2] {
            let waits = waits_by(&record, sim.arrivals(), t_us);
            let at = Stats::at(&record, t_us, &incident, sim.arrivals());
            check(&at, &waits, &format!("{strategy} at {t_us} µs"));
            let mut live = Simulation::new(&scenario).unwrap();
            live.run_until(t_us);
            assert_eq!(live.stats(), at, "{strategy} at {t_us} µs: live and record");
        }
    }
}

#[test]
fn small_runs_are_exact() {
    // Waits well below 1,024 ms: the histogram holds each one exactly.
    for seed in 1..=20 {
        let mut scenario = Scenario::article(StrategyName::Naive, seed);
        scenario.customers = 40;
        scenario.provider.slow = Odds { num: 0, den: 1 };
        scenario.record = true;
        let mut sim = Simulation::new(&scenario).unwrap();
        let stats = sim.run_to_end();
        let waits = waits_by(sim.record().unwrap(), sim.arrivals(), u64::MAX);
        assert!(*waits.last().unwrap() < 1_024, "seed {seed}: {waits:?}");
        assert_eq!(
            (stats.wait_p50_ms, stats.wait_p99_ms, stats.wait_max_ms),
            (
                nearest_rank(&waits, 50),
                nearest_rank(&waits, 99),
                *waits.last().unwrap()
            ),
            "seed {seed}"
        );
    }
}

#[test]
fn a_batch_that_finishes_at_once_waits_the_same_everywhere() {
    // Ten customers, ten slots, one fixed latency and nothing going wrong: every charge
    // ends at 15 ms.
    let mut scenario = Scenario::article(StrategyName::Naive, 1);
    scenario.customers = 10;
    scenario.provider.latency_jitter_us = 0;
    scenario.provider.server_error = Odds { num: 0, den: 1 };
    scenario.provider.slow = Odds { num: 0, den: 1 };
    scenario.provider.decline_every = 0;
    let stats = Simulation::new(&scenario).unwrap().run_to_end();
    assert_eq!(stats.customers_charged, 10);
    assert_eq!(
        (
            stats.wait_p50_ms,
            stats.wait_p99_ms,
            stats.wait_max_ms,
            stats.elapsed_ms
        ),
        (15, 15, 15, 15)
    );
}

#[test]
fn ten_million_customers_hold_a_bounded_histogram() {
    // The histogram of a long run's waits: one a millisecond apart up to ten million,
    // as a ten-million-customer batch paced at a thousand a second would finish.
    let mut waits = sim::waits::Waits::default();
    for i in 0..10_000_000u64 {
        waits.add(0, ms(i));
    }
    assert_eq!(waits.len(), 10_000_000);
    assert_eq!(waits.max_ms(), 9_999_999);
    let p50 = waits.percentile_ms(50);
    assert!(
        (4_999_999..=4_999_999 + 4_999_999 / 512).contains(&p50),
        "{p50}"
    );
    assert!(
        waits.heap_bytes() <= 64 * 1024,
        "{} bytes",
        waits.heap_bytes()
    );
}

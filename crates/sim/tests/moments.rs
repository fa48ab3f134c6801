//! The run at any instant, derived from its record, equals what the simulation itself
//! published when it was at that instant; and the harmful instants are where they say.

use sim::incident::Incident;
use sim::moments::{fates_at, harm_moments, request_times, snapshot_at, Harm};
use sim::record::RequestRecord;
use sim::story::Scene;
use sim::{Scenario, Simulation, StatField, Stats, StrategyName};

fn finished(strategy: StrategyName, seed: u64) -> Simulation {
    finished_with(strategy, seed, Incident::None)
}

fn finished_with(strategy: StrategyName, seed: u64, incident: Incident) -> Simulation {
    let mut scenario = Scenario::article(strategy, seed);
    scenario.provider.incident.kind = incident;
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.run_to_end();
    sim
}

/// Instants worth checking: around every send, answer and client verdict (thinned out).
fn instants(record: &[RequestRecord]) -> Vec<u64> {
    let mut times: Vec<u64> = record
        .iter()
        .step_by(5)
        .flat_map(|r| {
            let at = r.client.at_us().unwrap();
            [r.sent_at_us, r.done_at_us, at, at.saturating_sub(1), at + 1]
        })
        .chain([0, u64::MAX / 2])
        .collect();
    times.sort_unstable();
    times.dedup();
    times
}

#[test]
fn the_stats_and_fates_at_any_instant_equal_the_live_ones_then() {
    for strategy in StrategyName::ALL {
        // The calm provider, and two incidents, whose own fields are derived from the
        // record as well.
        for (seed, incident) in [
            (1, Incident::None),
            (2, Incident::None),
            (7, Incident::None),
            (2, Incident::Down),
            (7, Incident::Capacity),
        ] {
            let done = finished_with(strategy, seed, incident);
            let record = done.record().unwrap();
            let customers = done.scenario().customers;
            let plan = &done.scenario().provider.incident;
            let mut live = Simulation::new(done.scenario()).unwrap();
            for t in instants(record) {
                live.run_until(t);
                assert_eq!(
                    Stats::at(record, t, plan, done.arrivals()),
                    live.stats(),
                    "{strategy} seed {seed} {incident} at {t} µs"
                );
                let mut snap = live.snapshot();
                snap.now_us = t; // a finished run's clock stops at its last event
                assert_eq!(
                    snapshot_at(record, done.arrivals(), plan, t),
                    snap,
                    "{strategy} seed {seed} at {t} µs"
                );
                assert_eq!(
                    fates_at(record, customers, t),
                    live.fates(),
                    "{strategy} seed {seed} at {t} µs"
                );
            }
        }
    }
}

#[test]
fn at_the_end_the_stats_are_the_final_ones_and_counts_only_grow() {
    for strategy in StrategyName::ALL {
        let sim = finished_with(strategy, 3, Incident::Down);
        let record = sim.record().unwrap();
        let plan = &sim.scenario().provider.incident;
        let end = record
            .iter()
            .map(|r| r.done_at_us.max(r.client.at_us().unwrap()))
            .max();
        assert_eq!(
            Stats::at(record, end.unwrap(), plan, sim.arrivals()),
            sim.stats(),
            "{strategy}"
        );
        assert_eq!(
            Stats::at(record, u64::MAX, plan, sim.arrivals()),
            Stats::from_record(record, plan, sim.arrivals())
        );
        let mut before = Stats::at(record, 0, plan, sim.arrivals());
        for t in instants(record) {
            let now = Stats::at(record, t, plan, sim.arrivals());
            // A ratio or a mean may fall, and so may a recovery time "so far" that becomes a
            // measured one; every count only grows.
            for field in StatField::ALL.into_iter().filter(|f| {
                !matches!(
                    f,
                    StatField::RequestsPer100Charges
                        | StatField::RecoveryMs
                        | StatField::ConcurrencyMean
                )
            }) {
                assert!(
                    now.get(field) >= before.get(field),
                    "{strategy}: {field:?} fell at {t} µs"
                );
            }
            before = now;
        }
    }
}

#[test]
fn harm_moments_are_sorted_and_match_the_harm_counted() {
    for strategy in StrategyName::ALL {
        for seed in 1..=5 {
            let sim = finished(strategy, seed);
            let record = sim.record().unwrap();
            let s = sim.stats();
            let moments = harm_moments(record, sim.scenario().customers);
            assert!(moments.windows(2).all(|w| w[0] <= w[1]));
            let count = |h: Harm| moments.iter().filter(|m| m.harm == h).count() as u64;
            assert_eq!(count(Harm::DoubleCharge), s.duplicates, "{strategy} {seed}");
            assert_eq!(
                count(Harm::Conflict),
                s.in_progress_conflicts,
                "{strategy} {seed}"
            );
            assert_eq!(
                count(Harm::Storm) > 0,
                s.rate_limited + s.overloaded > 0,
                "{strategy} {seed}"
            );
            let gave_up_charged = sim
                .fates()
                .iter()
                .filter(|f| **f == sim::world::Fate::GaveUpButCharged)
                .count() as u64;
            assert_eq!(count(Harm::ChargedAfterGivingUp), gave_up_charged);
            // The stat counts them too, and also those of them charged twice or more.
            assert!(s.gave_up_charged >= gave_up_charged, "{strategy} {seed}");
            if s.duplicates == 0 {
                assert_eq!(s.gave_up_charged, gave_up_charged, "{strategy} {seed}");
            }
            // At each moment, its harm is visible in the stats and not just before.
            for m in moments.iter().filter(|m| m.harm == Harm::DoubleCharge) {
                assert!(
                    Stats::at(record, m.at_us, &Default::default(), sim.arrivals()).duplicates
                        > Stats::at(record, m.at_us - 1, &Default::default(), sim.arrivals())
                            .duplicates
                );
            }
            let times = request_times(record);
            assert!(times.windows(2).all(|w| w[0] < w[1]));
        }
    }
}

#[test]
fn the_first_double_charge_of_timeout_no_key_is_the_customer_the_story_names() {
    for seed in 1..=10 {
        let sim = finished(StrategyName::TimeoutNoKey, seed);
        let record = sim.record().unwrap();
        let moments = harm_moments(record, sim.scenario().customers);
        let first = moments
            .iter()
            .find(|m| m.harm == Harm::DoubleCharge)
            .unwrap();
        assert_eq!(
            Some(first.customer),
            Scene::DoubleCharge.find(record),
            "seed {seed}"
        );
        if seed == 1 {
            assert_eq!(
                moments[0], *first,
                "seed 1's first harm is its first double charge"
            );
        }
    }
}

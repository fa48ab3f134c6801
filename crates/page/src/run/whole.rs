//! A run computed whole in a simulation worker, off the page's thread: the page hands it
//! the run's query and gets back its final snapshot as flat values, with progress on the
//! way. A run this large keeps no record (`sim::budget::keeps_record`), so its stats and
//! its final snapshot are all there is to hand back.

use crate::query::codec::pairs_of;
use crate::query::read::parse;
use sim::{Scenario, Simulation, Snapshot, StatField, Stats};

/// Events between two looks at the clock for progress.
const EVENTS_PER_LOOK: u64 = 200_000;

/// The scenario a run's query names, the record off: or why not.
pub fn scenario_of(query: &str) -> Result<Scenario, String> {
    let q = parse(&pairs_of(query));
    if let Some(problem) = q.problems.first() {
        return Err(problem.clone());
    }
    Ok(Scenario {
        record: false,
        strategy: q.strategy.ok_or("The run's query names no strategy.")?,
        ..q.seeded_scenario()
    })
}

/// Runs `query`'s scenario to its end, telling `progress` the charges finished (and in
/// all) every so often: its final snapshot, flat ([`snapshot_values`]).
pub fn run_whole(query: &str, mut progress: impl FnMut(u64, u64)) -> Result<Vec<u64>, String> {
    let scenario = scenario_of(query)?;
    let mut sim =
        Simulation::new(&scenario).map_err(|e| crate::shared::words::Words::sentence(&e))?;
    let total = u64::from(scenario.customers);
    while !sim.is_finished() {
        if sim.run_events(EVENTS_PER_LOOK) == 0 {
            break;
        }
        progress(sim.snapshot().customers_done, total);
    }
    Ok(snapshot_values(&sim.snapshot()))
}

/// A snapshot as flat values: the clock, the charges finished and in all, in flight,
/// awaited, finished (1 or 0), then the stats ([`Stats::values`]).
pub fn snapshot_values(s: &Snapshot) -> Vec<u64> {
    let head = [
        s.now_us,
        s.customers_done,
        u64::from(s.customers),
        u64::from(s.inflight),
        u64::from(s.outstanding),
        u64::from(s.finished),
    ];
    head.into_iter().chain(s.stats.values()).collect()
}

/// A snapshot back from [`snapshot_values`], or `None` if the values are not one.
pub fn snapshot_of(values: &[u64]) -> Option<Snapshot> {
    let [now_us, customers_done, customers, inflight, outstanding, finished, stats @ ..] = values
    else {
        return None;
    };
    if stats.len() != StatField::ALL.len() || *finished > 1 {
        return None;
    }
    Some(Snapshot {
        now_us: *now_us,
        stats: Stats::from_values(stats)?,
        customers_done: *customers_done,
        customers: u32::try_from(*customers).ok()?,
        inflight: u32::try_from(*inflight).ok()?,
        outstanding: u32::try_from(*outstanding).ok()?,
        finished: *finished == 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PageQuery, Speed};
    use sim::StrategyName;

    #[test]
    fn a_run_computed_whole_is_the_run_stepped_on_the_page() {
        let scenario = Scenario {
            customers: 120_000,
            ..Scenario::article(StrategyName::Keyed, 4)
        };
        let query = PageQuery::for_run(&scenario, Speed::Instant).to_query();
        let mut looks = Vec::new();
        let values = run_whole(&query, |done, total| looks.push((done, total))).unwrap();
        let whole = snapshot_of(&values).unwrap();
        let mut stepped = Simulation::new(&Scenario {
            record: false,
            ..scenario.clone()
        })
        .unwrap();
        while !stepped.is_finished() {
            stepped.run_events(2_000);
        }
        assert_eq!(whole, stepped.snapshot());
        assert_eq!(
            whole.stats,
            sim::run(&scenario).unwrap(),
            "the CLI's numbers"
        );
        assert!(whole.finished);
        assert!(looks.len() >= 2, "progress along the way: {looks:?}");
        assert!(looks.windows(2).all(|w| w[0].0 <= w[1].0) && looks.iter().all(|l| l.1 == 120_000));
    }

    #[test]
    fn values_that_are_not_a_snapshot_are_refused_and_a_bad_query_is_named() {
        let s = Simulation::new(&Scenario::default()).unwrap().snapshot();
        let values = snapshot_values(&s);
        assert_eq!(snapshot_of(&values), Some(s));
        assert_eq!(snapshot_of(&values[..values.len() - 1]), None);
        let mut bad = values.clone();
        bad[5] = 2;
        assert_eq!(snapshot_of(&bad), None);
        assert!(run_whole("seed=1", |_, _| {})
            .unwrap_err()
            .contains("no strategy"));
        assert!(!run_whole("strategy=keyed&customers=0", |_, _| {})
            .unwrap_err()
            .is_empty());
    }
}

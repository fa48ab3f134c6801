//! A run computed whole in a simulation worker, off the page's thread: the page hands it
//! the run's query and gets back its final snapshot and the fates of the customers the
//! grid draws, as flat values, with progress on the way. A run this large keeps no record
//! ([`keeps_record`]), so that is all the page shows of it.

use crate::query::codec::pairs_of;
use crate::query::read::parse;
use crate::shared::budget::{keeps_record, GRID_MAX_CELLS, RUN_MAX_CUSTOMERS};
use crate::shared::format::count;
use crate::Speed;
use sim::world::Fate;
use sim::{Scenario, Simulation, Snapshot, StatField, Stats};

/// True if the run page hands a run to a simulation worker rather than run it itself: a
/// run played instantly that is too large to keep its record, or any run larger than the
/// page runs on its own thread ([`needs_worker`]). It is then one final answer, which a
/// worker built for speed computes 4 to 5 times faster than the page's own build, off
/// the page's thread (docs/sizes-and-speeds.md, "The simulation worker").
pub fn in_worker(customers: u32, speed: Speed) -> bool {
    (speed == Speed::Instant && !keeps_record(customers)) || needs_worker(customers)
}

/// True if a run is too large for the page's own thread
/// ([`RUN_MAX_CUSTOMERS`]): only a simulation worker runs it.
pub fn needs_worker(customers: u32) -> bool {
    customers > RUN_MAX_CUSTOMERS
}

/// What the run page says when a run needs a simulation worker and none could start.
pub fn no_worker_line() -> String {
    format!(
        "Runs of more than {} customers run in a simulation worker, and this browser could not start one. Lower “customers”, or use the command line.",
        count(RUN_MAX_CUSTOMERS.into())
    )
}

/// What the run page says when a run in a worker is cancelled.
pub fn cancelled_line(done: u64, total: u64) -> String {
    format!(
        "Cancelled: the client was done with {} of {} customers.",
        count(done),
        count(total)
    )
}

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

/// Runs `query`'s scenario to its end, telling `progress` the charges finished, in all,
/// and the simulated clock every so often: its final snapshot, flat ([`snapshot_values`]), then the fates of
/// its first customers, as many as the grid draws ([`Fate::ALL`]'s order).
pub fn run_whole(query: &str, mut progress: impl FnMut(u64, u64, u64)) -> Result<Vec<u64>, String> {
    let scenario = scenario_of(query)?;
    let mut sim =
        Simulation::new(&scenario).map_err(|e| crate::shared::words::Words::sentence(&e))?;
    let total = u64::from(scenario.customers);
    while !sim.is_finished() {
        if sim.run_events(EVENTS_PER_LOOK) == 0 {
            break;
        }
        let now = sim.snapshot();
        progress(now.customers_done, total, now.now_us);
    }
    let mut values = snapshot_values(&sim.snapshot());
    let drawn = scenario.customers.min(GRID_MAX_CELLS);
    values.extend((1..=drawn).map(|c| {
        Fate::ALL
            .iter()
            .position(|&f| f == sim.fate(c))
            .unwrap_or(0) as u64
    }));
    Ok(values)
}

/// What the page says when a worker's answer is not one for [`whole_of`].
pub const WORKER_NOT_A_RUN: &str = "The simulation worker's answer is not a run.";

/// A run back from [`run_whole`]'s values: its final snapshot and its first customers'
/// fates, or `None` if the values are not one.
pub fn whole_of(values: &[u64]) -> Option<(Snapshot, Vec<Fate>)> {
    let width = 6 + StatField::ALL.len();
    let snapshot = snapshot_of(values.get(..width)?)?;
    let fates = values[width..]
        .iter()
        .map(|&f| Fate::ALL.get(usize::try_from(f).ok()?).copied())
        .collect::<Option<Vec<Fate>>>()?;
    (fates.len() as u32 == snapshot.customers.min(GRID_MAX_CELLS)).then_some((snapshot, fates))
}

/// The snapshot a run handed to a worker shows until its answer: nothing done yet.
pub fn starting_snapshot(customers: u32) -> Snapshot {
    Snapshot {
        now_us: 0,
        stats: Stats::default(),
        customers_done: 0,
        customers,
        inflight: 0,
        outstanding: 0,
        finished: false,
    }
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

    #[test]
    fn instant_runs_too_large_for_a_record_and_runs_too_large_for_the_page_go_to_a_worker() {
        let big = crate::shared::budget::RECORD_MAX_CUSTOMERS + 1;
        assert!(in_worker(big, Speed::Instant));
        assert!(!in_worker(big - 1, Speed::Instant));
        assert!(
            !in_worker(big, Speed::X10),
            "a run watched plays on the page"
        );
        let huge = RUN_MAX_CUSTOMERS;
        assert!(!needs_worker(huge) && needs_worker(huge + 1));
        assert!(
            in_worker(huge + 1, Speed::X10),
            "only a worker runs it, watched or not"
        );
        assert!(no_worker_line().starts_with("Runs of more than 1,000,000 customers"));
        assert_eq!(
            cancelled_line(12_345, 1_000_000),
            "Cancelled: the client was done with 12,345 of 1,000,000 customers."
        );
    }
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
        let values = run_whole(&query, |done, total, _| looks.push((done, total))).unwrap();
        let (whole, fates) = whole_of(&values).unwrap();
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
            fates,
            stepped.fates()[..GRID_MAX_CELLS as usize],
            "the grid's customers"
        );
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
        assert!(run_whole("seed=1", |_, _, _| {})
            .unwrap_err()
            .contains("no strategy"));
        assert!(!run_whole("strategy=keyed&customers=0", |_, _, _| {})
            .unwrap_err()
            .is_empty());
    }
}

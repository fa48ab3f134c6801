//! A run computed whole in a simulation worker, off the page's thread: the page hands it
//! the run's scenario ([`Job::Run`](crate::shared::worker_message::Job::Run)) and gets
//! back its final snapshot and the fates of the customers the grid draws
//! ([`Answer::Run`]), with progress on the way. A run this large keeps no record
//! ([`keeps_record`]), so that is all the page shows of it.

use crate::shared::budget::{keeps_record, GRID_MAX_CELLS, RUN_MAX_CUSTOMERS};
use crate::shared::format::count;
use crate::shared::worker_message::Answer;
use crate::Speed;
use sim::world::Fate;
use sim::{Scenario, Simulation, Snapshot, Stats};

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

/// Runs `scenario` to its end, its record off, telling `progress` the charges finished,
/// in all, and the simulated clock every so often: its final snapshot and the fates of
/// its first customers, as many as the grid draws.
pub fn run_whole(
    scenario: &Scenario,
    mut progress: impl FnMut(u64, u64, u64),
) -> Result<Answer, String> {
    let scenario = Scenario {
        record: false,
        ..scenario.clone()
    };
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
    let drawn = scenario.customers.min(GRID_MAX_CELLS);
    Ok(Answer::Run {
        snapshot: Box::new(sim.snapshot()),
        fates: (1..=drawn).map(|c| sim.fate(c)).collect(),
    })
}

/// What the page says when a worker's answer is not one for [`whole_of`].
pub const WORKER_NOT_A_RUN: &str = "The simulation worker's answer is not a run.";

/// A run back from [`run_whole`]'s answer: its final snapshot and its first customers'
/// fates, or `None` if the answer is not a run, or not the grid's fates.
pub fn whole_of(answer: Answer) -> Option<(Snapshot, Vec<Fate>)> {
    match answer {
        Answer::Run { snapshot, fates }
            if fates.len() as u64 == u64::from(snapshot.customers.min(GRID_MAX_CELLS)) =>
        {
            Some((*snapshot, fates))
        }
        _ => None,
    }
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
    use crate::shared::worker_message::Job;
    use crate::Speed;
    use sim::StrategyName;

    #[test]
    fn a_run_computed_whole_is_the_run_stepped_on_the_page() {
        let scenario = Scenario {
            customers: 120_000,
            ..Scenario::article(StrategyName::Keyed, 4)
        };
        // Through the words that cross to the worker and back.
        let job = Job::Run {
            scenario: scenario.clone(),
        };
        let Ok(Job::Run { scenario: handed }) = Job::decode(&job.encode()) else {
            panic!("a run");
        };
        let mut looks = Vec::new();
        let answer = run_whole(&handed, |done, total, _| looks.push((done, total))).unwrap();
        let (whole, fates) = whole_of(Answer::decode(&answer.encode()).unwrap()).unwrap();
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
    fn an_answer_that_is_not_a_run_is_refused_and_a_bad_scenario_is_named() {
        let Answer::Run { snapshot, fates } =
            run_whole(&Scenario::default(), |_, _, _| {}).unwrap()
        else {
            panic!("a run");
        };
        assert_eq!(fates.len(), 1_000);
        let short = Answer::Run {
            snapshot: snapshot.clone(),
            fates: fates[1..].to_vec(),
        };
        assert_eq!(whole_of(short), None, "not the grid's fates");
        assert_eq!(whole_of(Answer::Points(vec![1])), None);
        assert_eq!(
            whole_of(Answer::Run {
                snapshot: snapshot.clone(),
                fates: fates.clone()
            }),
            Some((*snapshot, fates))
        );
        let none = Scenario {
            customers: 0,
            ..Scenario::default()
        };
        assert!(!run_whole(&none, |_, _, _| {}).unwrap_err().is_empty());
    }
}

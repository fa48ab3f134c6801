//! Sweeps shared out between simulation workers: each worker is handed a slice of a
//! sweep's runs (by their place in the sweep's order), runs them alone and hands back
//! their results; the page puts them back in order. A run depends on its scenario and
//! seed only, so the result is the same however the runs were shared out.
//!
//! What crosses to a worker is the typed [`Job`] of [`crate::shared::worker_message`]: the
//! sweep's numbers, strategies, seeds and parameter ([`Work`]), and the slice; what comes
//! back is its [`Answer`].

use crate::shared::budget::{Workload, SWEEP_MAX_CUSTOMERS};
use crate::shared::words::Words;
use crate::shared::worker_message::{Answer, Work};
use sim::matrix::MatrixRun;
use sim::param_sweep::ParamSweepJob;
use sim::sweep::SweepJob;
use std::ops::Range;

/// The most customers a run of the matrix has for its page to run the matrix itself: its
/// fifty runs then take the page about a tenth of a second in all, less than loading the
/// simulation workers on a slow link (the matrix page's time to ready went from 1.11 s to
/// 2.00 s under the phone throttling when the article's 1,000 went to workers).
pub const MATRIX_ON_PAGE_MAX_CUSTOMERS: u32 = 2_000;

/// True if the matrix of `base` is shared out between simulation workers, rather than run
/// by the page a run or two per frame.
pub fn matrix_in_workers(base: &sim::Scenario) -> bool {
    base.customers > MATRIX_ON_PAGE_MAX_CUSTOMERS
}

/// The matrix of `base` (as its page starts it), or why not: its numbers, or more
/// customers than the page runs.
pub fn matrix_job(base: &sim::Scenario) -> Result<MatrixRun, String> {
    Workload::Matrix.check(base).map_err(|e| e.sentence())?;
    MatrixRun::new(base).map_err(|e| e.sentence())
}

/// Checks that `runs` are runs of a sweep of `total`.
fn within(runs: &Range<u64>, total: u64) -> Result<(), String> {
    if runs.end > total || runs.start > runs.end {
        return Err(format!(
            "Runs {}..{} are not in a sweep of {} runs.",
            runs.start, runs.end, total
        ));
    }
    Ok(())
}

/// Runs the slice `runs` of `work` (what a worker does with a [`crate::shared::worker_message::Job::Slice`]):
/// each run's results, in order, or why not.
pub fn run_slice(work: &Work, runs: Range<u64>) -> Result<Answer, String> {
    Ok(match work {
        Work::Seeds {
            base,
            strategies,
            seeds,
        } => {
            let job = SweepJob::new(base, strategies, *seeds, SWEEP_MAX_CUSTOMERS)
                .map_err(|e| e.sentence())?;
            within(&runs, job.total())?;
            Answer::Stats(runs.filter_map(|i| job.run_unit(i)).collect())
        }
        Work::Param {
            base,
            spec,
            strategies,
            seeds,
        } => {
            let job = ParamSweepJob::new(base, *spec, strategies, *seeds, SWEEP_MAX_CUSTOMERS)
                .map_err(|e| crate::sweep::param_sweep::sentence(&e))?;
            within(&runs, job.total())?;
            Answer::Points(runs.filter_map(|i| job.run_unit(i)).collect())
        }
        Work::Matrix { base } => {
            let job = matrix_job(base)?;
            within(&runs, sim::matrix::RUNS as u64)?;
            let cell = |i| usize::try_from(i).ok().and_then(|i| job.run_unit(i));
            Answer::Cells(runs.filter_map(cell).collect())
        }
    })
}

/// Puts a worker's answer back into a seed sweep, in order: false if it is not runs'
/// stats, or the sweep already has every run.
pub fn take_stats(job: &mut SweepJob, answer: Answer) -> bool {
    match answer {
        Answer::Stats(runs) => runs.into_iter().all(|stats| job.push_result(stats)),
        _ => false,
    }
}

/// Puts a worker's answer back into a parameter sweep, in order: false if it is not
/// runs' values, or the sweep already has every run.
pub fn take_points(job: &mut ParamSweepJob, answer: Answer) -> bool {
    match answer {
        Answer::Points(points) => points.into_iter().all(|v| job.push_result(v)),
        _ => false,
    }
}

/// What the matrix says when [`take_cells`] refuses a worker's answer.
pub const WORKER_NOT_THE_CELLS: &str =
    "A simulation worker's answer was not the matrix's next cells.";

/// Puts a worker's cells back into the matrix, in order: false if they are not cells,
/// or not the cells it needs next.
pub fn take_cells(job: &mut MatrixRun, answer: Answer) -> bool {
    match answer {
        Answer::Cells(cells) => cells.into_iter().all(|cell| job.push_cell(cell)),
        _ => false,
    }
}

/// How many runs to hand a worker at a time: small enough that the work is shared
/// evenly and progress moves often (about 16 hand-outs per worker), at most 64 runs.
pub fn batch_runs(total: u64, workers: u64) -> u64 {
    (total / (workers.max(1) * 16)).clamp(1, 64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::worker_message::Job;
    use sim::{Param, Scenario, StatField, StrategyName};

    /// What a worker hands back for the slice `runs` of `work`, through the words that
    /// cross to it and back.
    fn by_worker(work: &Work, runs: Range<u64>) -> Result<Answer, String> {
        let job = Job::Slice {
            work: work.clone(),
            runs,
        };
        let Job::Slice { work, runs } = Job::decode(&job.encode()).unwrap() else {
            panic!("a slice");
        };
        let answer = run_slice(&work, runs)?;
        Ok(Answer::decode(&answer.encode()).unwrap())
    }

    fn seeds(strategies: &[StrategyName], seeds: u64, base: &Scenario) -> Work {
        Work::Seeds {
            base: base.clone(),
            strategies: strategies.to_vec(),
            seeds,
        }
    }

    #[test]
    fn slices_run_by_workers_and_put_back_in_order_equal_the_sweep_run_in_steps() {
        let mut base = Scenario {
            customers: 300,
            seed: 9,
            ..Scenario::default()
        };
        // A number the message must carry, or the workers would sweep other numbers.
        Param::Timeout
            .set(&mut base, sim::param::ParamValue::Whole(700_000))
            .unwrap();
        for strategies in [StrategyName::ALL.to_vec(), vec![StrategyName::Breaker]] {
            let mut stepped = SweepJob::new(&base, &strategies, 5, SWEEP_MAX_CUSTOMERS).unwrap();
            while stepped.step() {}
            let total = stepped.total();
            let work = seeds(&strategies, 5, &base);
            for workers in [1, 2, 4] {
                let batch = batch_runs(total, workers);
                let mut shared = SweepJob::new(&base, &strategies, 5, SWEEP_MAX_CUSTOMERS).unwrap();
                let mut from = 0;
                while from < total {
                    let to = (from + batch).min(total);
                    assert!(take_stats(&mut shared, by_worker(&work, from..to).unwrap()));
                    from = to;
                }
                assert_eq!(shared.done(), total);
                assert_eq!(shared.sweeps().len(), strategies.len());
                for ((s1, a), (s2, b)) in stepped.sweeps().iter().zip(shared.sweeps()) {
                    assert_eq!((s1, &a.runs), (s2, &b.runs), "{workers} workers");
                }
            }
        }
    }

    #[test]
    fn only_a_matrix_of_more_than_two_thousand_customers_goes_to_workers() {
        let at = |customers| Scenario {
            customers,
            ..Scenario::default()
        };
        assert!(
            !matrix_in_workers(&Scenario::default()),
            "the article's 1,000"
        );
        assert!(!matrix_in_workers(&at(2_000)) && matrix_in_workers(&at(2_001)));
    }

    #[test]
    fn the_matrix_shared_out_in_slices_equals_the_one_run_in_steps() {
        let base = Scenario {
            customers: 250,
            seed: 3,
            ..Scenario::default()
        };
        let work = Work::Matrix { base: base.clone() };
        let whole = MatrixRun::new(&base).unwrap().run_to_end();
        let total = sim::matrix::RUNS as u64;
        for workers in [1, 2, 3] {
            let batch = batch_runs(total, workers);
            let mut shared = matrix_job(&base).unwrap();
            let mut from = 0;
            while from < total {
                let to = (from + batch).min(total);
                assert!(take_cells(&mut shared, by_worker(&work, from..to).unwrap()));
                from = to;
            }
            assert_eq!(shared.cells(), whole.as_slice(), "{workers} workers");
            assert!(
                !take_cells(&mut shared, Answer::Cells(vec![whole[0].clone()])),
                "past the end"
            );
        }
        let too_many = Scenario {
            customers: 20_001,
            ..base.clone()
        };
        let err = by_worker(&Work::Matrix { base: too_many }, 0..1).unwrap_err();
        assert!(err.contains("20,000"), "{err}");
        assert!(!take_cells(
            &mut matrix_job(&base).unwrap(),
            Answer::Points(vec![1, 2])
        ));
    }

    #[test]
    fn a_slice_that_is_not_a_sweeps_is_refused_in_words() {
        let base = Scenario::default();
        let naive = [StrategyName::Naive];
        let err = by_worker(&seeds(&naive, 3, &base), 2..4).unwrap_err();
        assert!(err.contains("not in a sweep of 3 runs"), "{err}");
        let big = Scenario {
            customers: SWEEP_MAX_CUSTOMERS + 1,
            ..base.clone()
        };
        let err = by_worker(&seeds(&naive, 3, &big), 0..1).unwrap_err();
        assert!(err.contains("20,000"), "{err}");
        let mut job = SweepJob::new(&base, &naive, 1, SWEEP_MAX_CUSTOMERS).unwrap();
        assert!(!take_stats(&mut job, Answer::Points(vec![1])), "not stats");
        let one = by_worker(&seeds(&naive, 1, &base), 0..1).unwrap();
        assert!(take_stats(&mut job, one.clone()));
        assert!(!take_stats(&mut job, one), "past the end");
    }

    #[test]
    fn a_parameter_sweep_shared_out_in_slices_equals_the_one_run_in_steps() {
        let base = Scenario {
            customers: 200,
            ..Scenario::default()
        };
        let spec = sim::param_sweep::ParamSweepSpec {
            param: Param::Timeout,
            from: 300_000,
            to: 2_000_000,
            steps: 4,
            stat: StatField::Duplicates,
        };
        for strategies in [
            sim::param_sweep::strategies_using(Param::Timeout),
            vec![StrategyName::TimeoutNoKey],
        ] {
            let new = || ParamSweepJob::new(&base, spec, &strategies, 6, SWEEP_MAX_CUSTOMERS);
            let mut stepped = new().unwrap();
            let total = stepped.total();
            while stepped.step() {}
            let work = Work::Param {
                base: base.clone(),
                spec,
                strategies: strategies.clone(),
                seeds: 6,
            };
            let mut shared = new().unwrap();
            for from in (0..total).step_by(5) {
                let answer = by_worker(&work, from..(from + 5).min(total)).unwrap();
                assert!(take_points(&mut shared, answer));
            }
            assert!(
                !take_points(&mut shared, Answer::Points(vec![0])),
                "past the end"
            );
            assert_eq!(shared.lines(), stepped.lines());
            assert!(!shared.lines().is_empty());
        }
        let no_steps = Work::Param {
            base,
            spec: sim::param_sweep::ParamSweepSpec { steps: 0, ..spec },
            strategies: vec![StrategyName::Keyed],
            seeds: 6,
        };
        assert!(!by_worker(&no_steps, 0..1).unwrap_err().is_empty());
    }

    #[test]
    fn batches_share_the_runs_evenly_and_stay_small() {
        assert_eq!(batch_runs(2_000, 4), 31);
        assert_eq!(batch_runs(2_000, 1), 64);
        assert_eq!(batch_runs(10, 8), 1);
        assert_eq!(batch_runs(0, 0), 1);
    }
}

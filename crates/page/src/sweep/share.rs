//! Sweeps shared out between simulation workers: each worker is handed a slice of a
//! sweep's runs (by their place in the sweep's order), runs them alone and hands back
//! their results as flat values; the page puts them back in order. A run depends on its
//! scenario and seed only, so the result is the same however the runs were shared out.
//!
//! What crosses to a worker is the kind of sweep ([`Work`]), the sweep's own link as the
//! page writes it in its address ([`crate::shared::links::sweep_query`],
//! [`crate::shared::links::param_sweep_query`]), and the slice.

use crate::query::codec::pairs_of;
use crate::query::read::parse;
use crate::shared::budget::{Workload, SWEEP_MAX_CUSTOMERS};
use crate::shared::words::Words;
use crate::PageQuery;
use sim::matrix::{MatrixCell, MatrixRun};
use sim::param_sweep::ParamSweepJob;
use sim::sweep::SweepJob;
use sim::{StatField, Stats};
use std::ops::Range;

sim::named_enum! {
    /// The kinds of sweep a worker runs a slice of.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Work as "work" {
        /// A seed sweep: each run hands back its stats ([`Stats::values`]).
        Seeds = "sweep",
        /// A parameter sweep: each run hands back the swept stat's value.
        Param = "psweep",
        /// The matrix: each run hands back its cell ([`MatrixCell::values`]).
        Matrix = "matrix",
    }
}

/// One worker's slice of a sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepShare {
    /// The kind of sweep.
    pub work: Work,
    /// The sweep, as its page's query: the numbers, the strategies and the seeds (and,
    /// for a parameter sweep, the parameter).
    pub query: String,
    /// The runs this worker runs, by their place in the sweep.
    pub runs: Range<u64>,
}

/// The query a slice names, or its first problem.
fn read(query: &str) -> Result<PageQuery, String> {
    let q = parse(&pairs_of(query));
    match q.problems.first() {
        Some(problem) => Err(problem.clone()),
        None => Ok(q),
    }
}

/// The seed sweep a sweep page's query names (as its page starts it), or why not.
pub fn seed_sweep_job(query: &str) -> Result<SweepJob, String> {
    let q = read(query)?;
    SweepJob::new(
        &q.seeded_scenario(),
        &q.seed_sweep_strategies(),
        q.seeds,
        SWEEP_MAX_CUSTOMERS,
    )
    .map_err(|e| e.sentence())
}

/// The parameter sweep a sweep page's query names (as its page starts it), or why not.
pub fn param_sweep_job(query: &str) -> Result<ParamSweepJob, String> {
    let q = read(query)?;
    let spec = q
        .sweep_param
        .ok_or("The sweep's query names no parameter.")?;
    let strategies = q.param_sweep_strategies(spec.param);
    ParamSweepJob::new(
        &q.seeded_scenario(),
        spec,
        &strategies,
        q.seeds,
        SWEEP_MAX_CUSTOMERS,
    )
    .map_err(|e| crate::sweep::param_sweep::sentence(&e))
}

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

/// The matrix a matrix page's query names (as its page starts it), or why not: its
/// numbers, or more customers than the page runs.
pub fn matrix_job(query: &str) -> Result<MatrixRun, String> {
    let base = read(query)?.seeded_scenario();
    Workload::Matrix.check(&base).map_err(|e| e.sentence())?;
    MatrixRun::new(&base).map_err(|e| e.sentence())
}

impl SweepShare {
    /// Runs the slice: each run's results, flat, in order.
    pub fn run(&self) -> Result<Vec<u64>, String> {
        let (total, run): (u64, Box<dyn Fn(u64) -> Vec<u64>>) = match self.work {
            Work::Seeds => {
                let job = seed_sweep_job(&self.query)?;
                (
                    job.total(),
                    Box::new(move |i| job.run_unit(i).map(|s| s.values()).unwrap_or_default()),
                )
            }
            Work::Param => {
                let job = param_sweep_job(&self.query)?;
                (
                    job.total(),
                    Box::new(move |i| job.run_unit(i).into_iter().collect()),
                )
            }
            Work::Matrix => {
                let job = matrix_job(&self.query)?;
                (
                    sim::matrix::RUNS as u64,
                    Box::new(move |i| {
                        let cell = usize::try_from(i).ok().and_then(|i| job.run_unit(i));
                        cell.map(|c| c.values()).unwrap_or_default()
                    }),
                )
            }
        };
        if self.runs.end > total || self.runs.start > self.runs.end {
            return Err(format!(
                "Runs {}..{} are not in a sweep of {} runs.",
                self.runs.start, self.runs.end, total
            ));
        }
        Ok(self.runs.clone().flat_map(run).collect())
    }
}

/// Puts a worker's flat values back into a seed sweep, in order: false if they are not
/// whole runs' stats, or the sweep already has every run.
pub fn take_values(job: &mut SweepJob, values: &[u64]) -> bool {
    let width = StatField::ALL.len();
    if !values.len().is_multiple_of(width) {
        return false;
    }
    values
        .chunks(width)
        .all(|run| Stats::from_values(run).is_some_and(|stats| job.push_result(stats)))
}

/// Puts a worker's values back into a parameter sweep, in order: false if the sweep
/// already has every run.
pub fn take_param_values(job: &mut ParamSweepJob, values: &[u64]) -> bool {
    values.iter().all(|&v| job.push_result(v))
}

/// What the matrix says when [`take_matrix_values`] refuses a worker's answer.
pub const WORKER_NOT_THE_CELLS: &str =
    "A simulation worker's answer was not the matrix's next cells.";

/// Puts a worker's cells back into the matrix, in order: false if they are not whole
/// cells, or not the cells it needs next.
pub fn take_matrix_values(job: &mut MatrixRun, mut values: &[u64]) -> bool {
    while !values.is_empty() {
        let taken = MatrixCell::take_values(&mut values).is_some_and(|cell| job.push_cell(cell));
        if !taken {
            return false;
        }
    }
    true
}

/// How many runs to hand a worker at a time: small enough that the work is shared
/// evenly and progress moves often (about 16 hand-outs per worker), at most 64 runs.
pub fn batch_runs(total: u64, workers: u64) -> u64 {
    (total / (workers.max(1) * 16)).clamp(1, 64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::links::sweep_query;
    use sim::{Param, Scenario, StrategyName};

    /// The slice `runs` of a sweep of `strategy` (or all) over seeds `1..=seeds` of `base`.
    fn share(
        strategy: Option<StrategyName>,
        seeds: u64,
        base: &Scenario,
        runs: Range<u64>,
    ) -> SweepShare {
        SweepShare {
            work: Work::Seeds,
            query: sweep_query(strategy, seeds, base).to_query(),
            runs,
        }
    }

    #[test]
    fn slices_run_by_workers_and_put_back_in_order_equal_the_sweep_run_in_steps() {
        let mut base = Scenario {
            customers: 300,
            seed: 9,
            ..Scenario::default()
        };
        // A number the query must carry, or the workers would sweep other numbers.
        Param::Timeout
            .set(&mut base, sim::param::ParamValue::Whole(700_000))
            .unwrap();
        for strategy in [None, Some(StrategyName::Breaker)] {
            let strategies = strategy.map_or(StrategyName::ALL.to_vec(), |s| vec![s]);
            let mut stepped = SweepJob::new(&base, &strategies, 5, SWEEP_MAX_CUSTOMERS).unwrap();
            while stepped.step() {}
            let total = stepped.total();
            for workers in [1, 2, 4] {
                let batch = batch_runs(total, workers);
                let mut shared = SweepJob::new(&base, &strategies, 5, SWEEP_MAX_CUSTOMERS).unwrap();
                let mut from = 0;
                while from < total {
                    let to = (from + batch).min(total);
                    let values = share(strategy, 5, &base, from..to).run().unwrap();
                    assert!(take_values(&mut shared, &values));
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
        let query = crate::shared::links::matrix_query(&base).to_query();
        let whole = MatrixRun::new(&base).unwrap().run_to_end();
        let total = sim::matrix::RUNS as u64;
        for workers in [1, 2, 3] {
            let batch = batch_runs(total, workers);
            let mut shared = matrix_job(&query).unwrap();
            let mut from = 0;
            while from < total {
                let to = (from + batch).min(total);
                let slice = SweepShare {
                    work: Work::Matrix,
                    query: query.clone(),
                    runs: from..to,
                };
                assert!(take_matrix_values(&mut shared, &slice.run().unwrap()));
                from = to;
            }
            assert_eq!(shared.cells(), whole.as_slice(), "{workers} workers");
            assert!(
                !take_matrix_values(&mut shared, &whole[0].values()),
                "past the end"
            );
        }
        let too_many = query.replace("customers=250", "customers=20001");
        let err = matrix_job(&too_many).err().unwrap();
        assert!(err.contains("20,000"), "{err}");
        assert!(!take_matrix_values(
            &mut matrix_job(&query).unwrap(),
            &[1, 2]
        ));
    }

    #[test]
    fn a_slice_that_is_not_a_sweeps_is_refused_in_words() {
        let base = Scenario::default();
        let naive = Some(StrategyName::Naive);
        let err = share(naive, 3, &base, 2..4).run().unwrap_err();
        assert!(err.contains("not in a sweep of 3 runs"), "{err}");
        let mut bad = share(naive, 3, &base, 0..1);
        bad.query = bad.query.replace("strategy=naive", "strategy=sloth");
        assert!(bad.run().unwrap_err().contains("sloth"), "{bad:?}");
        let mut job = SweepJob::new(&base, &[StrategyName::Naive], 1, SWEEP_MAX_CUSTOMERS).unwrap();
        assert!(!take_values(&mut job, &[1, 2, 3]), "not whole runs");
        let one = share(naive, 1, &base, 0..1).run().unwrap();
        assert!(take_values(&mut job, &one));
        assert!(!take_values(&mut job, &one), "past the end");
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
        for strategy in [None, Some(StrategyName::TimeoutNoKey)] {
            let query =
                crate::shared::links::param_sweep_query(spec, strategy, 6, &base).to_query();
            let mut stepped = param_sweep_job(&query).unwrap();
            let total = stepped.total();
            while stepped.step() {}
            let mut shared = param_sweep_job(&query).unwrap();
            for from in (0..total).step_by(5) {
                let runs = from..(from + 5).min(total);
                let values = SweepShare {
                    work: Work::Param,
                    query: query.clone(),
                    runs,
                }
                .run()
                .unwrap();
                assert!(take_param_values(&mut shared, &values));
            }
            assert!(!take_param_values(&mut shared, &[0]), "past the end");
            assert_eq!(shared.lines(), stepped.lines());
            assert!(!shared.lines().is_empty());
        }
        let seeds_only = sweep_query(None, 3, &base).to_query();
        assert!(param_sweep_job(&seeds_only).is_err_and(|why| why.contains("no parameter")));
    }

    #[test]
    fn batches_share_the_runs_evenly_and_stay_small() {
        assert_eq!(batch_runs(2_000, 4), 31);
        assert_eq!(batch_runs(2_000, 1), 64);
        assert_eq!(batch_runs(10, 8), 1);
        assert_eq!(batch_runs(0, 0), 1);
    }
}

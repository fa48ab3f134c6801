//! What one browser tab is asked to run, and the sentences for what it will not run. A
//! run keeps per-customer state in memory (60 to 170 bytes each in the browser) and,
//! below a size, one record per request; the compare, sweep and matrix pages run whole
//! simulations between two frames where no simulation worker can start. The command line
//! goes up to the core's own [`MAX_CUSTOMERS`].

use crate::shared::format::count;
use crate::shared::words::Words;
use sim::scenario::{Scenario, TooManyCustomers, MAX_CUSTOMERS};
use sim::sweep::{SweepError, MAX_SEEDS};
use std::fmt;

/// What a page runs: one played-back run, six side by side, or many seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// One strategy, played back on the page's own thread.
    Run,
    /// One strategy on a page that hands a run too large for its own thread to a
    /// simulation worker: up to the core's own limit.
    WorkerRun,
    /// All the strategies on one seed, run between two frames.
    Compare,
    /// Many seeds, one whole seed between two frames.
    Sweep,
    /// Every strategy against every incident, a run at a time.
    Matrix,
}

/// The most customers the run page plays on its own thread.
pub const RUN_MAX_CUSTOMERS: u32 = 1_000_000;

/// Above this many customers a run keeps no per-request record: the counters still play,
/// but there is no timeline, grid or story (each would need a record per request).
pub const RECORD_MAX_CUSTOMERS: u32 = 50_000;

/// The most customers the run page's grid draws, one cell each; a larger run shows its
/// first ones (more would not fit a page).
pub const GRID_MAX_CELLS: u32 = 10_000;

/// The most customers the compare page runs: all six at once, between frames.
pub const COMPARE_MAX_CUSTOMERS: u32 = 20_000;

/// The most customers per seed a sweep runs: each seed runs whole between two frames.
/// The page's sweeps pass it to the core's (`SweepJob::new`, `ParamSweepJob::new`), and
/// so does the command line's parameter sweep, which the sweep page reproduces.
pub const SWEEP_MAX_CUSTOMERS: u32 = 20_000;

/// The most customers per run the matrix runs: fifty runs, each whole between two
/// frames where no simulation worker can start.
pub const MATRIX_MAX_CUSTOMERS: u32 = 20_000;

/// A scenario larger than a page runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// What was asked of the page.
    pub workload: Workload,
    /// Its limit.
    pub max_customers: u32,
    /// The customers asked for.
    pub asked: u32,
}

impl Workload {
    /// The most customers this workload runs in a page.
    pub const fn max_customers(self) -> u32 {
        match self {
            Workload::Run => RUN_MAX_CUSTOMERS,
            Workload::WorkerRun => MAX_CUSTOMERS,
            Workload::Compare => COMPARE_MAX_CUSTOMERS,
            Workload::Sweep => SWEEP_MAX_CUSTOMERS,
            Workload::Matrix => MATRIX_MAX_CUSTOMERS,
        }
    }

    /// Checks that a page can run `scenario`.
    pub fn check(self, scenario: &Scenario) -> Result<(), TooLarge> {
        scenario
            .within(self.max_customers())
            .map_err(|e| self.refused(e))
    }

    /// The core's refusal of a scenario over this workload's bound, as the page's.
    pub fn refused(self, e: TooManyCustomers) -> TooLarge {
        TooLarge {
            workload: self,
            max_customers: e.max_customers,
            asked: e.asked,
        }
    }
}

/// True if a page run of `customers` keeps a record of every request.
pub const fn keeps_record(customers: u32) -> bool {
    customers <= RECORD_MAX_CUSTOMERS
}

impl Words for TooLarge {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (max, asked) = (count(self.max_customers.into()), count(self.asked.into()));
        match self.workload {
            Workload::Run => write!(
                f,
                "This page runs at most {max} customers ({asked} asked): open the run page (run.html), which runs up to {} in a simulation worker, or use the command line.",
                count(Workload::WorkerRun.max_customers().into())
            ),
            Workload::WorkerRun => write!(
                f,
                "The page runs at most {max} customers ({asked} asked), as many as the command line."
            ),
            Workload::Compare => write!(
                f,
                "The compare view runs all ten strategies at once, so it takes at most {max} customers ({asked} asked). Lower “customers” under “Change the numbers”."
            ),
            Workload::Sweep => write!(
                f,
                "A sweep runs one whole seed between frames, so it takes at most {max} customers ({asked} asked)."
            ),
            Workload::Matrix => write!(
                f,
                "The matrix runs fifty runs of these numbers, so it takes at most {max} customers ({asked} asked)."
            ),
        }
    }
}

impl Words for SweepError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SweepError::Scenario(e) => e.words(f),
            SweepError::TooManyCustomers(e) => Workload::Sweep.refused(*e).words(f),
            SweepError::Empty => write!(
                f,
                "A sweep needs at least one strategy and 1 to {MAX_SEEDS} seeds."
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_says_the_limit_and_what_was_asked() {
        let e = TooLarge {
            workload: Workload::Compare,
            max_customers: 20_000,
            asked: 25_000,
        };
        assert!(e
            .sentence()
            .contains("at most 20,000 customers (25,000 asked)"));
        assert_eq!(
            SweepError::Empty.sentence(),
            "A sweep needs at least one strategy and 1 to 10000 seeds."
        );
    }

    #[test]
    fn each_workload_refuses_only_what_is_over_its_limit() {
        for w in [
            Workload::Run,
            Workload::WorkerRun,
            Workload::Compare,
            Workload::Sweep,
            Workload::Matrix,
        ] {
            let mut s = Scenario {
                customers: w.max_customers(),
                ..Scenario::default()
            };
            assert_eq!(w.check(&s), Ok(()));
            s.customers += 1;
            assert_eq!(
                w.check(&s),
                Err(TooLarge {
                    workload: w,
                    max_customers: w.max_customers(),
                    asked: w.max_customers() + 1
                })
            );
        }
        assert_eq!(Workload::WorkerRun.max_customers(), MAX_CUSTOMERS);
        assert!(keeps_record(RECORD_MAX_CUSTOMERS) && !keeps_record(RECORD_MAX_CUSTOMERS + 1));
    }
}

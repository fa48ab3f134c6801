//! What one browser tab is asked to run. A run keeps per-customer state in memory (60 to
//! 170 bytes each in the browser) and, below a size, one record per request; the compare,
//! sweep and matrix pages run whole simulations between two frames where no simulation
//! worker can start. The command line goes up to the
//! core's own [`MAX_CUSTOMERS`](super::scenario::MAX_CUSTOMERS).

use super::scenario::{Scenario, MAX_CUSTOMERS};

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
        let max_customers = self.max_customers();
        if scenario.customers > max_customers {
            return Err(TooLarge {
                workload: self,
                max_customers,
                asked: scenario.customers,
            });
        }
        Ok(())
    }
}

/// True if a page run of `customers` keeps a record of every request.
pub const fn keeps_record(customers: u32) -> bool {
    customers <= RECORD_MAX_CUSTOMERS
}

#[cfg(test)]
mod tests {
    use super::*;

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

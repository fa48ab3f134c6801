//! The sentences for what a page will not run: too many customers for the workload, or
//! a sweep that cannot start.

use crate::shared::format::count;
use crate::shared::words::Words;
use sim::budget::{TooLarge, Workload};
use sim::sweep::{SweepError, MAX_SEEDS};
use std::fmt;

impl Words for TooLarge {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (max, asked) = (count(self.max_customers.into()), count(self.asked.into()));
        match self.workload {
            Workload::Run => write!(
                f,
                "This page runs at most {max} customers ({asked} asked): open the run page (run.html), which runs up to {} in a simulation worker, or use the command line.",
                count(sim::budget::Workload::WorkerRun.max_customers().into())
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
            SweepError::TooLarge(e) => e.words(f),
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
}

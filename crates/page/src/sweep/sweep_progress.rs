//! Where a sweep is, and the line that says so under its progress bar: the seed sweep and
//! the parameter sweep say it the same way.

use crate::shared::format::{count, duration_ms};

sim::named_enum! {
    /// Where a sweep is; the name is its `data-state`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum SweepState as "state" {
        /// Not started.
        Idle = "idle",
        /// Running.
        Running = "running",
        /// Finished.
        Done = "done",
        /// Stopped by the reader.
        Cancelled = "cancelled",
    }
}

/// The line under the progress bar: `done` of `total` runs, and how long a finished
/// sweep took.
pub fn progress_line(state: SweepState, done: u64, total: u64, took_ms: u64) -> String {
    match state {
        SweepState::Idle => String::new(),
        SweepState::Running => format!("{} of {} runs…", count(done), count(total)),
        SweepState::Cancelled => {
            format!("Cancelled after {} of {} runs.", count(done), count(total))
        }
        SweepState::Done => format!("{} runs in {}.", count(total), duration_ms(took_ms)),
    }
}

/// The share done, in percent (0 before anything is known).
pub fn percent_done(done: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        done as f64 * 100.0 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_has_its_line() {
        assert_eq!(progress_line(SweepState::Idle, 0, 0, 0), "");
        assert_eq!(
            progress_line(SweepState::Running, 1_200, 6_000, 0),
            "1,200 of 6,000 runs…"
        );
        assert_eq!(
            progress_line(SweepState::Cancelled, 3, 10, 0),
            "Cancelled after 3 of 10 runs."
        );
        assert_eq!(
            progress_line(SweepState::Done, 10, 10, 1_450),
            "10 runs in 1.5 s."
        );
        assert_eq!(percent_done(1, 4), 25.0);
        assert_eq!(percent_done(0, 0), 0.0);
    }
}

//! Where a sweep is, and the line that says so under its progress bar: the seed sweep and
//! the parameter sweep say it the same way.

use crate::shared::format::{count, duration_ms};
use crate::shared::live::Fill;
use crate::shared::progress::bar_drawn;
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};

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

/// The line under the progress bar: `done` of `total` runs, how long a finished sweep
/// took, and on how many simulation workers it ran (none: on the page's own thread,
/// which the line does not mention).
pub fn progress_line(
    state: SweepState,
    done: u64,
    total: u64,
    took_ms: u64,
    workers: u32,
) -> String {
    let on = match workers {
        0 => String::new(),
        1 => " on 1 worker".to_string(),
        n => format!(" on {n} workers"),
    };
    match state {
        SweepState::Idle => String::new(),
        SweepState::Running => format!("{} of {} runs{on}…", count(done), count(total)),
        SweepState::Cancelled => {
            format!("Cancelled after {} of {} runs.", count(done), count(total))
        }
        SweepState::Done => format!("{} runs in {}{on}.", count(total), duration_ms(took_ms)),
    }
}

/// The line under a sweep's progress bar.
pub const PROGRESS_LINE: Slot = slot!("progress-line");

/// The name of the seed sweep's progress bar.
pub const SEEDS_RUN: &str = "Seeds run";
/// The name of the parameter sweep's progress bar.
pub const PARAM_SWEEP_RUNS: &str = "Parameter sweep runs";

/// Where a sweep is and how far it has gone: what its progress bar, the line under it,
/// its form's Cancel button and its view's `data-state` show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepShown {
    /// Where the sweep is.
    pub state: SweepState,
    /// Runs done.
    pub done: u64,
    /// Runs in all (0 before any sweep).
    pub total: u64,
    /// How long the finished sweep took, in milliseconds.
    pub took_ms: u64,
    /// Workers it ran on (0: the page's own thread).
    pub workers: u32,
}

impl Default for SweepShown {
    fn default() -> Self {
        Self {
            state: SweepState::Idle,
            done: 0,
            total: 0,
            took_ms: 0,
            workers: 0,
        }
    }
}

/// A sweep's progress bar named `label` and the line under it ([`progress_line`]), drawn
/// live for `s`.
pub fn sweep_progress_drawn(label: &str, s: &SweepShown, fill: &mut Fill) -> Markup {
    let line = progress_line(s.state, s.done, s.total, s.took_ms, s.workers);
    html! {
        (bar_drawn(label, s.done, s.total, fill))
        p.rll-gauges role="status" data-slot=(PROGRESS_LINE) { (fill.text(PROGRESS_LINE, line)) }
    }
}

/// The sweep page's `data-run-state` from its two sweeps (seeds, and a parameter):
/// `running` while either runs, then `done` once either has finished, else `idle`.
pub fn sweep_page_state(sweeps: [SweepState; 2]) -> &'static str {
    if sweeps.contains(&SweepState::Running) {
        "running"
    } else if sweeps.contains(&SweepState::Done) {
        "done"
    } else {
        "idle"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_has_its_line() {
        assert_eq!(progress_line(SweepState::Idle, 0, 0, 0, 2), "");
        assert_eq!(
            progress_line(SweepState::Running, 1_200, 6_000, 0, 0),
            "1,200 of 6,000 runs…"
        );
        assert_eq!(
            progress_line(SweepState::Running, 1_200, 6_000, 0, 4),
            "1,200 of 6,000 runs on 4 workers…"
        );
        assert_eq!(
            progress_line(SweepState::Cancelled, 3, 10, 0, 2),
            "Cancelled after 3 of 10 runs."
        );
        assert_eq!(
            progress_line(SweepState::Done, 10, 10, 1_450, 0),
            "10 runs in 1.5 s."
        );
        assert_eq!(
            progress_line(SweepState::Done, 2_000, 2_000, 502, 1),
            "2,000 runs in 502 ms on 1 worker."
        );
        let m = sweep_progress_drawn(SEEDS_RUN, &SweepShown::default(), &mut Fill::default())
            .into_string();
        assert!(m.contains("aria-label=\"Seeds run\""), "{m}");
        assert!(m.contains(&format!("data-slot=\"{}\"", PROGRESS_LINE.name())));
    }

    #[test]
    fn the_sweep_page_is_done_once_a_sweep_has_finished() {
        use SweepState::*;
        assert_eq!(sweep_page_state([Idle, Idle]), "idle");
        assert_eq!(sweep_page_state([Running, Idle]), "running");
        assert_eq!(sweep_page_state([Done, Running]), "running");
        assert_eq!(sweep_page_state([Done, Idle]), "done");
        assert_eq!(sweep_page_state([Cancelled, Done]), "done");
        assert_eq!(sweep_page_state([Cancelled, Idle]), "idle");
    }
}

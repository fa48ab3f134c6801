//! A sweep's progress bar and the line under it, shared by the seed sweep and the
//! parameter sweep.
//!
//! The bar and the line are the page layer's markup, set with the rest of the sweep's
//! view; one effect per control (the bar, its fill, the line) writes what the sweep
//! changes (as bindings, each was a reactive attribute type of the sweep page's module).

use crate::shared::bind::{self, Root};
use crate::shared::dom::{set_attr, set_text};
use leptos::prelude::*;
use page::shared::progress::{fill_style, BAR, BAR_FILL};
use page::sweep::sweep_progress::{progress_line, SweepState, PROGRESS_LINE};

/// Keeps the progress bar under `root` showing `progress` (runs done and runs in all),
/// and the line under it where the sweep is, how long a finished one took and on how many
/// workers it ran.
pub fn bind_progress(
    root: Root,
    progress: RwSignal<(u64, u64)>,
    state: RwSignal<SweepState>,
    took_ms: RwSignal<f64>,
    workers: RwSignal<u32>,
) {
    bind::node(root, BAR, move |el| {
        let (done, total) = progress.get();
        set_attr(el, "aria-valuemax", &total.to_string());
        set_attr(el, "aria-valuenow", &done.to_string());
    });
    bind::node(root, BAR_FILL, move |el| {
        let (done, total) = progress.get();
        set_attr(el, "style", &fill_style(done, total));
    });
    bind::node(root, PROGRESS_LINE, move |el| {
        let (done, total) = progress.get();
        let line = progress_line(
            state.get(),
            done,
            total,
            took_ms.get() as u64,
            workers.get(),
        );
        set_text(el, Some(&line));
    });
}

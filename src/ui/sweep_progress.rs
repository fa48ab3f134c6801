//! A sweep's progress bar and the line under it, shared by the seed sweep and the
//! parameter sweep.

use crate::page::format::percent;
use crate::page::sweep_progress::{percent_done, progress_line, SweepState};
use leptos::prelude::*;

/// The bar and its line.
#[component]
pub fn SweepProgress(
    /// The bar's accessible name.
    label: &'static str,
    /// Runs done and runs in all.
    progress: RwSignal<(u64, u64)>,
    /// Where the sweep is.
    state: RwSignal<SweepState>,
    /// How long a finished sweep took.
    took_ms: RwSignal<f64>,
) -> impl IntoView {
    view! {
        <div class="rll-bar" role="progressbar" aria-label=label aria-valuemin="0"
            aria-valuemax=move || progress.get().1.to_string() aria-valuenow=move || progress.get().0.to_string()>
            <div class="rll-bar-fill" style:width=move || {
                let (d, t) = progress.get();
                percent(percent_done(d, t))
            }></div>
        </div>
        <p class="rll-gauges" role="status">
            {move || {
                let (d, t) = progress.get();
                progress_line(state.get(), d, t, took_ms.get() as u64)
            }}
        </p>
    }
}

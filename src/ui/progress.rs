//! Progress of the run: charges finished, the simulated clock, and what is in flight now.

use super::use_playback::Playback;
use crate::page::stage::gauges_markup;
use leptos::prelude::*;

/// The progress bar and the live gauges.
#[component]
pub fn Progress(
    /// The run whose progress to show.
    playback: Playback,
) -> impl IntoView {
    let snap = playback.snapshot;
    let done = move || snap.with(|s| s.as_ref().map_or(0, |s| s.customers_done));
    let total = move || snap.with(|s| s.as_ref().map_or(0, |s| u64::from(s.customers)));
    let percent = move || match total() {
        0 => 0.0,
        t => done() as f64 * 100.0 / t as f64,
    };
    let gauges = move || {
        let limit = playback
            .scenario
            .with(|s| s.as_ref().map(|s| s.provider.max_inflight));
        snap.with(|s| gauges_markup(s.as_ref(), limit))
    };
    view! {
        <div class="rll-progress">
            <div
                class="rll-bar"
                role="progressbar"
                aria-label="Charges finished"
                aria-valuemin="0"
                aria-valuemax=move || total().to_string()
                aria-valuenow=move || done().to_string()
            >
                <div class="rll-bar-fill" style:width=move || crate::page::format::percent(percent())></div>
            </div>
            <div class="rll-gauges" inner_html=gauges></div>
        </div>
    }
}

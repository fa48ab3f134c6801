//! Progress of the run: charges finished, the simulated clock, and what is in flight now.

use super::use_playback::Playback;
use crate::page::format::{clock_us, count};
use crate::page::stage::clock_tail;
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
    let limits = move || {
        playback
            .scenario
            .with(|s| s.as_ref().map(|s| (s.provider.max_inflight, s.customers)))
    };
    // The clock runs until the provider's last request ends; the client can finish
    // earlier (a timed-out slow charge still runs on). Say so rather than show two
    // durations that seem to disagree.
    let tail = move || {
        snap.with(|s| {
            s.as_ref().and_then(clock_tail).map(|t| {
                view! { <span class="rll-gauge-label" data-testid="clock-tail">{t}</span> }
            })
        })
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
            <div class="rll-gauges">
                <span>
                    <span class="rll-gauge-label">"Simulated time "</span>
                    <span class="rll-num" data-testid="sim-clock">{move || clock_us(snap.with(|s| s.as_ref().map_or(0, |s| s.now_us)))}</span>
                    {tail}
                </span>
                <span>
                    <span class="rll-gauge-label">"Charges finished "</span>
                    <span class="rll-num">{move || count(done())} " / " {move || count(total())}</span>
                </span>
                <span>
                    <span class="rll-gauge-label">"In flight now "</span>
                    <span class="rll-num">
                        {move || snap.with(|s| s.as_ref().map_or(0, |s| s.inflight))}
                        {move || limits().map(|(limit, _)| format!(" / {limit}"))}
                    </span>
                </span>
                <span>
                    <span class="rll-gauge-label">"Client awaiting now "</span>
                    <span class="rll-num">{move || snap.with(|s| s.as_ref().map_or(0, |s| s.outstanding))}</span>
                </span>
            </div>
        </div>
    }
}

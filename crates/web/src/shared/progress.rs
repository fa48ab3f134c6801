//! Progress of the run: charges finished, the simulated clock, and what is in flight now.
//!
//! The bar and the gauges are the page layer's live widget ([`RunProgress`]), poured once:
//! each published frame writes only what changed, in place (the elements stay, so
//! nothing that points at them loses them).

use crate::run::use_playback::Playback;
use crate::shared::live;
use leptos::prelude::*;
use page::shared::progress::{ProgressState, RunProgress};

/// The bar and the gauges of `playback`'s run.
#[component]
pub fn Progress(
    /// The playback whose run it follows.
    playback: Playback,
) -> impl IntoView {
    let snap = playback.snapshot();
    let limit = move || {
        playback
            .scenario()
            .with(|s| s.as_ref().map(|s| s.provider.max_inflight))
    };
    let bar = live::view(RunProgress, move || {
        snap.with(|s| ProgressState::of(s.as_ref(), limit()))
    });
    view! { <div class="rll-progress">{bar}</div> }
}

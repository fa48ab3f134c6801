//! Progress of the run: charges finished, the simulated clock, and what is in flight now.
//!
//! The page layer's live widget ([`RunProgress`]): each published frame writes the bar's
//! numbers, its fill and the gauges that changed, in place.

use crate::run::use_playback::Playback;
use crate::shared::live;
use leptos::prelude::*;
use page::shared::progress::{RunProgress, RunProgressState};

/// The progress bar and the live gauges.
#[component]
pub fn Progress(
    /// The run whose progress to show.
    playback: Playback,
) -> impl IntoView {
    let snap = playback.snapshot();
    let limit = move || {
        playback
            .scenario()
            .with(|s| s.as_ref().map(|s| s.provider.max_inflight))
    };
    live::view(RunProgress, move || {
        let limit = limit();
        snap.with(|s| RunProgressState::of(s.as_ref(), limit))
    })
}

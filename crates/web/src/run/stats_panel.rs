//! The live stats panel: one card per counter, grouped, with harm made visible.
//!
//! The page layer draws the panel and says what each live node shows
//! (`page::shared::stats::Panel`); the one live binding writes only the nodes a change
//! touches (docs/architecture.md, "Drawing").

use crate::run::use_playback::Playback;
use crate::shared::live;
use leptos::prelude::*;
use page::shared::stats::{Panel, PanelState};

/// Every counter of the run on screen.
#[component]
pub fn StatsPanel(
    /// The run whose counters to show.
    playback: Playback,
) -> impl IntoView {
    live::view(Panel, move || PanelState {
        stats: playback
            .snapshot()
            .with(|s| s.as_ref().map(|s| s.stats.clone()).unwrap_or_default()),
        limit: playback
            .scenario()
            .with(|s| s.as_ref().map_or(0, |s| s.provider.max_inflight)),
    })
}

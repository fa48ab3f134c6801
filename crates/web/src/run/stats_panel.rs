//! The live stats panel: one card per counter, grouped, with harm made visible.
//!
//! The page layer writes the whole panel as markup; one binding replaces it as the run
//! goes (docs/architecture.md, "Drawing").

use crate::run::use_playback::Playback;
use leptos::prelude::*;
use page::shared::stats::{panel_markup, PANEL_TITLE};

/// Every counter of the run on screen.
#[component]
pub fn StatsPanel(
    /// The run whose counters to show.
    playback: Playback,
) -> impl IntoView {
    // Rewritten only when a counter changes, not on every frame of a playback.
    let markup = Memo::new(move |_| {
        let limit = playback
            .scenario()
            .with(|s| s.as_ref().map_or(0, |s| s.provider.max_inflight));
        playback
            .snapshot()
            .with(|s| match s {
                Some(s) => panel_markup(&s.stats, limit),
                None => panel_markup(&Default::default(), limit),
            })
            .into_string()
    });
    view! {
        <section class="rll-stats" aria-label=PANEL_TITLE inner_html=markup></section>
    }
}

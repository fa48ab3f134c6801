//! The few counters that matter for the strategy on screen, beside the stage's timeline.

use crate::run::use_playback::Playback;
use crate::shared::live;
use leptos::prelude::*;
use page::shared::stats::{CardsState, KeyCounters as Counters};
use sim::{StatField, Stats};

/// The chosen counters of the run on screen, as cards (`page::shared::stats::KeyCounters`,
/// bound live: a moving counter rewrites its own value only).
#[component]
pub fn KeyCounters(
    /// The run whose counters to show.
    playback: Playback,
    /// Which counters (from [`page::run::stage::key_stats`], or a widget's choice).
    fields: Signal<Vec<StatField>>,
    /// The previous run's counters, if one is kept as a ghost.
    #[prop(optional)]
    before: Option<Signal<Option<Stats>>>,
) -> impl IntoView {
    live::view(Counters, move || CardsState {
        fields: fields.get(),
        stats: playback
            .snapshot()
            .with(|s| s.as_ref().map(|s| s.stats.clone()).unwrap_or_default()),
        before: before.and_then(|b| b.get()),
    })
}

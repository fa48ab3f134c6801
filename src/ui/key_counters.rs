//! The few counters that matter for the strategy on screen, beside the stage's timeline.

use super::stat_card::StatCard;
use super::use_playback::Playback;
use crate::sim::{StatField, Stats};
use leptos::prelude::*;

/// The chosen counters of the run on screen, as cards.
#[component]
pub fn KeyCounters(
    /// The run whose counters to show.
    playback: Playback,
    /// Which counters (from [`crate::page::stage::key_stats`], or a widget's choice).
    fields: Signal<Vec<StatField>>,
    /// The previous run's counters, if one is kept as a ghost.
    #[prop(optional)]
    before: Option<Signal<Option<Stats>>>,
) -> impl IntoView {
    let stats = Memo::new(move |_| {
        playback
            .snapshot
            .with(|s| s.as_ref().map(|s| s.stats.clone()).unwrap_or_default())
    });
    view! {
        <dl class="rll-cards rll-key-counters" data-testid="key-counters" aria-label="The counters that matter here">
            {move || fields.get().into_iter().map(|field| view! { <StatCard field stats compact=true before=before.unwrap_or(Signal::stored(None))/> }).collect_view()}
        </dl>
    }
}

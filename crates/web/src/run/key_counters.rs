//! The few counters that matter for the strategy on screen, beside the stage's timeline.

use crate::run::use_playback::Playback;
use leptos::prelude::*;
use page::shared::stats::{cards_markup, KEY_COUNTERS_LABEL};
use sim::{StatField, Stats};

/// The chosen counters of the run on screen, as cards.
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
    // Rewritten only when a card changes (a memo of markup, the type the other panels'
    // memos share).
    let cards = Memo::new(move |_| {
        let before = before.and_then(|b| b.get());
        playback.snapshot().with(|s| {
            let stats = s.as_ref().map(|s| s.stats.clone()).unwrap_or_default();
            fields.with(|f| cards_markup(f, &stats, true, before.as_ref()).into_string())
        })
    });
    view! {
        <dl class="rll-cards rll-key-counters" data-testid="key-counters" aria-label=KEY_COUNTERS_LABEL inner_html=cards></dl>
    }
}

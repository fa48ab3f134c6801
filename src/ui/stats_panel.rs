//! The live stats panel: one card per counter, grouped, with harm made visible.

use super::use_playback::Playback;
use crate::page::stats::{cards_markup, concurrency_note_markup, STAT_GROUPS};
use crate::sim::Stats;
use leptos::prelude::*;

/// Every counter of the run on screen.
#[component]
pub fn StatsPanel(
    /// The run whose counters to show.
    playback: Playback,
    /// A dense panel for embedded widgets: no group titles, no hints.
    compact: bool,
) -> impl IntoView {
    let stats = Memo::new(move |_| {
        playback
            .snapshot
            .with(|s| s.as_ref().map(|s| s.stats.clone()).unwrap_or_default())
    });
    view! {
        <section class="rll-stats" class:rll-compact=compact aria-label="What the provider saw">
            {(!compact).then(|| view! { <h2>"What the provider saw"</h2> })}
            {STAT_GROUPS
                .into_iter()
                .map(|(title, cards)| {
                    view! {
                        <div class="rll-group">
                            {(!compact).then(|| view! { <h3>{title}</h3> })}
                            <dl class="rll-cards" inner_html=move || stats.with(|s| cards_markup(cards, s, compact, None))></dl>
                        </div>
                    }
                })
                .collect_view()}
            <ConcurrencyNote playback stats/>
        </section>
    }
}

/// Says so when the provider held more requests than the client was awaiting (the page
/// layer's sentence).
#[component]
fn ConcurrencyNote(playback: Playback, stats: Memo<Stats>) -> impl IntoView {
    let note = move || {
        let limit = playback
            .scenario
            .with(|s| s.as_ref().map_or(0, |s| s.provider.max_inflight));
        stats.with(|s| concurrency_note_markup(s, limit))
    };
    move || {
        note().map(
            |m| view! { <p class="rll-callout" data-testid="concurrency-note" inner_html=m></p> },
        )
    }
}

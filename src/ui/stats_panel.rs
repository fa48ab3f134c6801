//! The live stats panel: one card per counter, grouped, with harm made visible.

use super::use_playback::Playback;
use crate::page::stats::{stat_text, STAT_GROUPS};
use crate::sim::{StatField, Stats};
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
    let value = move |field: StatField| move || stats.with(|s| s.get(field));
    view! {
        <section class="rll-stats" class:rll-compact=compact aria-label="What the provider saw">
            {(!compact).then(|| view! { <h2>"What the provider saw"</h2> })}
            {STAT_GROUPS
                .into_iter()
                .map(|(title, cards)| {
                    view! {
                        <div class="rll-group">
                            {(!compact).then(|| view! { <h3>{title}</h3> })}
                            <dl class="rll-cards">
                                {cards
                                    .iter()
                                    .map(|&field| {
                                        let text = stat_text(field);
                                        let v = value(field);
                                        let harmed = move || stats.with(|s| s.harmed(field));
                                        view! {
                                            <div class="rll-card" class:rll-harm=harmed>
                                                <dt>
                                                    {text.label}
                                                    <span class="rll-harm-mark" aria-hidden=move || (!harmed()).to_string()>
                                                        {move || if harmed() { " ⚠" } else { "" }}
                                                    </span>
                                                    <span class="rll-sr">{move || if harmed() { " (harm)" } else { "" }}</span>
                                                </dt>
                                                <dd>
                                                    <span class="rll-value" data-stat=field.as_str()>{v}</span>
                                                    {(!compact).then(|| view! { <span class="rll-hint">{text.hint}</span> })}
                                                </dd>
                                            </div>
                                        }
                                    })
                                    .collect_view()}
                            </dl>
                        </div>
                    }
                })
                .collect_view()}
            <ConcurrencyNote playback stats/>
        </section>
    }
}

/// Says so when the provider held more requests than the client was awaiting: the
/// difference is charges the client stopped waiting for that kept running.
#[component]
fn ConcurrencyNote(playback: Playback, stats: Memo<Stats>) -> impl IntoView {
    let limit = move || {
        playback
            .scenario
            .with(|s| s.as_ref().map_or(0, |s| s.provider.max_inflight))
    };
    move || {
        let (provider, client) = stats.with(|s| (s.max_inflight, s.client_max_outstanding));
        (provider > client).then(|| {
            view! {
                <p class="rll-callout" data-testid="concurrency-note">
                    "The provider held " <strong>{provider}</strong> " requests at once (limit " {limit()}
                    ") while the client awaited at most " <strong>{client}</strong>
                    ". The difference is charges the client had stopped waiting for, still running."
                </p>
            }
        })
    }
}

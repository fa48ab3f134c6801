//! The live stats panel: one card per counter, grouped, with harm made visible.

use super::use_playback::Playback;
use crate::sim::Stats;
use leptos::prelude::*;

/// How a counter is shown.
struct StatCard {
    field: &'static str,
    label: &'static str,
    hint: &'static str,
    /// A non-zero value means something went wrong for someone.
    harm: bool,
}

const fn card(
    field: &'static str,
    label: &'static str,
    hint: &'static str,
    harm: bool,
) -> StatCard {
    StatCard {
        field,
        label,
        hint,
        harm,
    }
}

const GROUPS: [(&str, &[StatCard]); 4] = [
    (
        "Money",
        &[
            card("charges", "Charges", "times money moved", false),
            card(
                "customersCharged",
                "Customers charged",
                "distinct customers",
                false,
            ),
            card(
                "duplicates",
                "Extra charges",
                "beyond a customer's first",
                true,
            ),
        ],
    ),
    (
        "What the provider answered",
        &[
            card("requests", "Requests", "reached the provider", false),
            card("rateLimited", "429 Too many", "over the rate limit", true),
            card("overloaded", "503 Overloaded", "too many in flight", true),
            card("serverErrors", "500 Failed", "nothing charged", false),
            card(
                "inProgressConflicts",
                "409 In progress",
                "same key still running",
                false,
            ),
            card("declined", "400 Declined", "card refused", false),
            card("replayed", "Replayed", "answered from the key store", false),
            card("slow", "Slow", "took the slow path", false),
        ],
    ),
    (
        "Concurrency",
        &[
            card(
                "maxInflight",
                "Provider peak in flight",
                "admitted and still processing",
                false,
            ),
            card(
                "clientMaxOutstanding",
                "Client peak awaiting",
                "answers awaited at once",
                false,
            ),
        ],
    ),
    (
        "The client",
        &[
            card("gaveUp", "Gave up", "customers left uncharged", true),
            card(
                "retriedDeclined",
                "Retried a 400",
                "asked again after a decline",
                true,
            ),
            card(
                "elapsedMs",
                "Elapsed (ms)",
                "until the last client finished",
                false,
            ),
        ],
    ),
];

/// Every counter of the run on screen.
#[component]
pub fn StatsPanel(
    playback: Playback,
    /// A dense panel for embedded widgets: no group titles, no hints.
    compact: bool,
) -> impl IntoView {
    let stats = Memo::new(move |_| {
        playback
            .snapshot
            .with(|s| s.as_ref().map(|s| s.stats.clone()).unwrap_or_default())
    });
    let value = move |field: &'static str| move || stats.with(|s| s.get(field).unwrap_or_default());
    view! {
        <section class="rll-stats" class:rll-compact=compact aria-label="What the provider saw">
            {(!compact).then(|| view! { <h2>"What the provider saw"</h2> })}
            {GROUPS
                .into_iter()
                .map(|(title, cards)| {
                    view! {
                        <div class="rll-group">
                            {(!compact).then(|| view! { <h3>{title}</h3> })}
                            <dl class="rll-cards">
                                {cards
                                    .iter()
                                    .map(|c| {
                                        let v = value(c.field);
                                        let harmed = move || c.harm && v() > 0;
                                        view! {
                                            <div class="rll-card" class:rll-harm=harmed>
                                                <dt>
                                                    {c.label}
                                                    <span class="rll-harm-mark" aria-hidden=move || (!harmed()).to_string()>
                                                        {move || if harmed() { " ⚠" } else { "" }}
                                                    </span>
                                                    <span class="rll-sr">{move || if harmed() { " (harm)" } else { "" }}</span>
                                                </dt>
                                                <dd>
                                                    <span class="rll-value" data-stat=c.field>{v}</span>
                                                    {(!compact).then(|| view! { <span class="rll-hint">{c.hint}</span> })}
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

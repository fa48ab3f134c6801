//! One counter as a card: its label, its value (`data-stat`), harm made visible, and,
//! when a previous run is kept beside it, the change since then.

use crate::page::stats::stat_text;
use crate::sim::{StatField, Stats};
use leptos::prelude::*;

/// A counter of the run on screen.
#[component]
pub fn StatCard(
    /// Which counter.
    field: StatField,
    /// The run's counters.
    stats: Memo<Stats>,
    /// Leave out the one-line meaning (dense panels).
    compact: bool,
    /// The previous run's counters, to show the change since then.
    #[prop(optional)]
    before: Option<Signal<Option<Stats>>>,
) -> impl IntoView {
    let delta = move || {
        let before = before?.get()?.get(field);
        let now = stats.with(|s| s.get(field));
        let sign = if now >= before { "+" } else { "−" };
        Some(format!("was {before} ({sign}{})", now.abs_diff(before)))
    };
    let text = stat_text(field);
    let harmed = move || stats.with(|s| s.harmed(field));
    view! {
        <div class="rll-card" class:rll-harm=harmed title=compact.then_some(text.hint)>
            <dt>
                {text.label}
                <span class="rll-harm-mark" aria-hidden=move || (!harmed()).to_string()>
                    {move || if harmed() { " ⚠" } else { "" }}
                </span>
                <span class="rll-sr">{move || if harmed() { " (harm)" } else { "" }}</span>
            </dt>
            <dd>
                <span class="rll-value" data-stat=field.as_str()>{move || stats.with(|s| s.get(field))}</span>
                {move || delta().map(|d| view! { <span class="rll-ghost-delta" data-ghost=field.as_str()>{d}</span> })}
                {(!compact).then(|| view! { <span class="rll-hint">{text.hint}</span> })}
            </dd>
        </div>
    }
}

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
) -> impl IntoView {
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
                {(!compact).then(|| view! { <span class="rll-hint">{text.hint}</span> })}
            </dd>
        </div>
    }
}

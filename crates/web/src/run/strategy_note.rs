//! What the selected strategy changes from the previous one, and what to watch for
//! (the words and numbers are the page layer's live widget: `page::run::note::Note`).

use crate::shared::live;
use leptos::prelude::*;
use page::run::note::{Note, NoteState};
use sim::{Scenario, StrategyName};

/// The note beside the strategy buttons.
#[component]
pub fn StrategyNote(
    /// The strategy explained.
    strategy: Signal<StrategyName>,
    /// The numbers the next run uses.
    scenario: Signal<Scenario>,
) -> impl IntoView {
    let note = live::view(Note, move || {
        scenario.with(|sc| NoteState {
            strategy: strategy.get(),
            client: sc.client.clone(),
            provider: sc.provider.clone(),
        })
    });
    view! { <div class="rll-note" aria-live="off">{note}</div> }
}

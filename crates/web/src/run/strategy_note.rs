//! What the selected strategy changes from the previous one, and what to watch for
//! (the words and numbers are the page layer's: `page::run::note`).

use leptos::prelude::*;
use page::run::note::note_markup;
use sim::{Scenario, StrategyName};

/// The note beside the strategy buttons (the page layer's markup).
#[component]
pub fn StrategyNote(
    /// The strategy explained.
    strategy: Signal<StrategyName>,
    /// The numbers the next run uses.
    scenario: Signal<Scenario>,
) -> impl IntoView {
    let markup = move || {
        scenario.with(|sc| note_markup(strategy.get(), &sc.client, &sc.provider).into_string())
    };
    view! { <div class="rll-note" aria-live="off" inner_html=markup></div> }
}

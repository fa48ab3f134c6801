//! One button per strategy, in the article's order, then the next rungs (drawn apart: a
//! row of their own on a wide screen, with a dashed edge). Pressing one runs it.

use crate::sim::StrategyName;
use leptos::prelude::*;

/// The strategy buttons.
#[component]
pub fn StrategyPicker(
    /// The strategy on screen.
    selected: Signal<StrategyName>,
    /// Called with the pressed strategy.
    on_pick: Callback<StrategyName>,
) -> impl IntoView {
    view! {
        <div class="rll-picker" role="group" aria-label="Client strategy">
            {StrategyName::ALL
                .into_iter()
                .enumerate()
                .map(|(i, s)| {
                    view! {
                        <button
                            type="button"
                            class="rll-strategy"
                            class:rll-rung=s.is_next_rung()
                            data-strategy=s.as_str()
                            aria-pressed=move || (selected.get() == s).to_string()
                            on:click=move |_| on_pick.run(s)
                        >
                            <span class="rll-step">{i + 1}</span>
                            <span class="rll-strategy-name">{label(s)}</span>
                        </button>
                    }
                })
                .collect_view()}
            <span class="rll-picker-note">{crate::page::titles::RUNGS_NOTE}</span>
        </div>
    }
}

/// The button text of a strategy: the page layer's name for it.
pub fn label(s: StrategyName) -> &'static str {
    crate::page::titles::strategy_label(s)
}

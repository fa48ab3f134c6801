//! One button per strategy, in the article's order, then the next rungs (drawn apart: a
//! row of their own on a wide screen, with a dashed edge). Pressing one runs it.
//!
//! The buttons are the page layer's live widget (`page::run::picker::Picker`): drawn
//! once, the strategy on screen pressed in place; one click handler asks which button's
//! slot was clicked (docs/architecture.md, "Drawing").

use crate::shared::bind;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::prelude::*;
use page::run::picker::{strategy_slot, Picker, PICKER_LABEL};
use sim::StrategyName;

/// The strategy buttons.
#[component]
pub fn StrategyPicker(
    /// The strategy on screen.
    selected: Signal<StrategyName>,
    /// Called with the pressed strategy.
    on_pick: Callback<StrategyName>,
) -> impl IntoView {
    let buttons = live::view(Picker, move || selected.get());
    let on_click = move |ev: web_sys::MouseEvent| {
        let picked = StrategyName::ALL
            .into_iter()
            .find(|s| bind::hit(&ev, strategy_slot(*s)).is_some());
        if let Some(s) = picked {
            on_pick.run(s);
        }
    };
    view! {
        <div class="rll-picker" role="group" aria-label=PICKER_LABEL on:click=handler(on_click)>{buttons}</div>
    }
}

/// The button text of a strategy: the page layer's name for it.
pub fn label(s: StrategyName) -> &'static str {
    page::shared::titles::strategy_label(s)
}

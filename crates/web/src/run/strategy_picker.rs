//! One button per strategy, in the article's order, then the next rungs (drawn apart: a
//! row of their own on a wide screen, with a dashed edge). Pressing one runs it.
//!
//! The buttons are the page layer's markup, set once; one effect marks the strategy on
//! screen and one click handler reads the button's `data-strategy` (README, "Sizes").

use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::titles::picker_markup;
use sim::StrategyName;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// The strategy buttons.
#[component]
pub fn StrategyPicker(
    /// The strategy on screen.
    selected: Signal<StrategyName>,
    /// Called with the pressed strategy.
    on_pick: Callback<StrategyName>,
) -> impl IntoView {
    let root = NodeRef::<Div>::new();
    watch(move || {
        let on = selected.get();
        let Some(buttons) = root
            .get()
            .and_then(|r| r.query_selector_all("[data-strategy]").ok())
        else {
            return;
        };
        for b in (0..buttons.length()).filter_map(|i| buttons.item(i)) {
            if let Ok(b) = b.dyn_into::<Element>() {
                let pressed = b.get_attribute("data-strategy").as_deref() == Some(on.as_str());
                let _ = b.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
            }
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let picked = target_as::<Element>(&ev)
            .and_then(|e| e.closest("[data-strategy]").ok().flatten())
            .and_then(|b| b.get_attribute("data-strategy"))
            .and_then(|s| s.parse::<StrategyName>().ok());
        if let Some(s) = picked {
            on_pick.run(s);
        }
    };
    view! {
        <div class="rll-picker" role="group" aria-label="Client strategy" node_ref=root inner_html=picker_markup() on:click=handler(on_click)></div>
    }
}

/// The button text of a strategy: the page layer's name for it.
pub fn label(s: StrategyName) -> &'static str {
    page::shared::titles::strategy_label(s)
}

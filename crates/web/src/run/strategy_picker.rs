//! One button per strategy, in the article's order, then the next rungs (drawn apart: a
//! row of their own on a wide screen, with a dashed edge). Pressing one runs it.
//!
//! The buttons are the page layer's markup, set once; one effect per button marks the
//! strategy on screen, and one click handler asks which button's slot was clicked
//! (docs/architecture.md, "Drawing").

use crate::shared::bind;
use crate::shared::dom::set_attr;
use crate::shared::erase::handler;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::picker::{picker_markup, strategy_slot, PICKER_LABEL};
use sim::StrategyName;

/// The strategy buttons.
#[component]
pub fn StrategyPicker(
    /// The strategy on screen.
    selected: Signal<StrategyName>,
    /// Called with the pressed strategy.
    on_pick: Callback<StrategyName>,
) -> impl IntoView {
    let root = NodeRef::<Div>::new();
    for s in StrategyName::ALL {
        bind::node(root, strategy_slot(s), move |el| {
            let on = selected.get() == s;
            set_attr(el, "aria-pressed", if on { "true" } else { "false" });
        });
    }
    let on_click = move |ev: web_sys::MouseEvent| {
        let picked = StrategyName::ALL
            .into_iter()
            .find(|s| bind::hit(&ev, strategy_slot(*s)).is_some());
        if let Some(s) = picked {
            on_pick.run(s);
        }
    };
    view! {
        <div class="rll-picker" role="group" aria-label=PICKER_LABEL node_ref=root inner_html=picker_markup().into_string() on:click=handler(on_click)></div>
    }
}

/// The button text of a strategy: the page layer's name for it.
pub fn label(s: StrategyName) -> &'static str {
    page::shared::titles::strategy_label(s)
}

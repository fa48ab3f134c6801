//! The knobs beside the run: a slider for each parameter a reader reaches for. Moving
//! one reruns the strategy on the same seed at once (on release only, above the page
//! layer's live limit), and the run before stays as a ghost.
//!
//! The knobs are the page layer's markup, set once; one effect writes their values, the
//! caption and the ghost's line, and one handler each reads a move and a click (README,
//! "Sizes").

use crate::run::run_state::RunState;
use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::run::knobs::{caption, ghost_values, is_live, knob, knobs_markup, KNOBS};
use page::shared::params::PARAMS;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

/// The sliders, and a line saying what the ghost is.
#[component]
pub fn Knobs(
    /// The run view whose numbers the knobs turn.
    state: RunState,
) -> impl IntoView {
    let root = NodeRef::<Div>::new();
    let find = move |selector: &str| root.get()?.query_selector(selector).ok()?;
    let live = move || state.draft.with(is_live);
    let texts: Vec<_> = KNOBS
        .iter()
        .map(|k| {
            let i = PARAMS.iter().position(|p| p.key == k.key).unwrap_or(0);
            state.texts.with_value(|t| t[i])
        })
        .collect();
    watch(move || {
        for (k, text) in KNOBS.iter().zip(&texts) {
            let text = text.get();
            if let Some(value) = find(&format!("[data-knob-value={}]", k.key)) {
                value.set_text_content(Some(&text));
            }
            if let Some(slider) = find(&format!("[data-knob={}]", k.key))
                .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
            {
                let position = k.position(&text).to_string();
                if slider.value() != position {
                    slider.set_value(&position);
                }
            }
        }
        if let Some(p) = find("[data-knobs-caption]") {
            p.set_text_content(Some(&caption(live())));
        }
        let ghost = state.ghost.with(|g| {
            g.as_ref()
                .map(|g| state.draft.with(|d| ghost_values(&g.scenario, d)))
        });
        if let Some(line) = find("[data-testid=ghost]") {
            let _ = line.toggle_attribute_with_force("hidden", ghost.is_none());
        }
        if let (Some(values), Some(ghost)) = (find("[data-testid=ghost-values]"), ghost) {
            values.set_text_content(Some(&ghost));
        }
    });
    // A move reruns at once while live; otherwise only letting go does.
    let moved = move |ev: web_sys::Event, let_go: bool| {
        let Some(slider) = target_as::<HtmlInputElement>(&ev) else {
            return;
        };
        let key = slider.get_attribute("data-knob").unwrap_or_default();
        if let (Some(k), Ok(v)) = (knob(&key), slider.value().parse()) {
            match (live(), let_go) {
                (live, false) => state.turn(k, v, live),
                (false, true) => state.turn(k, v, true),
                (true, true) => {}
            }
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let dismiss = target_as::<Element>(&ev)
            .is_some_and(|e| e.get_attribute("data-testid").as_deref() == Some("ghost-dismiss"));
        if dismiss {
            state.dismiss_ghost();
        }
    };
    view! {
        <div class="rll-knobs" data-testid="knobs" node_ref=root inner_html=knobs_markup()
            on:input=handler(move |ev| moved(ev, false)) on:change=handler(move |ev| moved(ev, true)) on:click=handler(on_click)></div>
    }
}

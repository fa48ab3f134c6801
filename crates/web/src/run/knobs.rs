//! The knobs beside the run: a slider for each parameter a reader reaches for. Moving
//! one reruns the strategy on the same seed at once (on release only, above the page
//! layer's live limit), and the run before stays as a ghost.
//!
//! The knobs are the page layer's markup, set once; one effect writes every knob's value
//! and slider, one the caption and one the ghost's line, each finding its nodes by their
//! slots, and one handler each reads a move and a click (docs/architecture.md, "Drawing").

use crate::run::run_state::RunState;
use crate::shared::bind;
use crate::shared::dom::{set_flag, set_text, set_value, value_of};
use crate::shared::erase::handler;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::knobs::{
    caption, ghost_values, is_live, knob, knobs_markup, GHOST, GHOST_DISMISS, GHOST_VALUES, KNOB,
    KNOBS, KNOBS_CAPTION, KNOB_KEY, KNOB_SLIDER, KNOB_VALUE,
};
use page::shared::params::PARAMS;

/// The sliders, and a line saying what the ghost is.
#[component]
pub fn Knobs(
    /// The run view whose numbers the knobs turn.
    state: RunState,
) -> impl IntoView {
    let root = NodeRef::<Div>::new();
    let live = move || state.draft().with(is_live);
    let texts: Vec<_> = KNOBS
        .iter()
        .map(|k| {
            let i = PARAMS.iter().position(|p| p.key == k.key).unwrap_or(0);
            state.text(i)
        })
        .collect();
    // Each knob: its value in words and its slider's position, from the panel's text.
    bind::each(root, KNOB, move |el| {
        let Some(slider) = bind::find(el, KNOB_SLIDER) else {
            return;
        };
        let key = slider.get_attribute(KNOB_KEY).unwrap_or_default();
        let Some(i) = KNOBS.iter().position(|k| k.key == key) else {
            return;
        };
        let text = texts[i].get();
        if let Some(value) = bind::find(el, KNOB_VALUE) {
            set_text(&value, Some(&text));
        }
        set_value(&slider, &KNOBS[i].position(&text).to_string());
    });
    bind::node(root, KNOBS_CAPTION, move |el| {
        set_text(el, Some(&caption(live())));
    });
    // The ghost's line: shown while a run before is kept, with its numbers.
    bind::node(root, GHOST, move |el| {
        let ghost = state.ghost().with(|g| {
            g.as_ref()
                .map(|g| state.draft().with(|d| ghost_values(&g.scenario, d)))
        });
        set_flag(el, "hidden", ghost.is_none());
        if let (Some(values), Some(ghost)) = (bind::find(el, GHOST_VALUES), ghost) {
            set_text(&values, Some(&ghost));
        }
    });
    // A move reruns at once while live; otherwise only letting go does.
    let moved = move |ev: web_sys::Event, let_go: bool| {
        let Some(slider) = bind::hit(&ev, KNOB_SLIDER) else {
            return;
        };
        let key = slider.get_attribute(KNOB_KEY).unwrap_or_default();
        let value = value_of(&slider).and_then(|v| v.parse().ok());
        if let (Some(k), Some(v)) = (knob(&key), value) {
            match (live(), let_go) {
                (live, false) => state.turn(k, v, live),
                (false, true) => state.turn(k, v, true),
                (true, true) => {}
            }
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, GHOST_DISMISS).is_some() {
            state.dismiss_ghost();
        }
    };
    view! {
        <div class="rll-knobs" data-testid="knobs" node_ref=root inner_html=knobs_markup().into_string()
            on:input=handler(move |ev| moved(ev, false)) on:change=handler(move |ev| moved(ev, true)) on:click=handler(on_click)></div>
    }
}

//! The knobs beside the run: a slider for each parameter a reader reaches for. Moving
//! one reruns the strategy on the same seed at once (on release only, above the page
//! layer's live limit), and the run before stays as a ghost.
//!
//! The knobs are the page layer's live widget (`page::run::knobs::KnobsPanel`): drawn
//! once, then only each knob's value and slider, the caption and the ghost's line are
//! written; one handler each reads a move and a click (docs/architecture.md, "Drawing").

use crate::run::run_state::RunState;
use crate::shared::bind;
use crate::shared::dom::value_of;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::prelude::*;
use page::run::knobs::{
    ghost_values, is_live, knob, KnobsPanel, KnobsState, GHOST_DISMISS, KNOBS, KNOB_KEY,
    KNOB_SLIDER,
};
use page::shared::params::PARAMS;

/// The sliders, and a line saying what the ghost is.
#[component]
pub fn Knobs(
    /// The run view whose numbers the knobs turn.
    state: RunState,
) -> impl IntoView {
    let live = move || state.draft().with(is_live);
    let texts: Vec<_> = KNOBS
        .iter()
        .map(|k| {
            let i = PARAMS.iter().position(|p| p.key == k.key).unwrap_or(0);
            state.text(i)
        })
        .collect();
    // Each knob's value and slider from the panel's text, the caption, and the ghost's
    // line while a run before is kept.
    let panel = live::view(KnobsPanel, move || KnobsState {
        texts: texts.iter().map(|t| t.get()).collect(),
        live: live(),
        ghost: state.ghost().with(|g| {
            g.as_ref()
                .map(|g| state.draft().with(|d| ghost_values(&g.scenario, d)))
        }),
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
        <div class="rll-knobs" data-testid="knobs"
            on:input=handler(move |ev| moved(ev, false)) on:change=handler(move |ev| moved(ev, true)) on:click=handler(on_click)>{panel}</div>
    }
}

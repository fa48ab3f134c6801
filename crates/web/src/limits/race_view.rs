//! The race, stepped: the page layer's live widget (`page::limits::race::RaceWidget`),
//! stepped by its buttons or by ← and → anywhere inside it. Time stands still between
//! steps: nothing moves unless the reader steps.

use crate::shared::bind;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::race::{
    mode_slot, RaceState, RaceWidget, RACE, RACE_BACK, RACE_NEXT, RACE_TITLE,
};
use sim::fleet::race::RaceMode;
use wasm_bindgen::JsCast;

/// The race, below the fleet's figures.
#[component]
pub fn RaceView() -> impl IntoView {
    let state = RwSignal::new(RaceState::default());
    let root = NodeRef::<Div>::new();
    let widget = live::view(RaceWidget, move || state.get());
    // A button that a step disables loses the focus; the race's box takes it, so the
    // keys go on working.
    let keep_focus = move || {
        let Some(r) = root.get_untracked() else {
            return;
        };
        let lost = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .and_then(|a| a.dyn_into::<web_sys::HtmlButtonElement>().ok())
            .is_some_and(|b| b.disabled());
        if lost {
            if let Some(b) =
                bind::find(&r, RACE).and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = b.focus();
            }
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, RACE_NEXT).is_some() {
            state.update(|s| *s = s.next());
        } else if bind::hit(&ev, RACE_BACK).is_some() {
            state.update(|s| *s = s.back());
        } else if let Some(m) = RaceMode::ALL
            .into_iter()
            .find(|m| bind::hit(&ev, mode_slot(*m)).is_some())
        {
            state.set(RaceState::with_mode(m));
        }
        keep_focus();
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let step = match ev.key().as_str() {
            "ArrowRight" => RaceState::next,
            "ArrowLeft" => RaceState::back,
            _ => return,
        };
        ev.prevent_default();
        state.update(|s| *s = step(*s));
        keep_focus();
    };
    view! {
        <div class="rll-race-section" data-testid="race-section" node_ref=root
            on:click=handler(on_click) on:keydown=handler(on_key)>
            <h3>{RACE_TITLE}</h3>
            {widget}
        </div>
    }
}

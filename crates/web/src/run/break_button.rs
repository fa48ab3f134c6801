//! "Break the provider for 3 s": during a watched run, starts the chosen incident at the
//! simulated moment on screen. The run's parameters (and the URL) then hold that moment,
//! so a copied link replays the same run.

use crate::run::run_state::RunState;
use crate::run::use_playback::PlayState;
use crate::shared::bind;
use crate::shared::dom::{set_class, set_text};
use crate::shared::erase::handler;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::incident::break_label;
use page::run::stage::{break_markup, BREAK};
use page::Speed;

/// The button, shown while a run plays or is paused at a watching speed.
#[component]
pub fn BreakButton(
    /// The run view's state.
    state: RunState,
) -> impl IntoView {
    let playback = state.playback();
    let watched = move || {
        matches!(
            playback.state().get(),
            PlayState::Running | PlayState::Paused
        ) && playback.speed().get() != Speed::Instant
    };
    // The page layer's button, in a box that leaves the layout to it; shown and labelled
    // by one effect (as bindings, a class and a text of their own).
    let root = NodeRef::<Div>::new();
    bind::node(root, BREAK, move |el| {
        set_class(el, "rll-hidden", !watched());
        set_text(el, Some(&state.draft().with(break_label)));
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, BREAK).is_some() {
            state.break_provider();
        }
    };
    view! {
        <div style="display:contents" node_ref=root inner_html=break_markup().into_string() on:click=handler(on_click)></div>
    }
}

//! "Break the provider for 3 s": during a watched run, starts the chosen incident at the
//! simulated moment on screen. The run's parameters (and the URL) then hold that moment,
//! so a copied link replays the same run.

use crate::run::run_state::RunState;
use crate::run::use_playback::PlayState;
use crate::shared::bind;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::prelude::*;
use page::run::incident::break_label;
use page::run::stage::{BreakButton as Button, BreakState, BREAK};
use page::Speed;

/// The button, shown while a run plays or is paused at a watching speed.
#[component]
pub fn BreakButton(
    /// The run view's state.
    state: RunState,
) -> impl IntoView {
    let playback = state.playback();
    // The page layer's live button, shown and labelled as the run goes.
    let button = live::view(Button, move || BreakState {
        watched: matches!(
            playback.state().get(),
            PlayState::Running | PlayState::Paused
        ) && playback.speed().get() != Speed::Instant,
        label: state.draft().with(break_label),
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, BREAK).is_some() {
            state.break_provider();
        }
    };
    view! { <div style="display:contents" on:click=handler(on_click)>{button}</div> }
}

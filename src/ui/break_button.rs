//! "Break the provider for 3 s": during a watched run, starts the chosen incident at the
//! simulated moment on screen. The run's parameters (and the URL) then hold that moment,
//! so a copied link replays the same run.

use super::erase::handler;
use super::run_state::RunState;
use super::use_playback::PlayState;
use crate::page::incident::break_label;
use crate::page::Speed;
use leptos::prelude::*;

/// The button, shown while a run plays or is paused at a watching speed.
#[component]
pub fn BreakButton(
    /// The run view's state.
    state: RunState,
) -> impl IntoView {
    let playback = state.playback;
    let watched = move || {
        matches!(playback.state.get(), PlayState::Running | PlayState::Paused)
            && playback.speed.get() != Speed::Instant
    };
    view! {
        <button
            type="button"
            class="rll-break"
            data-testid="break-provider"
            class:rll-hidden=move || !watched()
            on:click=handler(move |_| state.break_provider())
        >
            {move || state.draft.with(break_label)}
        </button>
    }
}

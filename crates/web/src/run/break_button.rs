//! "Break the provider for 3 s": during a watched run, starts the chosen incident at the
//! simulated moment on screen. The run's parameters (and the URL) then hold that moment,
//! so a copied link replays the same run.

use crate::run::run_state::RunState;
use crate::run::use_playback::PlayState;
use crate::shared::dom::by_testid;
use crate::shared::erase::{handler, watch};
use leptos::prelude::*;
use page::run::incident::break_label;
use page::Speed;

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
    // Shown and labelled by one effect (as bindings, a class and a text of their own).
    watch(move || {
        let (shown, label) = (watched(), state.draft.with(break_label));
        if let Some(button) = by_testid("break-provider") {
            let _ = button.class_list().toggle_with_force("rll-hidden", !shown);
            button.set_text_content(Some(&label));
        }
    });
    view! {
        <button type="button" class="rll-break rll-hidden" data-testid="break-provider"
            on:click=handler(move |_| state.break_provider())></button>
    }
}

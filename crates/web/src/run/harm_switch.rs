//! "Pause at the first harm": a checkbox beside the timeline; while it is ticked, a
//! playing run stops at the instant of its first harm, with the harm pointed at. The
//! page layer's live widget (`page::run::stage::HarmSwitch`), drawn once; one handler
//! reads it.

use crate::run::use_playback::Playback;
use crate::shared::bind;
use crate::shared::dom::target_as;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::prelude::*;
use page::run::stage::{HarmSwitch as Switch, PAUSE_AT_HARM};
use web_sys::HtmlInputElement;

/// The switch, ticked at first if the playback already pauses at the first harm.
#[component]
pub fn HarmSwitch(
    /// The playback it sets.
    playback: Playback,
) -> impl IntoView {
    let on_change = move |ev: web_sys::Event| {
        if bind::hit(&ev, PAUSE_AT_HARM).is_some() {
            if let Some(input) = target_as::<HtmlInputElement>(&ev) {
                playback.pause_at_harm(input.checked());
            }
        }
    };
    // Ticked at first as the playback is; the reader's ticks are the box's own after.
    let on = playback.stop_at_harm().get_untracked();
    let switch = live::view(Switch, move || on);
    view! {
        <div style="display:contents" on:change=handler(on_change)>{switch}</div>
    }
}

//! "Pause at the first harm": a checkbox beside the timeline; while it is ticked, a
//! playing run stops at the instant of its first harm, with the harm pointed at. The
//! page layer's markup, set once; one handler reads it.

use crate::run::use_playback::Playback;
use crate::shared::bind;
use crate::shared::dom::target_as;
use crate::shared::erase::handler;
use leptos::prelude::*;
use page::run::stage::{pause_at_harm_markup, PAUSE_AT_HARM};
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
    let markup = pause_at_harm_markup(playback.stop_at_harm().get_untracked()).into_string();
    view! {
        <div style="display:contents" inner_html=markup on:change=handler(on_change)></div>
    }
}

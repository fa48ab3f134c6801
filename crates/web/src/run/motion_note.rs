//! The reduced-motion note: while the reader's system asks for reduced motion and that
//! is why runs are instant, it says so, with a button that animates anyway.
//!
//! The note is the page layer's live widget ([`MotionNote`]), which decides when it
//! shows; one click handler asks whether its button was hit.

use crate::run::use_playback::Playback;
use crate::shared::bind;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::prelude::*;
use page::run::stage::{MotionNote as Note, MotionState, ANIMATE};
use page::Speed;

/// The note: the run page's notice, or a `widget`'s caption.
#[component]
pub fn MotionNote(
    /// The playback whose speed the note is about.
    playback: Playback,
    /// True while the reader's system asks for reduced motion.
    reduced: ReadSignal<bool>,
    /// A widget's caption rather than the run page's notice.
    #[prop(optional)]
    widget: bool,
) -> impl IntoView {
    let note = live::view(Note { widget }, move || MotionState {
        reduced: reduced.get(),
        speed: playback.speed().get(),
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, ANIMATE).is_some() {
            playback.set_speed(Speed::X10);
        }
    };
    view! { <div style="display:contents" on:click=handler(on_click)>{note}</div> }
}

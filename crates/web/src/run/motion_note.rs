//! The reduced-motion note: while the reader's system asks for reduced motion and that
//! is why runs are instant, it says so, with a button that animates anyway.
//!
//! The note is the page layer's markup, set once in a box that leaves the layout to it;
//! one effect shows or hides it, and one click handler asks whether its button was hit.

use crate::run::use_playback::Playback;
use crate::shared::bind;
use crate::shared::dom::set_flag;
use crate::shared::erase::handler;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::stage::{motion_note_markup, ANIMATE, MOTION_NOTE};
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
    let root = NodeRef::<Div>::new();
    bind::node(root, MOTION_NOTE, move |el| {
        let shown = reduced.get() && playback.speed().get() == Speed::Instant;
        set_flag(el, "hidden", !shown);
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, ANIMATE).is_some() {
            playback.set_speed(Speed::X10);
        }
    };
    view! {
        <div style="display:contents" node_ref=root inner_html=motion_note_markup(widget).into_string() on:click=handler(on_click)></div>
    }
}

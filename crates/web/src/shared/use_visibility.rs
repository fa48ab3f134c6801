//! `use_pause_offscreen`: pauses a playback while its element is scrolled out of view and
//! resumes it when it comes back (only if it was running when it left). It watches with
//! [`use_observer`], which disconnects when the component goes.

use crate::run::use_playback::{PlayState, Playback};
use crate::shared::observe::{last_entry, use_observer};
use leptos::html::Div;
use leptos::prelude::*;

/// Watches `target` and pauses `playback` while it is off screen.
pub fn use_pause_offscreen(target: NodeRef<Div>, playback: Playback) {
    let paused_by_us = StoredValue::new(false);
    use_observer::<web_sys::IntersectionObserver, _>(target, move |entries| {
        let Some(entry) = last_entry::<web_sys::IntersectionObserverEntry>(&entries) else {
            return;
        };
        if !entry.is_intersecting() && playback.state().get_untracked() == PlayState::Running {
            playback.pause();
            paused_by_us.set_value(true);
        } else if entry.is_intersecting() && paused_by_us.get_value() {
            paused_by_us.set_value(false);
            playback.resume();
        }
    });
}

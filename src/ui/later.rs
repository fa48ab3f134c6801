//! `Later`: what lies below the first screen, built after the first screen has painted.
//! A phone with a slow processor spends most of its start building and laying out the
//! page; building the stage first lets the reader see it and press its buttons sooner,
//! and the rest follows a frame later, out of sight (README, "Time to ready").

use leptos::prelude::*;
use std::time::Duration;

/// Its children, once the page has painted the frame it mounted in.
#[component]
pub fn Later(
    /// Build at once after all: for parts that would be on screen from the start, where
    /// appearing a frame late would move what is below them.
    #[prop(optional)]
    now: bool,
    /// What to build after the first paint.
    children: Children,
) -> impl IntoView {
    let shown = RwSignal::new(now);
    // Built once, untracked: `shown` only ever turns on, and nothing the children read
    // while being built may run this again (it would find them gone).
    let children = StoredValue::new_local(Some(children));
    // An animation frame runs just before a paint; a task queued from it runs after.
    if !now {
        request_animation_frame(move || set_timeout(move || shown.set(true), Duration::ZERO));
    }
    move || {
        shown
            .get()
            .then(|| {
                children
                    .try_update_value(Option::take)
                    .flatten()
                    .map(|c| untrack(c))
            })
            .flatten()
    }
}

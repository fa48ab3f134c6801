//! `Later`: what lies below the first screen, built after the first screen has painted.
//! A phone with a slow processor spends most of its start building and laying out the
//! page; building the stage first lets the reader see it and press its buttons sooner,
//! and the rest follows a frame later, out of sight (docs/sizes-and-speeds.md, "Time to ready").

use leptos::prelude::*;
use std::cell::Cell;
use std::time::Duration;

thread_local! {
    /// Build everything at once: the page takes over a screen another module has
    /// already painted ([`build_at_once`]).
    static AT_ONCE: Cell<bool> = const { Cell::new(false) };
}

/// From now on, what a `Later` holds is built at once: for a page that takes over the
/// screen of the module before it (the run page's first module's: `run::hand_over`),
/// whose first paint has been, and where appearing a frame late would show a gap.
pub fn build_at_once() {
    AT_ONCE.with(|a| a.set(true));
}

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
    let shown = painted(now);
    // Built once, untracked: `shown` only ever turns on, and nothing the children read
    // while being built may run this again (it would find them gone).
    let children = StoredValue::new_local(Some(children));
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

/// False until the next frame has painted, then true (true from the start if `already`):
/// for what a component builds or draws only after the first paint.
pub fn painted(already: bool) -> ReadSignal<bool> {
    let already = already || AT_ONCE.with(Cell::get);
    let (shown, set_shown) = signal(already);
    if !already {
        after_next_paint(move || set_shown.set(true));
    }
    shown
}

/// Runs `f` once the next frame has painted: an animation frame runs just before a paint,
/// and a task queued from it runs after. If a `Later` was mounted before `f` was given,
/// what it builds is already there when `f` runs (its frame callback, and so its task,
/// come first).
pub fn after_next_paint(f: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(f, Duration::ZERO));
}

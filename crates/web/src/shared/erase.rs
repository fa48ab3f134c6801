//! One copy of Leptos' generic machinery per module: effects and event handlers whose
//! closures are boxed behind one type each.
//!
//! `Effect::new` and `on:` are generic over their closure, and each closure type gets
//! its own copy of the machinery around it (an effect's async loop and scheduling, a
//! listener's attaching and removal). Boxed, every effect of a module shares one copy,
//! and every listener of one event one (docs/sizes-and-speeds.md, "Techniques"). (Memos gain nothing
//! this way: each holds a value type of its own.)

use leptos::prelude::*;

/// Runs `f` at once (after the current render), then each time a signal it read
/// changes, until the owner that called it is cleaned up: `Effect::new` for a closure
/// that keeps no value between runs.
pub fn watch(f: impl FnMut() + 'static) {
    watch_boxed(Box::new(f));
}

/// The one instance of `Effect::new` behind [`watch`].
#[inline(never)]
fn watch_boxed(mut f: Box<dyn FnMut()>) {
    Effect::new(move |_: Option<()>| f());
}

/// An event handler for `on:…`, boxed so that every listener of one event type shares
/// the code that attaches and removes it.
pub fn handler<E: 'static>(f: impl FnMut(E) + 'static) -> Box<dyn FnMut(E)> {
    Box::new(f)
}

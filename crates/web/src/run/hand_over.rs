//! The run page's first module hands the page to the whole page's module
//! (`page::run::hand_over`; docs/sizes-and-speeds.md, "The run page's first module").
//!
//! `run.html` starts `rate-limit-lab-stage`, the run page down to its stage, then
//! `rate-limit-lab`, the whole page. The loader (`assets/loader.js`) gives the page
//! `window.rateLimitLabHandOver`, which asks the first module for its run and takes its
//! page off the screen: the whole page's module calls it as it mounts, in the same task,
//! so no frame shows both pages, or neither.

use super::run_state::RunState;
use super::use_playback::Playback;
use crate::shared::later::build_at_once;
use crate::shared::page_query;
use leptos::mount::UnmountHandle;
use leptos::tachys::view::Mountable;
use page::run::hand_over::HandOver;
use std::any::Any;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

thread_local! {
    /// The first module's run, until the whole page takes over.
    static RUN: Cell<Option<Playback>> = const { Cell::new(None) };
    /// The first module's page on screen, until the whole page takes over.
    static PAGE: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// In the first module, as its page is built: the run to give.
pub fn keep(playback: Playback) {
    RUN.with(|r| r.set(Some(playback)));
}

/// In the first module, once its page is on screen: the page to take off it.
pub fn on_screen<M: Mountable + 'static>(page: UnmountHandle<M>) {
    PAGE.with(|p| p.replace(Some(Box::new(page))));
}

/// In the first module: stops its run and takes its page off the screen. The run's
/// line (`page::run::hand_over`), or `None` if none had started (or it was given
/// already).
pub fn give() -> Option<String> {
    let run = RUN
        .with(Cell::take)
        .and_then(|playback| playback.hand_over())
        .map(|h| h.to_string());
    // Dropping the handle unmounts the page: its nodes leave the document, and its
    // effects and frame loops end.
    drop(PAGE.with(|p| p.borrow_mut().take()));
    run
}

/// In the whole page's module, as it mounts: takes the page over from the first module,
/// if one was on screen. What this page would build a frame later is then built at
/// once, as that page has painted; and the run it played, if any, goes on here. True if
/// a run was handed over (the page then starts none of its own).
pub fn take_over(state: RunState) -> bool {
    // Throws (an `Err`) where the loader gave the page no first module to take over.
    let Ok(run) = given() else {
        return false;
    };
    build_at_once();
    let handed = run
        .as_string()
        .and_then(|line| HandOver::read(&line, page_query::read_in));
    if let Some(h) = &handed {
        state.take_over(h);
    }
    handed.is_some()
}

#[wasm_bindgen]
extern "C" {
    /// `window.rateLimitLabHandOver()`, which `assets/loader.js` gives a page whose first
    /// module is on screen.
    #[wasm_bindgen(catch, js_namespace = window, js_name = rateLimitLabHandOver)]
    fn given() -> Result<JsValue, JsValue>;
}

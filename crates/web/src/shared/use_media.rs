//! `use_reduced_motion`: whether the reader asked the system for less motion, kept up
//! to date while the page is open; the listener goes when the component does.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// True while `(prefers-reduced-motion: reduce)` matches.
pub fn use_reduced_motion() -> ReadSignal<bool> {
    let query = web_sys::window().and_then(|w| {
        w.match_media("(prefers-reduced-motion: reduce)")
            .ok()
            .flatten()
    });
    let (reduced, set_reduced) = signal(query.as_ref().is_some_and(|q| q.matches()));
    if let Some(q) = query {
        let on_change = Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(
            move |e: web_sys::MediaQueryListEvent| set_reduced.set(e.matches()),
        );
        let _ = q.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        let q = send_wrapper::SendWrapper::new((q, on_change));
        on_cleanup(move || {
            let (q, f) = q.take();
            let _ = q.remove_event_listener_with_callback("change", f.as_ref().unchecked_ref());
        });
    }
    reduced
}

//! `use_observer`: the one way the app watches an element, with an `IntersectionObserver`
//! (is it on screen?) or a `ResizeObserver` (did its size change?). It observes the
//! element once it is on the page, keeps the callback alive as long as the observer, and
//! disconnects the observer when the component goes. Used by `use_pause_offscreen`, the
//! framed page's height message and `use_measured`.

use leptos::html::ElementType;
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// What to watch an element for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watch {
    /// Whether it is on screen: entries are `IntersectionObserverEntry`s.
    Visibility,
    /// Its size: entries are `ResizeObserverEntry`s.
    Size,
}

/// A connected observer of either kind.
enum Observer {
    Visibility(web_sys::IntersectionObserver),
    Size(web_sys::ResizeObserver),
}

impl Observer {
    /// An observer of `watch`'s kind that calls `callback`.
    fn new(watch: Watch, callback: &js_sys::Function) -> Option<Self> {
        match watch {
            Watch::Visibility => web_sys::IntersectionObserver::new(callback)
                .ok()
                .map(Observer::Visibility),
            Watch::Size => web_sys::ResizeObserver::new(callback)
                .ok()
                .map(Observer::Size),
        }
    }

    fn observe(&self, el: &web_sys::Element) {
        match self {
            Observer::Visibility(o) => o.observe(el),
            Observer::Size(o) => o.observe(el),
        }
    }

    fn disconnect(&self) {
        match self {
            Observer::Visibility(o) => o.disconnect(),
            Observer::Size(o) => o.disconnect(),
        }
    }
}

/// Watches `target` for `watch` once it is on the page: `on_entries` gets each batch of
/// the observer's entries (oldest first), starting with the element's state when it is
/// first observed. The observer is disconnected when the component goes.
pub fn use_observer<E>(
    target: NodeRef<E>,
    watch: Watch,
    on_entries: impl Fn(js_sys::Array) + 'static,
) where
    E: ElementType,
    E::Output: JsCast + Clone + AsRef<web_sys::Element> + 'static,
{
    let on_entries = Rc::new(on_entries);
    Effect::new(move |_| {
        let Some(el) = target.get() else { return };
        let f = Rc::clone(&on_entries);
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries| f(entries));
        let Some(observer) = Observer::new(watch, callback.as_ref().unchecked_ref()) else {
            return;
        };
        observer.observe(el.as_ref());
        // The callback must outlive the observer: both go, disconnected, with the component
        // (or if the element is replaced, before the new one is observed).
        let keep = send_wrapper::SendWrapper::new((observer, callback));
        on_cleanup(move || keep.take().0.disconnect());
    });
}

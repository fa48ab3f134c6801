//! `use_observer`: the one way the app watches an element, with an `IntersectionObserver`
//! (is it on screen?) or a `ResizeObserver` (did its size change?). It observes the
//! element once it is on the page, keeps the callback alive as long as the observer, and
//! disconnects the observer when the component goes. Used by `use_pause_offscreen`, the
//! framed page's height message and `use_measured`.

use crate::shared::erase::watch;
use leptos::html::ElementType;
use leptos::prelude::*;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, IntersectionObserver, ResizeObserver};

/// A kind of browser observer. The kind is a type, not a value, so that a page's module
/// carries only the kinds it uses.
pub trait Observer: Sized + 'static {
    /// A new observer that calls `callback` with each batch of entries.
    fn create(callback: &js_sys::Function) -> Option<Self>;
    /// Starts watching `el`.
    fn watch(&self, el: &Element);
    /// Stops watching everything.
    fn stop(&self);
}

impl Observer for IntersectionObserver {
    fn create(callback: &js_sys::Function) -> Option<Self> {
        IntersectionObserver::new(callback).ok()
    }
    fn watch(&self, el: &Element) {
        self.observe(el);
    }
    fn stop(&self) {
        self.disconnect();
    }
}

impl Observer for ResizeObserver {
    fn create(callback: &js_sys::Function) -> Option<Self> {
        ResizeObserver::new(callback).ok()
    }
    fn watch(&self, el: &Element) {
        self.observe(el);
    }
    fn stop(&self) {
        self.disconnect();
    }
}

/// The newest entry of a batch an observer reported (an `IntersectionObserverEntry` or a
/// `ResizeObserverEntry`): the element's state now.
pub fn last_entry<T: JsCast>(entries: &js_sys::Array) -> Option<T> {
    entries
        .get(entries.length().saturating_sub(1))
        .dyn_into::<T>()
        .ok()
}

/// Watches `target` with an observer of kind `O` (`IntersectionObserver`: entries are
/// `IntersectionObserverEntry`s; `ResizeObserver`: `ResizeObserverEntry`s) once it is on
/// the page. `on_entries` gets each batch of entries, oldest first, starting with the
/// element's state when it is first observed. The observer is disconnected when the
/// component goes.
pub fn use_observer<O, E>(target: NodeRef<E>, on_entries: impl Fn(js_sys::Array) + 'static)
where
    O: Observer,
    E: ElementType,
    E::Output: JsCast + Clone + AsRef<Element> + 'static,
{
    let on_entries = Rc::new(on_entries);
    watch(move || {
        let Some(el) = target.get() else { return };
        let f = Rc::clone(&on_entries);
        let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries| f(entries));
        let Some(observer) = O::create(callback.as_ref().unchecked_ref()) else {
            return;
        };
        observer.watch(el.as_ref());
        // The callback must outlive the observer: both go, disconnected, with the component
        // (or if the element is replaced, before the new one is observed).
        let keep = send_wrapper::SendWrapper::new((observer, callback));
        on_cleanup(move || keep.take().0.stop());
    });
}

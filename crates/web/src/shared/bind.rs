//! Binding the page layer's markup: the UI finds a node by its [`Slot`] (the constant the
//! markup wrote it with) and writes what a run changes, one effect per control. No
//! selector is written in the UI: a slot carries its own.
//!
//! ```ignore
//! let root = NodeRef::<Div>::new();
//! bind::node(root, PAUSE, move |el| {
//!     dom::set_text(el, Some(pause_label(paused.get(), false)));
//!     dom::set_flag(el, "disabled", !playing.get());
//! });
//! view! { <div node_ref=root inner_html=controls_markup().into_string()></div> }
//! ```

use super::erase::watch;
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::slot::Slot;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// Where a page layer's markup was set: the node reference of the `<div>` that holds it.
/// Read inside an effect, it makes the effect run again once the node is mounted.
pub type Root = NodeRef<Div>;

/// The node `slot` names under `root`.
pub fn find(root: &Element, slot: Slot) -> Option<Element> {
    root.query_selector(slot.selector()).ok()?
}

/// Every node `slot` names under `root`, in document order.
pub fn find_all(root: &Element, slot: Slot) -> Vec<Element> {
    let Ok(list) = root.query_selector_all(slot.selector()) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .collect()
}

/// The node named `slot` that an event happened in (the target itself, or the nearest
/// ancestor that is one), for a delegated handler.
pub fn hit(ev: &web_sys::Event, slot: Slot) -> Option<Element> {
    let target = ev.target()?.dyn_into::<Element>().ok()?;
    target.closest(slot.selector()).ok()?
}

/// One effect for one control: `write` runs with the node `slot` names under `root`
/// once it is mounted, and again whenever a signal it reads changes.
pub fn node(root: Root, slot: Slot, write: impl Fn(&Element) + 'static) {
    node_boxed(root, slot, Box::new(write));
}

/// The one copy of [`node`]'s effect: each binding brings only its own closure.
#[inline(never)]
fn node_boxed(root: Root, slot: Slot, write: Box<dyn Fn(&Element)>) {
    watch(move || {
        if let Some(el) = root.get().and_then(|r| find(&r, slot)) {
            write(&el);
        }
    });
}

/// One effect for a group of controls that share a slot (a row of buttons): `write` runs
/// with each of them.
pub fn each(root: Root, slot: Slot, write: impl Fn(&Element) + 'static) {
    each_boxed(root, slot, Box::new(write));
}

#[inline(never)]
fn each_boxed(root: Root, slot: Slot, write: Box<dyn Fn(&Element)>) {
    watch(move || {
        if let Some(r) = root.get() {
            for el in find_all(&r, slot) {
                write(&el);
            }
        }
    });
}

/// One effect that writes a node's text.
pub fn text(root: Root, slot: Slot, text: impl Fn() -> String + 'static) {
    node(root, slot, move |el| {
        super::dom::set_text(el, Some(&text()))
    });
}

//! Finding the page layer's nodes: the UI finds a node by its [`Slot`] (the constant the
//! markup wrote it with), never by a selector of its own: an event's node
//! ([`hit`], for a delegated handler), a node to focus or to hand to the browser
//! ([`find`]). Widgets are drawn and filled by `shared::live`; [`node`] is the old hand
//! binding, one effect per node, left only where `crates/web/tests/ui_rules.rs` lists a
//! file that still writes by hand, and why.

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

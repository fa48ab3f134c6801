//! What an event happened on, for the delegated handlers that read a control of the page
//! layer's markup by its `data-` attributes.

use wasm_bindgen::JsCast;

/// The node an event happened on, as a `T` (an element, an input), if it is one.
pub fn target_as<T: JsCast>(ev: &web_sys::Event) -> Option<T> {
    ev.target()?.dyn_into::<T>().ok()
}

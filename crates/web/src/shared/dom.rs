//! What an event happened on, for the delegated handlers that read a control of the page
//! layer's markup by its `data-` attributes (each named by the page layer), the value of
//! such a control, and the writes that leave a node alone when it already shows what
//! they would write.

use wasm_bindgen::JsCast;

/// The node an event happened on, as a `T` (an element, an input), if it is one.
pub fn target_as<T: JsCast>(ev: &web_sys::Event) -> Option<T> {
    ev.target()?.dyn_into::<T>().ok()
}

/// The `value` of a form control of the page layer's markup (an `<input>` or a
/// `<select>`), read the same way for both.
pub fn value_of(el: &web_sys::Element) -> Option<String> {
    js_sys::Reflect::get(el, &"value".into()).ok()?.as_string()
}

/// Sets a form control's `value`, unless it already holds it (so a field being typed
/// in keeps its caret).
pub fn set_value(el: &web_sys::Element, value: &str) {
    if value_of(el).as_deref() != Some(value) {
        let _ = js_sys::Reflect::set(el, &"value".into(), &value.into());
    }
}

/// The control of a delegated event that names a form's field in its attribute `attr`
/// (the page layer's name for it), and the field's name.
pub fn field_of(ev: &web_sys::Event, attr: &str) -> Option<(web_sys::Element, String)> {
    let el = target_as::<web_sys::Element>(ev)?;
    let field = el.get_attribute(attr)?;
    Some((el, field))
}

/// Sets an element's text, unless it already says it (a live region announces every
/// change, even to the same words).
pub fn set_text(el: &web_sys::Element, text: Option<&str>) {
    if el.text_content().as_deref().unwrap_or("") != text.unwrap_or("") {
        el.set_text_content(text);
    }
}

/// Sets or removes a boolean attribute (`disabled`, `hidden`, `open`).
pub fn set_flag(el: &web_sys::Element, name: &str, on: bool) {
    let _ = el.toggle_attribute_with_force(name, on);
}

/// Sets an attribute, unless it already has this value.
pub fn set_attr(el: &web_sys::Element, name: &str, value: &str) {
    if el.get_attribute(name).as_deref() != Some(value) {
        let _ = el.set_attribute(name, value);
    }
}

/// Adds or removes a class.
pub fn set_class(el: &web_sys::Element, class: &str, on: bool) {
    let _ = el.class_list().toggle_with_force(class, on);
}

/// Brings the element with `id` into view (its top at the top of the window).
pub fn scroll_to(id: &str) {
    if let Some(el) = leptos::prelude::document().get_element_by_id(id) {
        el.scroll_into_view();
    }
}

/// The device's memory in GiB, if the browser says (`navigator.deviceMemory`: Chromium
/// only, rounded down, at most 8).
pub fn device_memory_gib() -> Option<f64> {
    let navigator = web_sys::window()?.navigator();
    js_sys::Reflect::get(&navigator, &"deviceMemory".into())
        .ok()?
        .as_f64()
}

/// Where the lab is served from: set by the loader, or this page's own directory.
pub fn lab_base() -> String {
    let from_loader = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"rateLimitLabBase".into()).ok())
        .and_then(|v| v.as_string());
    from_loader.unwrap_or_else(|| {
        let href = leptos::prelude::window()
            .location()
            .href()
            .unwrap_or_default();
        let path = href.split(['?', '#']).next().unwrap_or_default();
        path.rsplit_once('/')
            .map_or(String::new(), |(dir, _)| format!("{dir}/"))
    })
}

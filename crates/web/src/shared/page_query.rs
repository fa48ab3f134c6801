//! Reads and writes the page's URL query. The meaning of each key is decided by the
//! pure [`crate::page`] module; this file only talks to the browser.

use page::{Family, Query};
use wasm_bindgen::JsValue;

/// The decoded `(key, value)` pairs of the current URL, in order.
fn pairs() -> Vec<(String, String)> {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else {
        return Vec::new();
    };
    pairs_in(&search)
}

/// The decoded `(key, value)` pairs of a query string (`?a=1&b=2`), in order, as the
/// browser splits them.
fn pairs_in(search: &str) -> Vec<(String, String)> {
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(search) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // URLSearchParams is iterable as [key, value] arrays.
    if let Ok(Some(iter)) = js_sys::try_iter(&params) {
        for entry in iter.flatten() {
            let pair = js_sys::Array::from(&entry);
            let key = pair.get(0).as_string().unwrap_or_default();
            let value = pair.get(1).as_string().unwrap_or_default();
            out.push((key, value));
        }
    }
    out
}

/// What the current URL asks for, as the page whose own keys are `F`'s reads it
/// ([`page::site::keys::read`]).
pub fn read<F: Family>() -> Query<F> {
    page::site::keys::read(&pairs())
}

/// What a query string (`?a=1&b=2`) asks for, read as [`read`] reads the URL's.
pub fn read_in<F: Family>(search: &str) -> Query<F> {
    page::site::keys::read(&pairs_in(search))
}

/// Replaces the URL's query without reloading, so the address bar always names the run
/// on screen and can be shared.
pub fn replace(query_string: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(query_string));
    }
}

/// Writes the URL's query: a new history entry when the reader chose something new (a
/// strategy, a story), so Back returns to it; otherwise in place.
pub fn record(query_string: &str, new_entry: bool) {
    let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else {
        return;
    };
    let _ = if new_entry {
        history.push_state_with_url(&JsValue::NULL, "", Some(query_string))
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(query_string))
    };
}

//! A part of a page that is a module of its own, downloaded when the reader first asks
//! for what it draws (`assets/loader.js` gives the page `window.rateLimitLabPart(name)`,
//! which imports the module once and starts it), and its exported functions called.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Calls the method `name` of `object` with `args`: what it returned, or what it threw.
pub fn call(object: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: js_sys::Function = js_sys::Reflect::get(object, &name.into())?.dyn_into()?;
    f.apply(object, &args.iter().collect::<js_sys::Array>())
}

/// The started module `name` (its exports), downloaded on the first call; or why it
/// could not be, as a sentence's end ("… could not load (<why>).").
pub async fn part(name: &str) -> Result<JsValue, String> {
    let window = web_sys::window().ok_or("no window")?;
    let promise = call(&window, "rateLimitLabPart", &[name.into()]).map_err(why)?;
    JsFuture::from(js_sys::Promise::from(promise))
        .await
        .map_err(why)
}

/// What a thrown value says.
pub fn why(thrown: JsValue) -> String {
    thrown
        .as_string()
        .or_else(|| {
            thrown
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| "no reason given".to_owned())
}

//! Files fetched from next to the page: their text, or their bytes.

use crate::shared::dom::lab_base;
use page::run::code::could_not_load;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The response for `path` under the lab's folder, or why there is none.
async fn fetch_ok(path: &str) -> Result<web_sys::Response, String> {
    let url = format!("{}{path}", lab_base());
    let failed = || could_not_load(&url, None);
    let window = web_sys::window().ok_or_else(failed)?;
    let response = JsFuture::from(window.fetch_with_str(&url))
        .await
        .map_err(|_| failed())?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| failed())?;
    if !response.ok() {
        return Err(could_not_load(&url, Some(response.status())));
    }
    Ok(response)
}

/// The text of `path` under the lab's folder, or why not.
pub async fn fetch_text(path: String) -> Result<String, String> {
    let response = fetch_ok(&path).await?;
    let failed = || could_not_load(&path, None);
    let text = response.text().map_err(|_| failed())?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(failed)
}

/// The bytes of `path` under the lab's folder, or why not.
pub async fn fetch_bytes(path: String) -> Result<js_sys::ArrayBuffer, String> {
    let response = fetch_ok(&path).await?;
    let failed = || could_not_load(&path, None);
    let bytes = response.array_buffer().map_err(|_| failed())?;
    JsFuture::from(bytes)
        .await
        .ok()
        .and_then(|b| b.dyn_into().ok())
        .ok_or_else(failed)
}

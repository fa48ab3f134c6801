//! Keep a run: copy its link, download it as JSON (stats and every customer) or as CSV
//! (one row per request).
//!
//! The bar is the page layer's live widget ([`ExportBar`]): what a run changes (shown or
//! not, which buttons are enabled, the message) is written in place, and one click
//! handler asks which button's slot was clicked.

use crate::run::use_playback::{PlayState, Playback};
use crate::shared::erase::handler;
use crate::shared::{bind, live};
use leptos::prelude::*;
use page::run::export::{requests_csv, run_json};
use page::run::export_bar::{
    copy_refused, file_name, ExportBar, ExportState, Keep, LINK_COPIED, NO_JSON, NO_ROWS,
    SAVE_REFUSED,
};
use wasm_bindgen::JsCast;

/// Saves `text` as a file called `name` through a temporary link.
fn download(name: &str, mime: &str, text: &str) -> Option<()> {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Some(())
}

/// The buttons, shown once a run is on screen.
#[component]
pub fn ExportButtons(
    /// The run to copy or save.
    playback: Playback,
) -> impl IntoView {
    let message = RwSignal::new(None::<String>);
    let state = playback.state();
    let bar = live::view(ExportBar, move || {
        let state = state.get();
        ExportState {
            shown: state != PlayState::Idle,
            done: state == PlayState::Done,
            // A run too large to keep a record has no rows: the button says so.
            recorded: playback
                .scenario()
                .with(|s| s.as_ref().is_none_or(|s| s.record)),
            said: message.get(),
        }
    });
    let save = move |ext: &str, mime: &str, text: String| {
        let name = playback
            .scenario()
            .with_untracked(|s| file_name(s.as_ref(), ext));
        let refused = download(&name, mime, &text).is_none();
        message.set(refused.then(|| SAVE_REFUSED.to_string()));
    };
    // Success is said only once the browser has written the clipboard: it can refuse
    // (no permission, an insecure page), and then the reader is told to copy by hand.
    let copy = move || {
        let href = window().location().href().unwrap_or_default();
        let promise = window().navigator().clipboard().write_text(&href);
        message.set(None);
        leptos::task::spawn_local(async move {
            let said = match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(_) => LINK_COPIED.to_string(),
                Err(_) => copy_refused(&href),
            };
            message.set(Some(said));
        });
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let keep = Keep::ALL
            .into_iter()
            .find(|k| bind::hit(&ev, k.slot()).is_some());
        match keep {
            Some(Keep::CopyLink) => copy(),
            Some(Keep::Json) => match playback.with_sim(run_json) {
                Some(text) => save("json", "application/json", text),
                None => message.set(Some(NO_JSON.to_string())),
            },
            Some(Keep::Csv) => {
                match playback
                    .with_sim(|s| s.record().map(requests_csv))
                    .flatten()
                {
                    Some(text) => save("csv", "text/csv", text),
                    None => message.set(Some(NO_ROWS.to_string())),
                }
            }
            None => {}
        }
    };
    view! {
        <div style="display:contents" on:click=handler(on_click)>{bar}</div>
    }
}

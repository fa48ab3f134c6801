//! Keep a run: copy its link, download it as JSON (stats and every customer) or as CSV
//! (one row per request).
//!
//! The bar is the page layer's markup, set once; one effect shows it, one per button
//! enables it as a run goes and one writes the status line, and one click handler asks
//! which button's slot was clicked.

use crate::run::use_playback::{PlayState, Playback};
use crate::shared::bind;
use crate::shared::dom::{set_attr, set_class, set_flag, set_text};
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::run::export::{requests_csv, run_json};
use page::run::export_bar::{
    copy_refused, export_markup, file_name, Keep, LINK_COPIED, NO_JSON, NO_ROWS, SAVE_REFUSED,
    STATUS,
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
    let root = NodeRef::<Div>::new();
    let message = RwSignal::new(None::<String>);
    let state = playback.state();
    // The bar, shown once a run is on screen.
    watch(move || {
        let idle = state.get() == PlayState::Idle;
        if let Some(el) = root.get() {
            set_class(&el, "rll-hidden", idle);
        }
    });
    bind::node(root, Keep::Json.slot(), move |el| {
        set_flag(el, "disabled", state.get() != PlayState::Done);
    });
    // A run too large to keep a record has no rows: the button says so.
    bind::node(root, Keep::Csv.slot(), move |el| {
        let recorded = playback
            .scenario()
            .with(|s| s.as_ref().is_none_or(|s| s.record));
        set_flag(el, "disabled", state.get() != PlayState::Done || !recorded);
        match recorded {
            true => set_flag(el, "title", false),
            false => set_attr(el, "title", NO_ROWS),
        }
    });
    bind::node(root, STATUS, move |el| {
        message.with(|m| set_text(el, m.as_deref()));
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
        <div class="rll-export rll-hidden" node_ref=root inner_html=export_markup().into_string() on:click=handler(on_click)></div>
    }
}

//! Keep a run: copy its link, download it as JSON (stats and every customer) or as CSV
//! (one row per request).

use super::use_playback::{PlayState, Playback};
use crate::page::export::{requests_csv, run_json};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Saves `text` as a file called `name` through a temporary link.
fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|_| "the browser refused to make the file")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser refused to make the file")?;
    let a = document().create_element("a").map_err(|_| "no document")?;
    let a: web_sys::HtmlAnchorElement = a.dyn_into().map_err(|_| "no link element")?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// The buttons, shown once a run is on screen.
#[component]
pub fn ExportButtons(
    /// The run to copy or save.
    playback: Playback,
) -> impl IntoView {
    let message = RwSignal::new(None::<String>);
    let done = move || playback.state.get() == PlayState::Done;
    let recorded = move || {
        playback
            .scenario
            .with(|s| s.as_ref().is_none_or(|s| s.record))
    };
    let name = move |ext: &str| {
        playback.scenario.with_untracked(|s| {
            s.as_ref().map_or(format!("run.{ext}"), |s| {
                format!("rate-limit-lab-{}-seed-{}.{ext}", s.strategy, s.seed)
            })
        })
    };
    let save_json = move |_| {
        let Some(text) = playback.with_sim(run_json) else {
            return;
        };
        message.set(download(&name("json"), "application/json", &text).err());
    };
    let save_csv = move |_| {
        let Some(text) = playback
            .with_sim(|s| s.record().map(requests_csv))
            .flatten()
        else {
            return message.set(Some(
                "This run kept no per-request record, so there are no rows to save.".into(),
            ));
        };
        message.set(download(&name("csv"), "text/csv", &text).err());
    };
    // Success is said only once the browser has written the clipboard: it can refuse
    // (no permission, an insecure page), and then the reader is told to copy by hand.
    let copy = move |_| {
        let href = window().location().href().unwrap_or_default();
        let promise = window().navigator().clipboard().write_text(&href);
        message.set(None);
        leptos::task::spawn_local(async move {
            let said = match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(_) => "Link copied: it reproduces this run exactly.".to_string(),
                Err(_) => format!(
                    "The browser would not let the page copy; copy the address instead: {href}"
                ),
            };
            message.set(Some(said));
        });
    };
    view! {
        <div class="rll-export" class:rll-hidden=move || playback.state.get() == PlayState::Idle>
            <button type="button" data-testid="copy-link" on:click=copy>"Copy link"</button>
            <button type="button" data-testid="export-json" disabled=move || !done() on:click=save_json>"Download JSON"</button>
            <button type="button" data-testid="export-csv" disabled=move || !done() || !recorded() title=move || (!recorded()).then_some("Runs this large keep no per-request record: there are no rows to save.") on:click=save_csv>"Download CSV"</button>
            <span class="rll-field-help" role="status">{move || message.get()}</span>
        </div>
    }
}

//! The header reader: paste a response's headers (or click an example), see the wait a
//! careful client obeys and the one a naive client takes.

use super::reader_result::ReaderResult;
use crate::shared::dom::{target_as, value_of};
use crate::shared::erase::handler;
use leptos::prelude::*;
use page::headers::intro::{BLOCK_LABEL, EXAMPLES_LABEL, NOW_LABEL};
use page::headers::reader::{parse_now, read_block, EXAMPLES};
use sim::headers::http_date;

/// The block, "now", the examples, and the two readings.
#[component]
pub fn HeaderReader() -> impl IntoView {
    // "Now" starts at the visitor's clock, read once here: the reader is handed the
    // number, so a header pasted live reads true times, and the field can set any other.
    let clock_s = (js_sys::Date::now() / 1000.0) as u64;
    let now_text = RwSignal::new(clock_s.to_string());
    let block = RwSignal::new((EXAMPLES[0].block)(clock_s));
    let chosen = RwSignal::new(Some(EXAMPLES[0].id));
    let now = move || parse_now(&now_text.get());
    let outcome = Memo::new(move |_| {
        let now_s = now().map_err(|e| e.to_string())?;
        read_block(&block.get(), now_s).map_err(|e| e.to_string())
    });
    let load = move |i: usize| {
        let now_s = now().unwrap_or(clock_s);
        block.set((EXAMPLES[i].block)(now_s));
        chosen.set(Some(EXAMPLES[i].id));
    };
    // An example is timed from "now" (a reset 30 minutes ahead, a date 2 minutes ahead):
    // a new "now" rewrites the chosen one, so it keeps saying what its label says.
    let set_now = move |text: String| {
        now_text.set(text);
        let chosen_at = chosen
            .get_untracked()
            .and_then(|id| EXAMPLES.iter().position(|e| e.id == id));
        if let (Some(i), Ok(_)) = (chosen_at, now()) {
            load(i);
        }
    };
    view! {
        <div class="rll-reader" data-testid="header-reader">
            <div class="rll-examples" role="group" aria-label=EXAMPLES_LABEL>
                {EXAMPLES
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        view! {
                            <button type="button" data-example=e.id aria-pressed=move || (chosen.get() == Some(e.id)).to_string() on:click=handler(move |_| load(i))>
                                <strong>{e.label}</strong>
                                <small>{e.source}</small>
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <div class="rll-controls">
                <div class="rll-field rll-grow">
                    <label class="rll-field-label" for="rll-reader-block">{BLOCK_LABEL}</label>
                    <textarea id="rll-reader-block" rows="8" spellcheck="false" autocomplete="off" data-testid="reader-block"
                        prop:value=move || block.get()
                        on:input=handler(move |ev: web_sys::Event| {
                            block.set(target_value(&ev));
                            chosen.set(None);
                        })></textarea>
                </div>
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-reader-now">{NOW_LABEL}</label>
                    <input id="rll-reader-now" class="rll-now" type="text" inputmode="numeric" spellcheck="false" autocomplete="off" data-testid="reader-now"
                        prop:value=move || now_text.get() on:input=handler(move |ev: web_sys::Event| set_now(target_value(&ev)))/>
                    <span class="rll-field-help" class:rll-error=move || now().is_err() data-testid="reader-now-date">
                        {move || match now() {
                            Ok(s) => http_date(s),
                            Err(e) => e.to_string(),
                        }}
                    </span>
                </div>
            </div>
            <ReaderResult outcome=outcome.into()/>
        </div>
    }
}

/// What the field an input event happened on holds now.
fn target_value(ev: &web_sys::Event) -> String {
    target_as::<web_sys::Element>(ev)
        .and_then(|el| value_of(&el))
        .unwrap_or_default()
}

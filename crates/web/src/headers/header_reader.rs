//! The header reader: paste a response's headers (or click an example), see the wait a
//! careful client obeys and the one a naive client takes.

use super::reader_result::ReaderResult;
use crate::shared::bind;
use crate::shared::dom::{target_as, value_of};
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::prelude::*;
use page::headers::reader::{parse_now, read_block, EXAMPLES};
use page::headers::view::{example_slot, FieldsState, ReaderFields, BLOCK, NOW};
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
    // The examples and the fields are the page layer's live widget; one handler each
    // reads which was clicked or typed in.
    let fields = live::view(ReaderFields, move || FieldsState {
        chosen: chosen.get(),
        block: block.get(),
        now: now_text.get(),
        now_date: now().map(http_date).map_err(|e| e.to_string()),
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(i) = (0..EXAMPLES.len()).find(|i| bind::hit(&ev, example_slot(*i)).is_some()) {
            load(i);
        }
    };
    let on_input = move |ev: web_sys::Event| {
        if bind::hit(&ev, BLOCK).is_some() {
            block.set(target_value(&ev));
            chosen.set(None);
        } else if bind::hit(&ev, NOW).is_some() {
            set_now(target_value(&ev));
        }
    };
    view! {
        <div class="rll-reader" data-testid="header-reader" on:click=handler(on_click) on:input=handler(on_input)>
            {fields}
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

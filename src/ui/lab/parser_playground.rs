//! Try a header: type a value, see how long a naive client and a careful one would wait.

use crate::page::lab::wait_text;
use crate::sim::headers::{naive_wait, wait_from_header, NaiveWait};
use crate::sim::lab::LAB_EPOCH_S;
use crate::sim::time::US_PER_S;
use leptos::prelude::*;

const HEADERS: [&str; 4] = [
    "Retry-After",
    "RateLimit-Reset",
    "X-RateLimit-Reset",
    "RateLimit",
];

/// A header name, a value, and the two readings.
#[component]
pub fn ParserPlayground() -> impl IntoView {
    let name = RwSignal::new(HEADERS[0].to_string());
    let value = RwSignal::new("Sun, 30 Aug 2026 10:42:59 GMT".to_string());
    let now_us = LAB_EPOCH_S * US_PER_S;
    let naive = move || match naive_wait(&value.get()) {
        NaiveWait::NotANumber => format!("{} (NaN: the timer fires at once)", wait_text(0)),
        NaiveWait::Wait { us } => wait_text(us),
    };
    let correct = move || match wait_from_header(&name.get(), &value.get(), now_us) {
        Ok(w) => (wait_text(w.wait_us), false),
        Err(why) => (why.to_string(), true),
    };
    view! {
        <div class="rll-playground" data-testid="parser">
            <div class="rll-controls">
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-header-name">"Header"</label>
                    <select id="rll-header-name" prop:value=move || name.get() on:change:target=move |ev| name.set(ev.target().value())>
                        {HEADERS.map(|h| view! { <option value=h>{h}</option> }).collect_view()}
                    </select>
                </div>
                <div class="rll-field rll-grow">
                    <label class="rll-field-label" for="rll-header-value">"Value"</label>
                    <input id="rll-header-value" type="text" spellcheck="false" autocomplete="off" data-testid="header-value"
                        prop:value=move || value.get() on:input:target=move |ev| value.set(ev.target().value())/>
                </div>
            </div>
            <dl class="rll-readings">
                <div>
                    <dt>"Naive (" <code>"Number(value) × 1000"</code> ")"</dt>
                    <dd data-testid="naive-wait">{naive}</dd>
                </div>
                <div>
                    <dt>"Careful (" {move || name.get()} " read by its rules)"</dt>
                    <dd data-testid="correct-wait" class:rll-harm-text=move || correct().1>{move || correct().0}</dd>
                </div>
            </dl>
            <p class="rll-caption">"“Now” is the lab's simulated clock: " {crate::sim::headers::http_date(LAB_EPOCH_S)} "."</p>
        </div>
    }
}

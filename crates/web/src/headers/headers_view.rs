//! The headers our token bucket publishes on a 200 and on a 429 (the page layer's
//! markup).

use leptos::prelude::*;
use page::headers::faults::responses_markup;

/// Two raw HTTP responses, side by side.
#[component]
pub fn HeadersView() -> impl IntoView {
    view! { <div class="rll-responses" data-testid="response-headers" inner_html=responses_markup().into_string()></div> }
}

//! The headers our token bucket publishes on a 200 and on a 429, with the words before
//! them (the page layer's widget `page::headers::view::BucketHeaders`, which never
//! changes).

use crate::shared::live;
use leptos::prelude::*;
use page::headers::view::BucketHeaders;

/// The words, then two raw HTTP responses, side by side.
#[component]
pub fn HeadersView() -> impl IntoView {
    live::view(BucketHeaders, || ())
}

//! What the reader made of a block, beside the naive reading of the same block (the page
//! layer's markup).

use leptos::prelude::*;
use page::headers::reader::{result_markup, BlockReading};

/// The wait, its source, each ignored header with its reason, and the naive reading with
/// what it costs; or the sentence saying why the block cannot be read.
#[component]
pub fn ReaderResult(
    /// The pasted block's pairs and reading, or why there are none.
    outcome: Signal<Result<BlockReading, String>>,
) -> impl IntoView {
    let why = move || outcome.with(|o| o.as_ref().err().cloned());
    let result = move || {
        outcome.with(|o| {
            o.as_ref().map_or(String::new(), |(pairs, r)| {
                result_markup(pairs, r).into_string()
            })
        })
    };
    view! {
        {move || why().map(|w| view! { <p class="rll-harm-text" role="alert" data-testid="reader-error">{w}</p> })}
        <div inner_html=result></div>
    }
}

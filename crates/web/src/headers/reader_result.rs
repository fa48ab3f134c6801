//! What the reader made of a block, beside the naive reading of the same block (the page
//! layer's live widget `page::headers::view::ReaderOutcome`).

use crate::shared::live;
use leptos::prelude::*;
use page::headers::reader::BlockReading;
use page::headers::view::ReaderOutcome;

/// The wait, its source, each ignored header with its reason, and the naive reading with
/// what it costs; or the sentence saying why the block cannot be read.
#[component]
pub fn ReaderResult(
    /// The pasted block's pairs and reading, or why there are none.
    outcome: Signal<Result<BlockReading, String>>,
) -> impl IntoView {
    live::view(ReaderOutcome, move || outcome.get())
}

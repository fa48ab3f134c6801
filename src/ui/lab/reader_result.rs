//! What the reader made of a block, beside the naive reading of the same block.

use crate::page::header_reader::{
    capped_text, exact_wait_text, naive_comparison, reading_view, BlockReading,
};
use crate::page::lab::wait_text;
use leptos::prelude::*;

/// The wait, its source, each ignored header with its reason, and the naive reading with
/// what it costs; or the sentence saying why the block cannot be read.
#[component]
pub fn ReaderResult(
    /// The pasted block's pairs and reading, or why there are none.
    outcome: Signal<Result<BlockReading, String>>,
) -> impl IntoView {
    move || match outcome.get() {
        Err(why) => {
            view! { <p class="rll-harm-text" role="alert" data-testid="reader-error">{why}</p> }
                .into_any()
        }
        Ok((pairs, reading)) => {
            let json = reading_view(&reading);
            let wait_s = json.wait_s.clone().unwrap_or_else(|| "none".to_string());
            let naive = naive_comparison(&pairs, &reading);
            let wait = match (reading.wait_us, &reading.from) {
                (Some(us), Some(_)) => exact_wait_text(us),
                _ => "no wait".to_string(),
            };
            let naive_what = match &naive.header {
                Some(h) => format!("{h}: {}", naive.value),
                None => "no header it knows".to_string(),
            };
            view! {
                <dl class="rll-readings" data-testid="reader-result" data-wait-s=wait_s data-from=json.from.clone().unwrap_or_default()
                    data-capped=json.capped.to_string()>
                    <div>
                        <dt>"Careful: the reader"</dt>
                        <dd data-testid="reader-wait">{wait}</dd>
                        <dd class="rll-reading-note" data-testid="reader-from">
                            {json.from.clone().map_or("No header asks for a wait.".to_string(), |f| format!("From {f}."))}
                            {json.capped.then_some(capped_text())}
                        </dd>
                    </div>
                    <div>
                        <dt>"Naive: " <code>"Number(value) × 1000"</code> " ms"</dt>
                        <dd data-testid="reader-naive">{wait_text(naive.slept_us)}</dd>
                        <dd class="rll-reading-note" data-testid="reader-naive-read">{naive_what}</dd>
                        <dd class="rll-reading-note rll-harm-text" data-testid="reader-naive-consequence">{naive.consequence}</dd>
                    </div>
                </dl>
                <h3 class="rll-reader-ignored-title">{format!("Ignored ({})", json.ignored.len())}</h3>
                <ul class="rll-reader-ignored" data-testid="reader-ignored">
                    {json
                        .ignored
                        .into_iter()
                        .map(|i| view! { <li data-header=i.header>{i.why}</li> })
                        .collect_view()}
                </ul>
            }
                .into_any()
        }
    }
}

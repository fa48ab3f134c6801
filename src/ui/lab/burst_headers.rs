//! What the token bucket told each caller of the burst, request by request: the
//! `RateLimit` header on every answer and `Retry-After` on every refusal.

use crate::page::lab::burst::header_rows;
use crate::sim::lab::burst::BurstResult;
use leptos::prelude::*;

/// The bucket lane's answers, in arrival order.
#[component]
pub fn BurstHeaders(
    /// The experiment's result, as the knobs move it.
    result: Signal<Option<BurstResult>>,
) -> impl IntoView {
    view! {
        <div class="rll-answers">
            <p class="rll-field-label">"What the token bucket answered"</p>
            <ol class="rll-answer-list" data-testid="burst-headers">
                {move || {
                    result
                        .get()
                        .map(|r| {
                            header_rows(&r)
                                .into_iter()
                                .map(|row| {
                                    view! {
                                        <li class:rll-refused-row=!row.allowed data-status=row.status>
                                            <span class="rll-num">{row.at}</span>" "
                                            <strong>{row.status}</strong>" "
                                            <code data-header="RateLimit">{row.rate_limit}</code>
                                            {row.retry_after.map(|v| view! { " " <code data-header="Retry-After">{v}</code> })}
                                        </li>
                                    }
                                })
                                .collect_view()
                        })
                }}
            </ol>
        </div>
    }
}

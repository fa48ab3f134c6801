//! The headers our token bucket publishes on a 200 and on a 429.

use crate::sim::lab::sample_responses;
use leptos::prelude::*;

/// Two raw HTTP responses, side by side.
#[component]
pub fn HeadersView() -> impl IntoView {
    view! {
        <div class="rll-responses" data-testid="response-headers">
            {sample_responses()
                .into_iter()
                .map(|r| {
                    let reason = if r.status == 200 { "OK" } else { "Too Many Requests" };
                    view! {
                        <pre class="rll-source" data-status=r.status>
                            <code>
                                <span class="rll-line"><strong>{format!("HTTP/1.1 {} {reason}", r.status)}</strong></span>
                                {r
                                    .headers
                                    .into_iter()
                                    .map(|(k, v)| {
                                        let retry = k == "Retry-After";
                                        view! {
                                            <span class="rll-line" class:rll-changed=retry data-header=k>{format!("{k}: {v}")}</span>
                                        }
                                    })
                                    .collect_view()}
                            </code>
                        </pre>
                    }
                })
                .collect_view()}
        </div>
    }
}

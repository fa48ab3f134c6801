//! Messages about the URL: what could not be used and what was used instead.

use leptos::prelude::*;

/// A list of problems, shown as text (never as markup), or nothing.
#[component]
pub fn Notices(
    /// One sentence per value of the link that could not be used.
    messages: Vec<String>,
) -> impl IntoView {
    (!messages.is_empty()).then(|| {
        view! {
            <div class="rll-notice" role="alert" data-testid="query-problems">
                <strong>"Some of the link could not be used."</strong>
                <ul>{messages.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
            </div>
        }
    })
}

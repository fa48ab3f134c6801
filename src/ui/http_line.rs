//! The footer's second line on the pages with a real-time counterpart (a run, the
//! compare view): the two commands that run the same thing for real, over HTTP. Only
//! those pages link it, so the others do not carry its code.

use crate::page::links::http_cli_line;
use crate::page::PageQuery;
use leptos::prelude::*;

/// The server's command and the client's, for what the page shows.
#[component]
pub fn HttpLine(
    /// What the page shows.
    shown: Signal<PageQuery>,
) -> impl IntoView {
    let http = move || shown.with(http_cli_line);
    view! {
        <p hidden=move || http().is_none()>"…for real, over HTTP: "
            <code data-testid="http-serve-command">{move || http().map(|l| l.serve)}</code>
            " then, in a second terminal, "
            <code data-testid="http-cli-command">{move || http().map(|l| l.client)}</code></p>
    }
}

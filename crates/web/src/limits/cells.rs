//! Every number an experiment produced, one `data-result` element each, so the page and
//! `ratelab limits <name> --json` can be compared cell by cell.

use leptos::prelude::*;
use page::limits::view::cells_summary_markup;

/// The experiment's cells as a compact definition list, kept open or closed as the
/// knobs move them.
#[component]
pub fn Cells(
    /// The cells' markup (`page::limits::view::cells_html`; none when the experiment
    /// could not run).
    markup: Signal<String>,
) -> impl IntoView {
    view! {
        <details class="rll-details">
            <summary inner_html=cells_summary_markup().into_string()></summary>
            <dl class="rll-cells" inner_html=move || markup.get()></dl>
        </details>
    }
}

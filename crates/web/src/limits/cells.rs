//! Every number an experiment produced, one `data-result` element each, so the page and
//! `ratelab limits <name> --json` can be compared cell by cell.

use leptos::prelude::*;
use page::limits::view::{cells_html, cells_summary_markup};

/// The experiment's cells as a compact definition list, kept open or closed as the
/// knobs move them.
#[component]
pub fn Cells(
    /// Each `data-result` key and its value.
    cells: Signal<Vec<(String, String)>>,
) -> impl IntoView {
    view! {
        <details class="rll-details">
            <summary inner_html=cells_summary_markup().into_string()></summary>
            <dl class="rll-cells" inner_html=move || cells.with(|c| cells_html(c).into_string())></dl>
        </details>
    }
}

//! Every number an experiment produced, one `data-result` element each, so the page and
//! `ratelab limits <name> --json` can be compared cell by cell.

use leptos::prelude::*;
use page::limits::lab::cells;
use page::limits::view::{cells_html, cells_summary_markup};
use sim::lab::LabResult;

/// The experiment's cells as a compact definition list, kept open or closed as the
/// knobs move them.
#[component]
pub fn Cells(
    /// The experiment's result (no cells when it could not run), read straight from
    /// the experiment's memo: no derived signal of its own.
    result: Memo<Result<LabResult, String>>,
) -> impl IntoView {
    view! {
        <details class="rll-details">
            <summary inner_html=cells_summary_markup().into_string()></summary>
            <dl class="rll-cells" inner_html=move || result.with(|r| cells_html(&r.as_ref().map(cells).unwrap_or_default()).into_string())></dl>
        </details>
    }
}

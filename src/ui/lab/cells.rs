//! Every number an experiment produced, one `data-result` element each, so the page and
//! `ratelab limits <name> --json` can be compared cell by cell.

use leptos::prelude::*;

/// The experiment's cells as a compact definition list, kept open or closed as the
/// knobs move them.
#[component]
pub fn Cells(
    /// Each `data-result` key and its value.
    cells: Signal<Vec<(String, String)>>,
) -> impl IntoView {
    view! {
        <details class="rll-details">
            <summary>"Every number (the same as " <code>"ratelab limits … --json"</code> ")"</summary>
            <dl class="rll-cells">
                {move || {
                    cells
                        .get()
                        .into_iter()
                        .map(|(key, value)| {
                            let short = key.split_once('.').map_or(key.clone(), |(_, f)| f.to_string());
                            view! {
                                <div>
                                    <dt>{short}</dt>
                                    <dd class="rll-num" data-result=key>{value}</dd>
                                </div>
                            }
                        })
                        .collect_view()
                }}
            </dl>
        </details>
    }
}

//! The compare page's numbers: every stat for each strategy in a table whose column
//! headings link to each run, and, below 600 px, the same numbers as one card per
//! strategy (the page layer's markup: `page::compare::explore::compare_markup`).

use leptos::prelude::*;
use page::compare::explore::compare_markup;
use sim::{Scenario, Stats, StrategyName};

/// The table and the cards for the runs of `scenario`.
#[component]
pub fn CompareTable(
    /// The seed and numbers the runs used, for the links to each run.
    scenario: Scenario,
    /// Each strategy's stats, in the article's order.
    runs: Vec<(StrategyName, Stats)>,
) -> impl IntoView {
    view! { <div class="rll-compare-result" inner_html=compare_markup(&scenario, &runs).into_string()></div> }
}

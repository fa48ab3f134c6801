//! One strategy's results in a sweep: a sentence, then each stat's minimum, median and
//! maximum with a histogram of the core's distribution (the page layer's markup).

use crate::page::histogram::sweep_result_markup;
use crate::sim::sweep::Distribution;
use crate::sim::{StatField, StrategyName};
use leptos::prelude::*;

/// One strategy's results.
#[derive(Clone, PartialEq)]
pub struct Row {
    /// The strategy swept.
    pub strategy: StrategyName,
    /// Each stat summarised, with its distribution over the seeds.
    pub fields: Vec<(StatField, Distribution)>,
}

/// One strategy's distributions.
#[component]
pub fn SweepResult(
    /// One strategy's distributions.
    row: Row,
) -> impl IntoView {
    view! { <div inner_html=sweep_result_markup(row.strategy, &row.fields)></div> }
}

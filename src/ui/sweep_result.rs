//! One strategy's results in a sweep: a sentence, then each stat's minimum, median and
//! maximum with a histogram of the core's distribution, in the page layer's formats.

use super::strategy_picker::label;
use crate::page::format::{count, duration_ms};
use crate::page::histogram::{Histogram, HEIGHT, WIDTH};
use crate::page::stats::stat_text;
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

// The `viewBox` below ("0 0 1000 100") is the page layer's plot.
const _: () = assert!(WIDTH == 1000 && HEIGHT == 100);

/// A distribution on its axes: bars over the values from the smallest (left) to the
/// largest (right), beside a count axis topped by the tallest bar's runs; or, when every
/// run gave one value, that value in words. The value axis's labels are the element's
/// data, drawn by the style sheet; one view for both cases keeps the module lean.
fn histogram(label: &str, h: &Histogram) -> impl IntoView {
    let sentence = h.sentence();
    // The text is the constant in words, or the top of the count axis.
    let (kind, path, text, lo, hi) = match h {
        Histogram::Bars {
            path,
            min,
            max,
            peak,
            ..
        } => (
            "bars",
            path.clone(),
            peak.to_string(),
            min.to_string(),
            max.to_string(),
        ),
        Histogram::Constant { .. } => (
            "constant",
            String::new(),
            sentence.clone(),
            String::new(),
            String::new(),
        ),
    };
    view! {
        <div class="rll-hist" data-hist=kind data-min=lo data-max=hi>
            {text}
            <svg viewBox="0 0 1000 100" preserveAspectRatio="none" role="img">
                <title>{format!("{label}: {sentence}")}</title>
                <path class="rll-hist-bars" d=path/>
                <path class="rll-hist-axis" d="M0 0V100H1000" vector-effect="non-scaling-stroke"/>
            </svg>
        </div>
    }
}

/// One strategy's distributions.
#[component]
pub fn SweepResult(
    /// One strategy's distributions.
    row: Row,
) -> impl IntoView {
    let s = row.strategy.as_str();
    let find = |f: StatField| {
        row.fields
            .iter()
            .find(|(n, _)| *n == f)
            .map(|(_, d)| d.clone())
    };
    let sentence = match (
        find(StatField::Duplicates),
        find(StatField::Requests),
        find(StatField::ElapsedMs),
    ) {
        (Some(d), Some(r), Some(e)) => format!(
            "{}: {}–{} extra charges (median {}), {}–{} requests (median {}), finished in {} at the median.",
            label(row.strategy),
            count(d.min),
            count(d.max),
            count(d.median),
            count(r.min),
            count(r.max),
            count(r.median),
            duration_ms(e.median)
        ),
        _ => String::new(),
    };
    view! {
        <div class="rll-sweep-result" data-strategy=s>
            <h3>{label(row.strategy)}</h3>
            <p data-result=format!("sweep.{s}.sentence")>{sentence}</p>
            <div class="rll-table-scroll">
                <table>
                    <thead>
                        <tr><th scope="col">"stat"</th><th scope="col">"min"</th><th scope="col">"median"</th><th scope="col">"max"</th><th scope="col">"distribution"</th></tr>
                    </thead>
                    <tbody>
                        {row
                            .fields
                            .iter()
                            .map(|(f, d)| {
                                let text = stat_text(*f);
                                let f = f.as_str();
                                view! {
                                    <tr>
                                        <th scope="row" class="rll-term" tabindex="0" data-hint=text.hint>{text.label}</th>
                                        <td class="rll-num" data-result=format!("sweep.{s}.{f}.min")>{d.min}</td>
                                        <td class="rll-num" data-result=format!("sweep.{s}.{f}.median")>{d.median}</td>
                                        <td class="rll-num" data-result=format!("sweep.{s}.{f}.max")>{d.max}</td>
                                        <td>{histogram(text.label, &Histogram::of(d))}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        </div>
    }
}

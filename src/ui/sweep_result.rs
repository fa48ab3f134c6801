//! One strategy's results in a sweep: a sentence, then each stat's minimum, median and
//! maximum with a histogram of the core's distribution, in the page layer's formats.

use super::strategy_picker::label;
use crate::page::format::{count, dec, duration_ms};
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
                                let f = f.as_str();
                                let peak = d.histogram.iter().map(|b| b.count).max().unwrap_or(1).max(1);
                                let bars = d.histogram.len().max(1) as f64;
                                view! {
                                    <tr>
                                        <th scope="row">{f}</th>
                                        <td class="rll-num" data-result=format!("sweep.{s}.{f}.min")>{d.min}</td>
                                        <td class="rll-num" data-result=format!("sweep.{s}.{f}.median")>{d.median}</td>
                                        <td class="rll-num" data-result=format!("sweep.{s}.{f}.max")>{d.max}</td>
                                        <td>
                                            <svg class="rll-hist" viewBox="0 0 100 24" preserveAspectRatio="none" role="img"
                                                aria-label=format!("{f}: histogram from {} to {}", d.min, d.max)>
                                                {d.histogram
                                                    .iter()
                                                    .enumerate()
                                                    .map(|(i, b)| {
                                                        let h = 24.0 * b.count as f64 / peak as f64;
                                                        view! {
                                                            <rect x=dec(i as f64 * 100.0 / bars, 2) y=dec(24.0 - h, 2)
                                                                width=dec(100.0 / bars - 1.0, 2) height=dec(h, 2)>
                                                                <title>{format!("{}–{}: {} runs", b.lo, b.hi, b.count)}</title>
                                                            </rect>
                                                        }
                                                    })
                                                    .collect_view()}
                                            </svg>
                                        </td>
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

//! The compare page's numbers: every stat for the six strategies in a table whose column
//! headings link to each run, and, below 600 px, the same numbers as one card per
//! strategy. Each row's label carries its one-line meaning.

use super::strategy_picker::label;
use crate::page::explore::PER_CHARGE;
use crate::page::format::requests_per_charge;
use crate::page::links::run_href;
use crate::page::stats::{stat_text, StatText};
use crate::sim::{Scenario, StatField, Stats, StrategyName};
use leptos::prelude::*;

/// Rows whose differences are the point of the comparison (`None`: requests per
/// charge, which is derived).
const KEY_ROWS: [Option<StatField>; 4] = [
    Some(StatField::Duplicates),
    Some(StatField::RateLimited),
    None,
    Some(StatField::ElapsedMs),
];

/// A row's words.
fn words(field: Option<StatField>) -> StatText {
    field.map_or(PER_CHARGE, stat_text)
}

/// A row's name in `data-result` keys: the JSON name of `ratelab charges --all --json`.
fn key(field: Option<StatField>) -> &'static str {
    field.map_or("requestsPerCharge", StatField::as_str)
}

/// A cell's text, and whether it shows harm.
fn cell(field: Option<StatField>, stats: &Stats) -> (String, bool) {
    match field {
        None => (requests_per_charge(stats), false),
        Some(f) => (stats.get(f).to_string(), stats.harmed(f)),
    }
}

/// The table and the cards for six runs of `scenario`.
#[component]
pub fn CompareTable(
    /// The seed and numbers the runs used, for the links to each run.
    scenario: Scenario,
    /// Each strategy's stats, in the article's order.
    runs: Vec<(StrategyName, Stats)>,
) -> impl IntoView {
    let rows: Vec<Option<StatField>> = StatField::ALL.map(Some).into_iter().chain([None]).collect();
    let link = |s: StrategyName| {
        view! {
            <a href=run_href(s, &scenario) data-run-link=s.as_str() title=format!("Play {} with these numbers", label(s))>
                {label(s)}
            </a>
        }
    };
    let head = runs
        .iter()
        .map(|(s, _)| view! { <th scope="col">{link(*s)}</th> })
        .collect_view();
    let body = rows
        .iter()
        .map(|&field| {
            let name = key(field);
            let cells = runs
                .iter()
                .map(|(s, st)| {
                    let (value, harm) = cell(field, st);
                    view! {
                        <td class="rll-num" class:rll-harm-cell=harm>
                            <span data-result=format!("compare.{}.{name}", s.as_str())>{value}</span>
                            {harm.then_some(" ⚠")}
                        </td>
                    }
                })
                .collect_view();
            view! {
                <tr class:rll-key-row=KEY_ROWS.contains(&field) data-row=name>
                    <th scope="row" class="rll-term" tabindex="0" data-hint=words(field).hint>{words(field).label}</th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    let cards = runs
        .iter()
        .map(|(s, st)| {
            let lines = rows
                .iter()
                .map(|&field| {
                    let (value, harm) = cell(field, st);
                    let w = words(field);
                    view! {
                        <div class="rll-card-line" class:rll-key-row=KEY_ROWS.contains(&field) class:rll-harm-cell=harm>
                            <dt>{w.label}<span class="rll-card-hint">{w.hint}</span></dt>
                            <dd class="rll-num" data-card=format!("compare.{}.{}", s.as_str(), key(field))>{value}{harm.then_some(" ⚠")}</dd>
                        </div>
                    }
                })
                .collect_view();
            view! {
                <section class="rll-compare-card" data-strategy=s.as_str()>
                    <h3>{link(*s)}</h3>
                    <dl>{lines}</dl>
                </section>
            }
        })
        .collect_view();
    view! {
        <div class="rll-table-scroll rll-compare-wide">
            <table class="rll-compare-table">
                <thead>
                    <tr><th scope="col">"stat"</th>{head}</tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
        <div class="rll-compare-cards" data-testid="compare-cards">{cards}</div>
    }
}

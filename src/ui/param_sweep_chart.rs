//! A parameter sweep's chart: the page layer writes it once, when the sweep ends
//! ([`chart_markup`]); here it is put on the page, and a click on a point (or Enter on
//! one that has focus) opens that point's run.

use super::erase::handler;
use super::strategy_picker::label;
use crate::page::param_sweep_chart::chart_markup;
use crate::sim::param_sweep::{ParamSweepSpec, Point};
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// One strategy's points.
pub type Line = (StrategyName, Vec<Point>);

/// Opens the run of the point the event happened on, if it happened on one.
fn open_point(target: Option<web_sys::EventTarget>) {
    let href = target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("[data-href]").ok().flatten())
        .and_then(|e| e.get_attribute("data-href"));
    if let Some(href) = href {
        let _ = window().location().set_href(&href);
    }
}

/// The chart and its table.
#[component]
pub fn ParamSweepChart(
    /// What was swept.
    spec: ParamSweepSpec,
    /// Each strategy's points.
    lines: Vec<Line>,
    /// The numbers the sweep ran with, for the points' links.
    base: Scenario,
) -> impl IntoView {
    let markup = chart_markup(&spec, &lines, &base, label);
    view! {
        <div class="rll-psweep-chart" inner_html=markup
            on:click=handler(move |ev: web_sys::MouseEvent| open_point(ev.target()))
            on:keydown=handler(move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" { open_point(ev.target()) })>
        </div>
    }
}

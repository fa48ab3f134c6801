//! A parameter sweep's chart: the page layer writes it once, when the sweep ends
//! ([`page::sweep::param_sweep_chart::chart_markup`]); the parameter sweep's view puts
//! it on the page, and a click on a point (or Enter on one that has focus) opens that
//! point's run ([`open_point`]).

use leptos::prelude::*;
use sim::param_sweep::Point;
use sim::StrategyName;
use wasm_bindgen::JsCast;

/// One strategy's points.
pub type Line = (StrategyName, Vec<Point>);

/// Opens the run of the point the event happened on, if it happened on one.
pub fn open_point(target: Option<web_sys::EventTarget>) {
    let href = target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("[data-href]").ok().flatten())
        .and_then(|e| e.get_attribute("data-href"));
    if let Some(href) = href {
        let _ = window().location().set_href(&href);
    }
}

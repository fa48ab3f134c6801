//! A parameter sweep's chart: the page layer writes it once, when the sweep ends
//! ([`page::sweep::param_sweep_chart::chart_markup`]); the parameter sweep's view puts
//! it on the page, and a click on a point (or Enter on one that has focus) opens that
//! point's run ([`open_point`]).

use crate::shared::bind;
use leptos::prelude::*;
use page::sweep::param_sweep_chart::{POINT, POINT_HREF};
use sim::param_sweep::Point;
use sim::StrategyName;

/// One strategy's points.
pub type Line = (StrategyName, Vec<Point>);

/// Opens the run of the point the event happened on, if it happened on one; says
/// whether it did.
pub fn open_point(ev: &web_sys::Event) -> bool {
    let Some(href) = bind::hit(ev, POINT).and_then(|p| p.get_attribute(POINT_HREF)) else {
        return false;
    };
    let _ = window().location().set_href(&href);
    true
}

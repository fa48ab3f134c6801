//! What each limiter costs to remember, as bars on a log axis: the sliding log and the
//! token bucket are thousands of times apart, and the axis keeps both readable.

use crate::page::format::r;
use crate::page::lab::memory::{decade_label, decades, megabytes};
use crate::sim::lab::memory::MemoryResult;
use leptos::prelude::*;

const LEFT: f64 = 70.0;
const RIGHT: f64 = 16.0;
const BAR_H: f64 = 22.0;
const ROW_H: f64 = 34.0;
/// Decade labels closer than this are skipped.
const LABEL_W: f64 = 50.0;

/// Three bars, total bytes per limiter, on a log axis.
#[component]
pub fn MemoryChart(
    /// The experiment's result.
    result: MemoryResult,
    /// The width to draw at, in CSS pixels (nothing is drawn before it is known).
    width: Signal<Option<f64>>,
) -> impl IntoView {
    let peak = result.rows.iter().map(|m| m.total_bytes).max().unwrap_or(1);
    let exps = decades(peak);
    move || {
        let w = width.get()?;
        let plot_w = (w - LEFT - RIGHT).max(60.0);
        let x = move |bytes: u64| LEFT + (bytes.max(1) as f64).log10() / f64::from(exps) * plot_w;
        let height = 6.0 + ROW_H * result.rows.len() as f64 + 22.0;
        let axis_y = 6.0 + ROW_H * result.rows.len() as f64;
        let step = (1..=exps)
            .find(|s| plot_w / f64::from(exps) * f64::from(*s) >= LABEL_W)
            .unwrap_or(exps);
        Some(view! {
            <div class="rll-chart-box">
                <svg class="rll-chart-px" width=r(w) height=r(height) viewBox=format!("0 0 {} {}", r(w), r(height)) role="img"
                    data-testid="memory-chart" aria-label="Total bytes per limiter, on a log axis">
                    {(0..=exps)
                        .map(|e| {
                            let at = x(10u64.pow(e));
                            let label = (e % step == 0).then(|| view! {
                                <text class="rll-axis-label" x=r(at) y=r(axis_y + 16.0) text-anchor="middle">{decade_label(e)}</text>
                            });
                            view! { <line class="rll-grid" x1=r(at) x2=r(at) y1="2" y2=r(axis_y)></line>{label} }
                        })
                        .collect_view()}
                    {result
                        .rows
                        .iter()
                        .enumerate()
                        .map(|(i, m)| {
                            let y = 6.0 + i as f64 * ROW_H;
                            let end = x(m.total_bytes);
                            view! {
                                <text class="rll-axis-label" x="0" y=r(y + BAR_H / 2.0 + 4.0)>{m.limiter.as_str()}</text>
                                <rect class="rll-bar-memory" x=r(LEFT) y=r(y) width=r(end - LEFT) height=r(BAR_H)>
                                    <title>{format!("{}: {}", m.limiter.as_str(), megabytes(m.total_bytes))}</title>
                                </rect>
                            }
                        })
                        .collect_view()}
                </svg>
            </div>
        })
    }
}

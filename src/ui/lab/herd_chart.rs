//! The thundering herd's first wave: when each client first came back, without jitter
//! and with the chosen jitter, on one scale so the spike and the spread can be compared.

use crate::page::format::r;
use crate::page::ticks::time_ticks;
use crate::sim::lab::herd::HerdResult;
use leptos::prelude::*;

const LEFT: f64 = 96.0;
const RIGHT: f64 = 12.0;
const ROW_H: f64 = 64.0;
const GAP: f64 = 22.0;
/// Tick labels closer than this are skipped.
const LABEL_W: f64 = 52.0;

/// Two histograms of first returns per bin.
#[component]
pub fn HerdChart(
    /// The experiment's result.
    result: HerdResult,
    /// The width to draw at, in CSS pixels (nothing is drawn before it is known).
    width: Signal<Option<f64>>,
) -> impl IntoView {
    let peak = result
        .bins
        .iter()
        .map(|b| b.none.max(b.chosen))
        .max()
        .unwrap_or(1)
        .max(1);
    let n = result.bins.len().max(1);
    let end_us = n as u64 * result.bin_us;
    let svg = move || {
        let w = width.get()?;
        let plot_w = (w - LEFT - RIGHT).max(60.0);
        let bar_w = plot_w / n as f64;
        let x = move |t: u64| LEFT + t as f64 / end_us as f64 * plot_w;
        let height = 8.0 + 2.0 * (ROW_H + GAP) + 14.0;
        let rows = [("no jitter", false), (result.jitter.as_str(), true)];
        let mut last_label = f64::NEG_INFINITY;
        let ticks: Vec<(f64, String)> = time_ticks(end_us)
            .into_iter()
            .filter_map(|(t, label)| {
                let at = x(t);
                (at - last_label >= LABEL_W && at + LABEL_W / 2.0 <= w).then(|| {
                    last_label = at;
                    (at, label)
                })
            })
            .collect();
        Some(view! {
            <svg class="rll-chart-px" width=r(w) height=r(height) viewBox=format!("0 0 {} {}", r(w), r(height)) role="img"
                data-testid="herd-chart"
                aria-label=format!("First returns per {} ms bin: without jitter and with {} jitter.", result.bin_us / 1_000, result.jitter)>
                {rows
                    .into_iter()
                    .enumerate()
                    .map(|(row, (name, chosen))| {
                        let top = 8.0 + row as f64 * (ROW_H + GAP);
                        view! {
                            <g>
                                <text class="rll-axis-label" x="0" y=r(top + ROW_H / 2.0)>{name.to_string()}</text>
                                <line class="rll-lane" x1=r(LEFT) x2=r(LEFT + plot_w) y1=r(top + ROW_H) y2=r(top + ROW_H)></line>
                                {result
                                    .bins
                                    .iter()
                                    .enumerate()
                                    .filter_map(|(i, b)| {
                                        let v = if chosen { b.chosen } else { b.none };
                                        (v > 0).then(|| {
                                            let bh = ROW_H * f64::from(v) / f64::from(peak);
                                            view! {
                                                <rect class=if chosen { "rll-bar-jitter" } else { "rll-bar-spike" }
                                                    x=r(LEFT + i as f64 * bar_w) y=r(top + ROW_H - bh) width=r((bar_w - 1.0).max(1.0)) height=r(bh)>
                                                    <title>{format!("{} ms: {v} first returns", b.start_ms)}</title>
                                                </rect>
                                            }
                                        })
                                    })
                                    .collect_view()}
                            </g>
                        }
                    })
                    .collect_view()}
                {ticks
                    .into_iter()
                    .map(|(at, label)| view! { <text class="rll-axis-label" x=r(at) y=r(height - 2.0) text-anchor="middle">{label}</text> })
                    .collect_view()}
            </svg>
        })
    };
    view! { <div class="rll-chart-box">{svg}</div> }
}

//! The thundering herd: when 100 clients wake, without jitter and with full jitter, on
//! one scale so the spike and the spread can be compared.

use crate::page::format::r;
use crate::sim::lab::herd::HerdResult;
use leptos::prelude::*;

/// Two histograms of wake-ups per bin.
#[component]
pub fn HerdChart(
    /// The experiment's result.
    result: HerdResult,
) -> impl IntoView {
    let peak = result
        .bins
        .iter()
        .map(|b| b.no_jitter.max(b.full_jitter))
        .max()
        .unwrap_or(1)
        .max(1);
    let n = result.bins.len().max(1) as f64;
    let (left, width, h) = (90.0, 500.0, 70.0);
    let bar_w = width / n;
    let rows = [("no jitter", false), ("full jitter", true)];
    view! {
        <svg class="rll-chart" viewBox=format!("0 0 {} {}", r(left + width + 10.0), r(2.0 * (h + 24.0) + 16.0)) role="img"
            aria-label=format!("Wake-ups per {} ms bin: without jitter all in one bin, with full jitter spread out.", result.bin_us / 1_000)>
            {rows
                .into_iter()
                .enumerate()
                .map(|(row, (name, jitter))| {
                    let top = 8.0 + row as f64 * (h + 24.0);
                    view! {
                        <g>
                            <text class="rll-axis-label" x="0" y=r(top + h / 2.0)>{name}</text>
                            <line class="rll-lane" x1=r(left) x2=r(left + width) y1=r(top + h) y2=r(top + h)></line>
                            {result
                                .bins
                                .iter()
                                .enumerate()
                                .filter(|(_, b)| if jitter { b.full_jitter > 0 } else { b.no_jitter > 0 })
                                .map(|(i, b)| {
                                    let v = if jitter { b.full_jitter } else { b.no_jitter };
                                    let bh = h * f64::from(v) / f64::from(peak);
                                    view! {
                                        <rect class=if jitter { "rll-bar-jitter" } else { "rll-bar-spike" }
                                            x=r(left + i as f64 * bar_w) y=r(top + h - bh) width=r((bar_w - 1.0).max(1.0)) height=r(bh)>
                                            <title>{format!("{} ms: {v} wake-ups", b.start_ms)}</title>
                                        </rect>
                                    }
                                })
                                .collect_view()}
                        </g>
                    }
                })
                .collect_view()}
            {result.bins.first().map(|b| view! { <text class="rll-axis-label" x=r(left) y=r(2.0 * (h + 24.0) + 12.0)>{format!("{} ms", b.start_ms)}</text> })}
            {result.bins.last().map(|b| view! { <text class="rll-axis-label" x=r(left + width - 50.0) y=r(2.0 * (h + 24.0) + 12.0)>{format!("{} ms", b.start_ms)}</text> })}
        </svg>
    }
}

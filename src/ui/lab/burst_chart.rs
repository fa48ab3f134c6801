//! The boundary burst on a time axis: one lane per limiter, each request a mark,
//! accepted or refused, with the window boundary between the two volleys.

use crate::page::format::r;
use crate::sim::lab::burst::BurstResult;
use leptos::prelude::*;

/// The three lanes.
#[component]
pub fn BurstChart(
    /// The experiment's result.
    result: BurstResult,
) -> impl IntoView {
    let from_us = result.first_volley_us.saturating_sub(40_000);
    let to_us = result.first_volley_us + result.span_us + 120_000;
    let (left, width) = (90.0, 500.0);
    let x =
        move |t: u64| left + (t.saturating_sub(from_us)) as f64 / (to_us - from_us) as f64 * width;
    let lane_h = 34.0;
    let per_volley = result.lanes.first().map_or(1, |l| l.marks.len() / 2);
    let height = lane_h * result.lanes.len() as f64 + 30.0;
    let boundary = x(result.boundary_us);
    view! {
        <svg class="rll-chart" viewBox=format!("0 0 {} {}", r(left + width + 10.0), r(height)) role="img"
            aria-label="Requests on a time axis for each limiter: filled circles were accepted, crosses refused.">
            <line class="rll-boundary" x1=r(boundary) x2=r(boundary) y1="0" y2=r(height - 18.0)></line>
            <text class="rll-axis-label" x=r(boundary + 4.0) y=r(height - 20.0)>"window boundary"</text>
            {result
                .lanes
                .iter()
                .enumerate()
                .map(|(i, lane)| {
                    let y = 18.0 + i as f64 * lane_h;
                    view! {
                        <g>
                            <text class="rll-axis-label" x="0" y=r(y + 4.0)>{format!("{}: {}", lane.limiter.as_str(), lane.accepted)}</text>
                            <line class="rll-lane" x1=r(left) x2=r(left + width) y1=r(y) y2=r(y)></line>
                            {lane
                                .marks
                                .iter()
                                .enumerate()
                                .map(|(k, m)| {
                                    // A volley lands within a few ms: lay its requests side
                                    // by side from where it starts, so each one can be seen.
                                    let volley = if m.at_us < result.boundary_us { result.first_volley_us } else { result.second_volley_us };
                                    let index = (k % per_volley.max(1)) as f64;
                                    let cx = x(volley) + index * 9.0;
                                    if m.allowed {
                                        view! { <circle class="rll-accepted" cx=r(cx) cy=r(y) r="4"></circle> }.into_any()
                                    } else {
                                        view! {
                                            <path class="rll-refused" d=format!("M{} {}l8 8m0 -8l-8 8", r(cx - 4.0), r(y - 4.0))></path>
                                        }
                                            .into_any()
                                    }
                                })
                                .collect_view()}
                        </g>
                    }
                })
                .collect_view()}
            <text class="rll-axis-label" x=r(left) y=r(height - 4.0)>
                {format!("{} ms", result.first_volley_us.saturating_sub(40_000) / 1_000)}
            </text>
            <text class="rll-axis-label" x=r(left + width - 50.0) y=r(height - 4.0)>{format!("{} ms", to_us / 1_000)}</text>
        </svg>
    }
}

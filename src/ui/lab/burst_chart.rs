//! The boundary burst on a time axis: one lane per limiter, each request a mark,
//! accepted or refused, the window boundaries, and under the bucket's lane its level.
//! The two volleys can be dragged along the axis: the first sets how long before the
//! boundary it starts, the second the gap between them. The axis spans every place the
//! knobs allow, so it holds still under the pointer.

use crate::page::format::r;
use crate::page::lab::settings::{KnobId, LabSettings, Range, KNOBS};
use crate::sim::lab::burst::BurstResult;
use crate::sim::time::{ms, US_PER_MS};
use leptos::prelude::*;

/// Left of the plot: the lanes' labels (12 px text).
const LEFT: f64 = 92.0;
const RIGHT: f64 = 10.0;
const LANE_H: f64 = 34.0;
const LEVEL_H: f64 = 40.0;
/// Marks of one volley: this many to a column.
const ROWS: usize = 5;

/// The knob's (min, max) in its unit.
fn bounds(id: KnobId) -> (u64, u64) {
    match KNOBS[id as usize].range {
        Range::Linear { min, max } | Range::Decades { min, max } => (min, max),
        Range::Choice(names) => (0, names.len() as u64 - 1),
    }
}

/// Which volley is held.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held {
    First,
    Second,
}

/// The three lanes and the bucket's level, drawn for `result` as it changes.
#[component]
pub fn BurstChart(
    /// The experiment's result, as the knobs move it.
    result: Signal<Option<BurstResult>>,
    /// The settings the volleys' places are written to.
    settings: RwSignal<LabSettings>,
    /// Called when a drag ends (to keep the address in step).
    changed: Callback<()>,
    /// The width to draw at, in CSS pixels (nothing is drawn before it is known).
    width: Signal<Option<f64>>,
) -> impl IntoView {
    let held = RwSignal::new(None::<Held>);
    let (off_min, off_max) = bounds(KnobId::BurstOffset);
    let (_, gap_max) = bounds(KnobId::BurstGap);
    // Every place a volley can be, with room for its marks.
    let span = move |boundary_us: u64| {
        let from = boundary_us - ms(off_max) - ms(60);
        let to = boundary_us - ms(off_min) + ms(gap_max) + ms(80);
        (from, to)
    };
    let w = move || width.get().unwrap_or(600.0);
    let plot_w = move || (w() - LEFT - RIGHT).max(60.0);
    let x_of = move |t: u64, from: u64, to: u64| {
        LEFT + (t.saturating_sub(from)) as f64 / (to - from) as f64 * plot_w()
    };
    let time_at = move |client_x: f64, el: &web_sys::Element| -> Option<u64> {
        let r = result.get_untracked()?;
        let (from, to) = span(r.boundary_us);
        let left = el.get_bounding_client_rect().left();
        let frac = ((client_x - left - LEFT) / plot_w()).clamp(0.0, 1.0);
        Some(from + (frac * (to - from) as f64) as u64)
    };
    let drag_to = move |client_x: f64, el: &web_sys::Element| {
        let (Some(which), Some(t), Some(r)) = (
            held.get_untracked(),
            time_at(client_x, el),
            result.get_untracked(),
        ) else {
            return;
        };
        let (id, value_ms) = match which {
            Held::First => (
                KnobId::BurstOffset,
                r.boundary_us.saturating_sub(t) / US_PER_MS,
            ),
            Held::Second => (
                KnobId::BurstGap,
                t.saturating_sub(r.first_volley_us) / US_PER_MS,
            ),
        };
        let next = settings.with_untracked(|s| s.with_position(id, value_ms));
        if settings.with_untracked(|s| *s != next) {
            settings.set(next);
        }
    };
    let svg = move || {
        width.get()?;
        let res = result.get()?;
        let (from, to) = span(res.boundary_us);
        let x = move |t: u64| x_of(t, from, to);
        let lanes_h = LANE_H * res.lanes.len() as f64;
        let height = 8.0 + lanes_h + LEVEL_H + 40.0;
        let per_volley = res.lanes.first().map_or(1, |l| l.marks.len() / 2).max(1);
        let cols = per_volley.div_ceil(ROWS) as f64;
        let window = res.window_us;
        let boundaries: Vec<u64> = (from.div_ceil(window)..=to / window)
            .map(|k| k * window)
            .collect();
        let level_top = 8.0 + lanes_h + 6.0;
        let limit_milli = u64::from(res.limit) * 1_000;
        let level_y = move |m: u64| level_top + LEVEL_H - m as f64 / limit_milli as f64 * LEVEL_H;
        let level: Vec<String> = res
            .bucket_level
            .iter()
            .map(|p| {
                format!(
                    "{},{}",
                    r_f(x(p.at_us.clamp(from, to))),
                    r_f(level_y(p.milli_tokens))
                )
            })
            .collect();
        // The level line starts full at the axis' left edge and ends where the data ends.
        let start = format!("{},{}", r_f(LEFT), r_f(level_y(limit_milli)));
        let handle = |which: Held, start_us: u64| {
            let x0 = x(start_us) - 6.0;
            let name = if which == Held::First {
                "first"
            } else {
                "second"
            };
            view! {
                <rect class="rll-volley-handle" data-volley=name x=r(x0) y="4" width=r(cols * 6.0 + 12.0) height=r(lanes_h + 4.0)
                    on:pointerdown=move |ev: web_sys::PointerEvent| {
                        held.set(Some(which));
                        if let Some(svg) = ev
                            .current_target()
                            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                            .and_then(|e| e.closest("svg").ok().flatten())
                        {
                            let _ = svg.set_pointer_capture(ev.pointer_id());
                        }
                        ev.prevent_default();
                    }>
                    <title>{format!("Drag the {name} volley along the time axis")}</title>
                </rect>
            }
        };
        Some(view! {
            <svg class="rll-chart-px" width=r(w()) height=r(height) viewBox=format!("0 0 {} {}", r(w()), r(height))
                role="img" data-testid="burst-chart"
                aria-label="Requests on a time axis for each limiter: filled circles were accepted, crosses refused. Below, the token bucket's level."
                on:pointermove=move |ev: web_sys::PointerEvent| {
                    if held.get_untracked().is_some() {
                        if let Some(el) = ev.current_target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()) {
                            drag_to(f64::from(ev.client_x()), &el);
                        }
                    }
                }
                on:pointerup=move |_| {
                    if held.get_untracked().is_some() {
                        held.set(None);
                        changed.run(());
                    }
                }
                on:pointercancel=move |_| held.set(None)>
                {boundaries
                    .iter()
                    .map(|&b| {
                        view! {
                            <line class="rll-boundary" x1=r(x(b)) x2=r(x(b)) y1="2" y2=r(level_top + LEVEL_H)></line>
                            <text class="rll-axis-label" x=r(x(b)) y=r(height - 22.0) text-anchor="middle">{format!("{} s", b / 1_000_000)}</text>
                        }
                    })
                    .collect_view()}
                <text class="rll-axis-label" x=r(LEFT) y=r(height - 6.0)>"window boundaries (dashed); drag a volley"</text>
                {res.lanes
                    .iter()
                    .enumerate()
                    .map(|(i, lane)| {
                        let y = 8.0 + i as f64 * LANE_H;
                        let mid = y + LANE_H / 2.0;
                        view! {
                            <g data-lane=lane.limiter.as_str()>
                                <text class="rll-axis-label" x="0" y=r(mid + 4.0) data-accepted=lane.accepted>{format!("{}: {}", lane.limiter.as_str(), lane.accepted)}</text>
                                <line class="rll-lane" x1=r(LEFT) x2=r(LEFT + plot_w()) y1=r(y + LANE_H) y2=r(y + LANE_H)></line>
                                {lane
                                    .marks
                                    .iter()
                                    .enumerate()
                                    .map(|(k, m)| {
                                        // A volley lands within a few ms: its requests sit in
                                        // columns from where it starts, so each can be seen.
                                        let volley = if k < per_volley { res.first_volley_us } else { res.second_volley_us };
                                        let j = k % per_volley;
                                        let cx = x(volley) + (j / ROWS) as f64 * 6.0;
                                        let cy = y + 5.0 + (j % ROWS) as f64 * 6.0;
                                        if m.allowed {
                                            view! { <circle class="rll-accepted" cx=r_f(cx) cy=r_f(cy) r="2.5"></circle> }.into_any()
                                        } else {
                                            view! { <path class="rll-refused" d=format!("M{} {}l5 5m0 -5l-5 5", r_f(cx - 2.5), r_f(cy - 2.5))></path> }.into_any()
                                        }
                                    })
                                    .collect_view()}
                            </g>
                        }
                    })
                    .collect_view()}
                <text class="rll-axis-label" x="0" y=r(level_top + 14.0)>"bucket level"</text>
                <text class="rll-axis-label" x="0" y=r(level_top + 30.0)>{format!("(0–{} tokens)", res.limit)}</text>
                <line class="rll-lane" x1=r(LEFT) x2=r(LEFT + plot_w()) y1=r(level_top + LEVEL_H) y2=r(level_top + LEVEL_H)></line>
                <polyline class="rll-level" data-testid="bucket-level" points=format!("{start} {}", level.join(" "))></polyline>
                {handle(Held::First, res.first_volley_us)}
                {handle(Held::Second, res.second_volley_us)}
            </svg>
        })
    };
    view! { <div class="rll-chart-box">{svg}</div> }
}

/// A coordinate to one decimal, as SVG text.
fn r_f(v: f64) -> String {
    crate::page::format::dec(v, 1)
}

//! A parameter sweep's chart: for each strategy, the stat's median as a line over its
//! min–max band, on real axes (the parameter's label and unit on x, the stat's label on
//! y). Each point is a link to that run (seed 1) with a `<title>` giving its values; the
//! numbers are also in a table under the chart, as `data-result` cells.

use super::strategy_picker::label;
use crate::page::format::{count, dec};
use crate::page::links::point_href;
use crate::page::param_sweep::{axis_label, axis_top, colour, stat_label, ticks, value_text};
use crate::sim::param_sweep::{ParamSweepSpec, Point};
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;

/// The drawing's size in user units. The SVG is never drawn narrower than this many CSS
/// pixels (it scrolls sideways instead), so the 13-unit labels are at least 13 px.
const W: f64 = 600.0;
const H: f64 = 320.0;
const LEFT: f64 = 72.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 56.0;

/// One strategy's points.
pub type Line = (StrategyName, Vec<Point>);

/// The chart and its table.
#[component]
pub fn ParamSweepChart(spec: ParamSweepSpec, lines: Vec<Line>, base: Scenario) -> impl IntoView {
    let (from, to) = (spec.from, spec.to);
    let top = axis_top(
        lines
            .iter()
            .flat_map(|(_, ps)| ps.iter().map(|p| p.dist.max))
            .max()
            .unwrap_or(1),
    );
    let x = move |v: u64| LEFT + (W - LEFT - RIGHT) * (v - from) as f64 / (to - from) as f64;
    let y = move |v: u64| TOP + (H - TOP - BOTTOM) * (1.0 - v as f64 / top as f64);
    let param = spec.param;
    let key = crate::page::spec(param).key;
    let stat = stat_label(spec.stat);
    let x_ticks = ticks(from, to, 6)
        .into_iter()
        .map(|t| {
            view! {
                <line x1=dec(x(t), 1) x2=dec(x(t), 1) y1=dec(H - BOTTOM, 1) y2=dec(H - BOTTOM + 5.0, 1) stroke="currentColor"/>
                <text x=dec(x(t), 1) y=dec(H - BOTTOM + 20.0, 1) text-anchor="middle">{value_text(param, t)}</text>
            }
        })
        .collect_view();
    let y_ticks = ticks(0, top, 5)
        .into_iter()
        .map(|t| {
            view! {
                <line x1=dec(LEFT, 1) x2=dec(W - RIGHT, 1) y1=dec(y(t), 1) y2=dec(y(t), 1) stroke="currentColor" stroke-opacity="0.15"/>
                <text x=dec(LEFT - 8.0, 1) y=dec(y(t) + 4.0, 1) text-anchor="end">{count(t)}</text>
            }
        })
        .collect_view();
    let drawn = lines
        .iter()
        .map(|(s, points)| {
            let c = colour(*s);
            let along = |f: &dyn Fn(&Point) -> u64, ps: &mut dyn Iterator<Item = &Point>| {
                ps.map(|p| format!("{},{}", dec(x(p.value), 1), dec(y(f(p)), 1)))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let band = format!(
                "{} {}",
                along(&|p| p.dist.max, &mut points.iter()),
                along(&|p| p.dist.min, &mut points.iter().rev())
            );
            let median = along(&|p| p.dist.median, &mut points.iter());
            let dots = points
                .iter()
                .map(|p| {
                    let title = format!(
                        "{}: {key} {} — {stat} median {}, min {}, max {}. Open this run (seed 1).",
                        label(*s),
                        value_text(param, p.value),
                        count(p.dist.median),
                        count(p.dist.min),
                        count(p.dist.max)
                    );
                    let href = point_href(param, p.value, *s, &base);
                    let aria = title.clone();
                    let go = href.clone();
                    let open = move || {
                        let _ = window().location().set_href(&go);
                    };
                    let open_key = open.clone();
                    view! {
                        <circle cx=dec(x(p.value), 1) cy=dec(y(p.dist.median), 1) r="5" fill=c
                            tabindex="0" role="link" aria-label=aria data-href=href
                            style:cursor="pointer"
                            on:click=move |_| open()
                            on:keydown=move |ev| if ev.key() == "Enter" { open_key() }>
                            <title>{title}</title>
                        </circle>
                    }
                })
                .collect_view();
            view! {
                <g data-strategy=s.as_str()>
                    <polygon points=band fill=c fill-opacity="0.15" stroke="none"/>
                    <polyline points=median fill="none" stroke=c stroke-width="2"/>
                    {dots}
                </g>
            }
        })
        .collect_view();
    let legend = lines
        .iter()
        .map(|(s, _)| {
            view! {
                <span class="rll-psweep-key">
                    <span style:background=colour(*s) style:display="inline-block" style:width="14px" style:height="4px" style:vertical-align="middle"></span>
                    " " {label(*s)}
                </span>
            }
        })
        .collect_view();
    let table = lines
        .iter()
        .map(|(s, points)| {
            let name = s.as_str();
            let rows = points
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    view! {
                        <tr>
                            <td class="rll-num" data-result=format!("psweep.{name}.{i}.value")>{value_text(param, p.value)}</td>
                            <td class="rll-num" data-result=format!("psweep.{name}.{i}.min")>{p.dist.min}</td>
                            <td class="rll-num" data-result=format!("psweep.{name}.{i}.median")>{p.dist.median}</td>
                            <td class="rll-num" data-result=format!("psweep.{name}.{i}.max")>{p.dist.max}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <table>
                    <caption>{label(*s)}</caption>
                    <thead><tr><th scope="col">{axis_label(param)}</th><th scope="col">"min"</th><th scope="col">"median"</th><th scope="col">"max"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            }
        })
        .collect_view();
    let described = format!(
        "{stat} against {}: for each strategy, the median over the seeds as a line, the lowest and highest as a band.",
        axis_label(param)
    );
    view! {
        <div class="rll-psweep-chart">
            <p class="rll-psweep-legend">{legend}</p>
            <div class="rll-table-scroll">
                <svg viewBox=format!("0 0 {W} {H}") style:width="100%" style:min-width=format!("{W}px") role="group"
                    aria-label=described font-size="13" fill="currentColor">
                    {y_ticks}
                    <line x1=dec(LEFT, 1) x2=dec(LEFT, 1) y1=dec(TOP, 1) y2=dec(H - BOTTOM, 1) stroke="currentColor"/>
                    <line x1=dec(LEFT, 1) x2=dec(W - RIGHT, 1) y1=dec(H - BOTTOM, 1) y2=dec(H - BOTTOM, 1) stroke="currentColor"/>
                    {x_ticks}
                    <text x=dec((LEFT + W - RIGHT) / 2.0, 1) y=dec(H - 12.0, 1) text-anchor="middle">{axis_label(param)}</text>
                    <text transform=format!("translate(16 {}) rotate(-90)", dec((TOP + H - BOTTOM) / 2.0, 1)) text-anchor="middle">{stat}</text>
                    {drawn}
                </svg>
            </div>
            <details>
                <summary>"The numbers"</summary>
                <div class="rll-table-scroll">{table}</div>
            </details>
        </div>
    }
}

//! A parameter sweep's chart and table as markup: for each strategy, the stat's median as
//! a line over its min–max band, on real axes (the parameter's label and unit on x, the
//! stat's label on y), each point focusable with a `<title>` and the link to its run
//! (seed 1) in `data-href` ([`POINT_HREF`]); then every point as `data-result` cells.
//! Written here, as markup set with `inner_html`, because it is drawn once when a sweep
//! ends and nothing in it changes: as Leptos views it cost the sweep page 17 KB gzip of
//! .wasm. Every word in it is ours (labels from the tables, numbers), and maud escapes
//! each all the same. Its SVG elements are all closed (`{}`): inside `<svg>` the HTML
//! parser closes no element by its name.

use crate::query::links::point_href;
use crate::shared::format::{count, dec};
use crate::shared::markup::Whole;
use crate::shared::slot::Slot;
use crate::slot;
use crate::sweep::param_sweep::{axis_label, axis_top, colour, stat_label, ticks, value_text};
use maud::{html, Markup};
use sim::param_sweep::{ParamSweepSpec, Point};
use sim::{Scenario, StrategyName};

/// The drawing's size in user units. The SVG is never drawn narrower than this many CSS
/// pixels (it scrolls sideways instead), so its 13-unit labels are at least 13 px.
/// (Written as integers in the markup: formatting an `f64` would pull float formatting
/// into the page's module.)
const W: f64 = 600.0;
const H: f64 = 320.0;
const LEFT: f64 = 72.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 56.0;

/// The link a point opens (its run, seed 1): its attribute, which the UI reads from the
/// point it finds by [`POINT`].
pub const POINT_HREF: &str = "data-href";

/// Each point of the chart: focusable, and a link to its run ([`POINT_HREF`]).
pub const POINT: Slot = slot!("sweep-point");

/// The chart, a legend and a table of every point, as markup. `label` names a strategy.
pub fn chart_markup(
    spec: &ParamSweepSpec,
    lines: &[(StrategyName, Vec<Point>)],
    base: &Scenario,
    label: fn(StrategyName) -> &'static str,
) -> Markup {
    let (from, to) = (spec.from, spec.to.max(spec.from + 1));
    let top = axis_top(
        lines
            .iter()
            .flat_map(|(_, ps)| ps.iter().map(|p| p.dist.max))
            .max()
            .unwrap_or(1),
    );
    let x = |v: u64| {
        dec(
            LEFT + (W - LEFT - RIGHT) * (v - from) as f64 / (to - from) as f64,
            1,
        )
    };
    let y = |v: u64| dec(TOP + (H - TOP - BOTTOM) * (1.0 - v as f64 / top as f64), 1);
    let param = spec.param;
    let key = crate::spec(param).key;
    let x_label = axis_label(param);
    let stat = stat_label(spec.stat);
    let (left, right, axis_y) = (dec(LEFT, 1), dec(W - RIGHT, 1), dec(H - BOTTOM, 1));
    let along = |f: fn(&Point) -> u64, ps: &mut dyn Iterator<Item = &Point>| {
        ps.map(|p| format!("{},{}", x(p.value), y(f(p))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    html! {
        p.rll-psweep-legend {
            @for (s, _) in lines {
                span.rll-psweep-key {
                    span style={ "display:inline-block;width:14px;height:4px;vertical-align:middle;background:" (colour(*s)) } {}
                    " " (label(*s))
                }
                " "
            }
        }
        div.rll-table-scroll {
            svg viewBox="0 0 600 320" style="width:100%;min-width:600px" role="group"
                aria-label={ (stat) " against " (x_label) ": for each strategy, the median over the seeds as a line, the lowest and highest as a band" }
                font-size="13" fill="currentColor" {
                @for t in ticks(0, top, 5) {
                    line x1=(left) x2=(right) y1=(y(t)) y2=(y(t)) stroke="currentColor" stroke-opacity="0.15" {}
                    text x=(dec(LEFT - 8.0, 1)) y=(dec(TOP + (H - TOP - BOTTOM) * (1.0 - t as f64 / top as f64) + 4.0, 1)) text-anchor="end" { (count(t)) }
                }
                line x1=(left) x2=(left) y1=(dec(TOP, 1)) y2=(axis_y) stroke="currentColor" {}
                line x1=(left) x2=(right) y1=(axis_y) y2=(axis_y) stroke="currentColor" {}
                @for t in ticks(from, to, 6) {
                    line x1=(x(t)) x2=(x(t)) y1=(axis_y) y2=(dec(H - BOTTOM + 5.0, 1)) stroke="currentColor" {}
                    text x=(x(t)) y=(dec(H - BOTTOM + 20.0, 1)) text-anchor="middle" { (value_text(param, t)) }
                }
                text x=(dec((LEFT + W - RIGHT) / 2.0, 1)) y=(dec(H - 12.0, 1)) text-anchor="middle" { (x_label) }
                text transform={ "translate(16 " (dec((TOP + H - BOTTOM) / 2.0, 1)) ") rotate(-90)" } text-anchor="middle" { (stat) }
                @for (s, points) in lines {
                    @let c = colour(*s);
                    g data-strategy=(s.as_str()) {
                        polygon points={ (along(|p| p.dist.max, &mut points.iter())) " " (along(|p| p.dist.min, &mut points.iter().rev())) }
                            fill=(c) fill-opacity="0.15" stroke="none" {}
                        polyline points=(along(|p| p.dist.median, &mut points.iter())) fill="none" stroke=(c) stroke-width="2" {}
                        @for p in points {
                            @let title = format!(
                                "{}: {key} {} — {} median {}, min {}, max {}. Open this run (seed 1).",
                                label(*s),
                                value_text(param, p.value),
                                stat,
                                count(p.dist.median),
                                count(p.dist.min),
                                count(p.dist.max)
                            );
                            circle cx=(x(p.value)) cy=(y(p.dist.median)) r="5" fill=(c) tabindex="0" role="link"
                                aria-label=(title) data-href=(point_href(param, p.value, *s, base)) data-slot=(POINT)
                                style="cursor:pointer" { title { (title) } }
                        }
                    }
                }
            }
        }
        details {
            summary { "The numbers" }
            div.rll-table-scroll {
                @for (s, points) in lines {
                    @let name = s.as_str();
                    table {
                        caption { (label(*s)) }
                        thead { tr {
                            th scope="col" { (x_label) }
                            th scope="col" { "min" }
                            th scope="col" { "median" }
                            th scope="col" { "max" }
                        } }
                        tbody {
                            @for (i, p) in points.iter().enumerate() {
                                @let cell = |field: &str| html! { "psweep." (name) "." (Whole(i as u64)) "." (field) };
                                tr {
                                    td.rll-num data-result=(cell("value")) { (value_text(param, p.value)) }
                                    td.rll-num data-result=(cell("min")) { (Whole(p.dist.min)) }
                                    td.rll-num data-result=(cell("median")) { (Whole(p.dist.median)) }
                                    td.rll-num data-result=(cell("max")) { (Whole(p.dist.max)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::param_sweep::ParamSweepJob;
    use sim::time::ms;
    use sim::{Param, StatField};

    #[test]
    fn the_chart_has_its_axes_a_line_per_strategy_and_every_point() {
        let spec = ParamSweepSpec {
            param: Param::Timeout,
            from: ms(200),
            to: ms(3_000),
            steps: 3,
            stat: StatField::Duplicates,
        };
        let base = Scenario {
            customers: 100,
            ..Scenario::default()
        };
        let strategies = [StrategyName::TimeoutNoKey, StrategyName::Keyed];
        let lines = ParamSweepJob::new(&base, spec, &strategies, 2, sim::scenario::MAX_CUSTOMERS)
            .unwrap()
            .run_to_end();
        let m = chart_markup(&spec, &lines, &base, |s| match s {
            StrategyName::TimeoutNoKey => "Timeout, <no> key",
            _ => "Keyed",
        })
        .into_string();
        assert!(m.contains(">Client timeout (ms)</text>"), "{m}");
        assert!(m.contains(">Extra charges</text>"), "{m}");
        assert_eq!(m.matches("<polyline").count(), 2);
        // Inside <svg> the HTML parser closes no element by its name: each is closed.
        for tag in ["line", "circle", "polygon", "polyline", "text", "g"] {
            assert_eq!(
                m.matches(&format!("<{tag} ")).count(),
                m.matches(&format!("</{tag}>")).count(),
                "{tag}"
            );
        }
        assert_eq!(m.matches("<circle").count(), 6);
        assert!(m.contains("Timeout, &lt;no&gt; key"), "labels are escaped");
        assert!(!m.contains("<no>"));
        assert!(
            m.contains("data-result=\"psweep.keyed.2.value\">3000</td>"),
            "{m}"
        );
        assert!(
            m.contains(&format!(
                "{POINT_HREF}=\"run.html?section=charges&amp;view=run&amp;strategy=keyed&amp;seed=1"
            )),
            "{m}"
        );
        assert_eq!(
            m.matches(&format!("data-slot=\"{}\"", POINT.name()))
                .count(),
            6
        );
    }
}

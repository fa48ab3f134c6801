//! A parameter sweep's chart and table as markup: for each strategy, the stat's median as
//! a line over its min–max band, on real axes (the parameter's label and unit on x, the
//! stat's label on y), each point focusable with a `<title>` and the link to its run
//! (seed 1) in `data-href`; then every point as `data-result` cells. Written here, as
//! text, because it is drawn once when a sweep ends and nothing in it changes: as Leptos
//! views it cost the sweep page 17 KB gzip of .wasm. Every word in it is ours (labels
//! from the tables, numbers), and each is escaped all the same.

use crate::shared::format::{count, dec};
use crate::shared::links::point_href;
use crate::shared::markup::escape;
use crate::sweep::param_sweep::{axis_label, axis_top, colour, stat_label, ticks, value_text};
use sim::param_sweep::{ParamSweepSpec, Point};
use sim::{Scenario, StrategyName};
use std::fmt::Write;

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

/// The chart, a legend and a table of every point, as markup. `label` names a strategy.
pub fn chart_markup(
    spec: &ParamSweepSpec,
    lines: &[(StrategyName, Vec<Point>)],
    base: &Scenario,
    label: fn(StrategyName) -> &'static str,
) -> String {
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
    let x_label = escape(&axis_label(param));
    let stat = escape(stat_label(spec.stat));
    let (left, right, axis_y) = (dec(LEFT, 1), dec(W - RIGHT, 1), dec(H - BOTTOM, 1));
    let mut o = String::new();
    // Writing to a String cannot fail.
    let _ = write!(o, "<p class=\"rll-psweep-legend\">");
    for (s, _) in lines {
        let _ = write!(
            o,
            "<span class=\"rll-psweep-key\"><span style=\"display:inline-block;width:14px;height:4px;vertical-align:middle;background:{}\"></span> {}</span> ",
            colour(*s),
            escape(label(*s))
        );
    }
    let _ = write!(
        o,
        "</p><div class=\"rll-table-scroll\"><svg viewBox=\"0 0 600 320\" style=\"width:100%;min-width:600px\" role=\"group\" aria-label=\"{stat} against {x_label}: for each strategy, the median over the seeds as a line, the lowest and highest as a band\" font-size=\"13\" fill=\"currentColor\">"
    );
    for t in ticks(0, top, 5) {
        let _ = write!(
            o,
            "<line x1=\"{left}\" x2=\"{right}\" y1=\"{0}\" y2=\"{0}\" stroke=\"currentColor\" stroke-opacity=\"0.15\"/><text x=\"{1}\" y=\"{2}\" text-anchor=\"end\">{3}</text>",
            y(t),
            dec(LEFT - 8.0, 1),
            dec(TOP + (H - TOP - BOTTOM) * (1.0 - t as f64 / top as f64) + 4.0, 1),
            count(t)
        );
    }
    let _ = write!(
        o,
        "<line x1=\"{left}\" x2=\"{left}\" y1=\"{}\" y2=\"{axis_y}\" stroke=\"currentColor\"/><line x1=\"{left}\" x2=\"{right}\" y1=\"{axis_y}\" y2=\"{axis_y}\" stroke=\"currentColor\"/>",
        dec(TOP, 1)
    );
    for t in ticks(from, to, 6) {
        let _ = write!(
            o,
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"{axis_y}\" y2=\"{1}\" stroke=\"currentColor\"/><text x=\"{0}\" y=\"{2}\" text-anchor=\"middle\">{3}</text>",
            x(t),
            dec(H - BOTTOM + 5.0, 1),
            dec(H - BOTTOM + 20.0, 1),
            escape(&value_text(param, t))
        );
    }
    let _ = write!(
        o,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{x_label}</text><text transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\">{stat}</text>",
        dec((LEFT + W - RIGHT) / 2.0, 1),
        dec(H - 12.0, 1),
        dec((TOP + H - BOTTOM) / 2.0, 1)
    );
    for (s, points) in lines {
        let c = colour(*s);
        let along = |f: fn(&Point) -> u64, ps: &mut dyn Iterator<Item = &Point>| {
            ps.map(|p| format!("{},{}", x(p.value), y(f(p))))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = write!(
            o,
            "<g data-strategy=\"{}\"><polygon points=\"{} {}\" fill=\"{c}\" fill-opacity=\"0.15\" stroke=\"none\"/><polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\"/>",
            s.as_str(),
            along(|p| p.dist.max, &mut points.iter()),
            along(|p| p.dist.min, &mut points.iter().rev()),
            along(|p| p.dist.median, &mut points.iter())
        );
        for p in points {
            let title = escape(&format!(
                "{}: {key} {} — {} median {}, min {}, max {}. Open this run (seed 1).",
                label(*s),
                value_text(param, p.value),
                stat_label(spec.stat),
                count(p.dist.median),
                count(p.dist.min),
                count(p.dist.max)
            ));
            let _ = write!(
                o,
                "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{c}\" tabindex=\"0\" role=\"link\" aria-label=\"{title}\" data-href=\"{}\" style=\"cursor:pointer\"><title>{title}</title></circle>",
                x(p.value),
                y(p.dist.median),
                escape(&point_href(param, p.value, *s, base))
            );
        }
        o.push_str("</g>");
    }
    let _ = write!(
        o,
        "</svg></div><details><summary>The numbers</summary><div class=\"rll-table-scroll\">"
    );
    for (s, points) in lines {
        let name = s.as_str();
        let _ = write!(
            o,
            "<table><caption>{}</caption><thead><tr><th scope=\"col\">{x_label}</th><th scope=\"col\">min</th><th scope=\"col\">median</th><th scope=\"col\">max</th></tr></thead><tbody>",
            escape(label(*s))
        );
        for (i, p) in points.iter().enumerate() {
            let cell = |field: &str, text: String| {
                format!(
                    "<td class=\"rll-num\" data-result=\"psweep.{name}.{i}.{field}\">{text}</td>"
                )
            };
            let _ = write!(
                o,
                "<tr>{}{}{}{}</tr>",
                cell("value", escape(&value_text(param, p.value))),
                cell("min", p.dist.min.to_string()),
                cell("median", p.dist.median.to_string()),
                cell("max", p.dist.max.to_string())
            );
        }
        o.push_str("</tbody></table>");
    }
    o.push_str("</div></details>");
    o
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
        let lines = ParamSweepJob::new(&base, spec, &strategies, 2)
            .unwrap()
            .run_to_end();
        let m = chart_markup(&spec, &lines, &base, |s| match s {
            StrategyName::TimeoutNoKey => "Timeout, <no> key",
            _ => "Keyed",
        });
        assert!(m.contains(">Client timeout (ms)</text>"), "{m}");
        assert!(m.contains(">Extra charges</text>"), "{m}");
        assert_eq!(m.matches("<polyline").count(), 2);
        assert_eq!(m.matches("<circle").count(), 6);
        assert!(m.contains("Timeout, &lt;no&gt; key"), "labels are escaped");
        assert!(!m.contains("<no>"));
        assert!(
            m.contains("data-result=\"psweep.keyed.2.value\">3000</td>"),
            "{m}"
        );
        assert!(
            m.contains(
                "data-href=\"run.html?section=charges&amp;view=run&amp;strategy=keyed&amp;seed=1"
            ),
            "{m}"
        );
        assert_eq!(escape("a\"b'c&"), "a&quot;b&#39;c&amp;");
    }
}

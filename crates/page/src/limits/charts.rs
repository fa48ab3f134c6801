//! The limits experiments' charts and tables as markup, drawn at a given width in CSS
//! pixels: the SVG's user unit is one CSS pixel (its `width` is its `viewBox` width), so
//! its 12 px labels stay 12 px on a phone instead of shrinking with the picture. Written
//! here, as text, because they are redrawn whole whenever a knob moves, and as Leptos
//! views they cost the limits page about 25 KB gzip of `.wasm` (the same reason as the
//! parameter sweep's chart). Every word in them is ours, and each is escaped all the same.
//! Coordinates are written with integer formatting ([`dec`]).

use super::memory::{decade_label, decades, megabytes};
use crate::limits::settings::{KnobId, Range, KNOBS};
use crate::shared::format::{count, dec};
use crate::shared::markup::escape;
use crate::shared::ticks::time_ticks;
use sim::lab::burst::BurstResult;
use sim::lab::herd::HerdResult;
use sim::lab::memory::MemoryResult;
use sim::time::{ms, US_PER_MS};
use std::fmt::Write;

/// The class of every label: `font-size: 12px` in the style sheet.
pub const LABEL: &str = "rll-axis-label";

/// The narrowest a chart is drawn; a narrower box scrolls it sideways.
pub const MIN_W: u32 = 300;

/// The widest a chart is drawn.
pub const MAX_W: u32 = 760;

/// The width to draw at for a box `box_w` CSS pixels wide.
pub fn chart_width(box_w: f64) -> u32 {
    (box_w.max(0.0) as u32).clamp(MIN_W, MAX_W)
}

fn n(v: f64) -> String {
    dec(v, 1)
}

/// `<svg …>` opening a chart `w` × `h` CSS pixels, one user unit to a pixel.
fn open_svg(out: &mut String, w: u32, h: f64, testid: &str, label: &str) {
    let h = h.ceil() as u32;
    let _ = write!(
        out,
        r#"<svg class="rll-chart-px" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" data-testid="{testid}" aria-label="{}">"#,
        escape(label)
    );
}

/// A label at (x, y); `anchor` is "start", "middle" or "end".
fn text(out: &mut String, x: f64, y: f64, anchor: &str, words: &str) {
    let _ = write!(
        out,
        r#"<text class="{LABEL}" x="{}" y="{}" text-anchor="{anchor}">{}</text>"#,
        n(x),
        n(y),
        escape(words)
    );
}

/// Left of the burst's plot: the lanes' labels.
const BURST_LEFT: f64 = 96.0;
const BURST_RIGHT: f64 = 10.0;
const LANE_H: f64 = 36.0;
const LEVEL_H: f64 = 44.0;
/// A volley's marks: this many to a column, this far apart.
const ROWS: usize = 5;
const MARK_STEP: f64 = 6.5;

/// The knob's (min, max), in its unit.
fn bounds(id: KnobId) -> (u64, u64) {
    match KNOBS[id as usize].range {
        Range::Linear { min, max } | Range::Decades { min, max } => (min, max),
        Range::Choice(names) => (0, names.len() as u64 - 1),
    }
}

/// The burst's time axis at one width. It spans every place the knobs can put the
/// volleys, so it holds still under a pointer that drags one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BurstAxis {
    /// The axis' first instant.
    pub from_us: u64,
    /// Its last.
    pub to_us: u64,
    /// The chart's width.
    pub width: u32,
}

impl BurstAxis {
    /// The axis for a burst whose boundary is at `boundary_us`, drawn `width` wide.
    pub fn new(boundary_us: u64, width: u32) -> Self {
        let (off_min, off_max) = bounds(KnobId::BurstOffset);
        let (_, gap_max) = bounds(KnobId::BurstGap);
        Self {
            from_us: boundary_us - ms(off_max) - ms(60),
            to_us: boundary_us - ms(off_min) + ms(gap_max) + ms(80),
            width,
        }
    }

    fn plot_w(&self) -> f64 {
        f64::from(self.width) - BURST_LEFT - BURST_RIGHT
    }

    /// Where instant `t_us` is drawn.
    pub fn x(&self, t_us: u64) -> f64 {
        let t = t_us.clamp(self.from_us, self.to_us) - self.from_us;
        BURST_LEFT + t as f64 / (self.to_us - self.from_us) as f64 * self.plot_w()
    }

    /// The instant drawn at `x` (clamped to the axis).
    pub fn time_at(&self, x: f64) -> u64 {
        let frac = ((x - BURST_LEFT) / self.plot_w()).clamp(0.0, 1.0);
        self.from_us + (frac * (self.to_us - self.from_us) as f64) as u64
    }
}

/// Where a dragged volley puts its knob: the first volley at instant `t_us` sets how
/// long before the boundary it starts; the second, the gap after the first.
pub fn dragged(r: &BurstResult, second: bool, t_us: u64) -> (KnobId, u64) {
    if second {
        (
            KnobId::BurstGap,
            t_us.saturating_sub(r.first_volley_us) / US_PER_MS,
        )
    } else {
        (
            KnobId::BurstOffset,
            r.boundary_us.saturating_sub(t_us) / US_PER_MS,
        )
    }
}

/// The burst: a lane per limiter, every window boundary, the token bucket's level under
/// its lane, and a handle on each volley (`data-volley="first"` / `"second"`).
pub fn burst_svg(r: &BurstResult, width: u32) -> String {
    let axis = BurstAxis::new(r.boundary_us, width);
    let x = |t: u64| axis.x(t);
    let lanes_h = LANE_H * r.lanes.len() as f64;
    let level_top = 8.0 + lanes_h + 8.0;
    let height = level_top + LEVEL_H + 44.0;
    let per_volley = r.lanes.first().map_or(1, |l| l.marks.len() / 2).max(1);
    let cols = per_volley.div_ceil(ROWS) as f64;
    let mut out = String::new();
    open_svg(
        &mut out,
        width,
        height,
        "burst-chart",
        "Requests on a time axis for each limiter: dots were accepted, crosses refused. Below, the token bucket's level.",
    );
    let window = r.window_us;
    for k in axis.from_us.div_ceil(window)..=axis.to_us / window {
        let at = x(k * window);
        let _ = write!(
            out,
            r#"<line class="rll-boundary" x1="{0}" x2="{0}" y1="2" y2="{1}"/>"#,
            n(at),
            n(level_top + LEVEL_H)
        );
        text(
            &mut out,
            at,
            height - 24.0,
            "middle",
            &format!("{} s", k * window / 1_000_000),
        );
    }
    text(
        &mut out,
        BURST_LEFT,
        height - 6.0,
        "start",
        "dashes: boundaries · drag a volley",
    );
    for (i, lane) in r.lanes.iter().enumerate() {
        let y = 8.0 + i as f64 * LANE_H;
        let _ = write!(out, r#"<g data-lane="{}">"#, lane.limiter.as_str());
        text(
            &mut out,
            0.0,
            y + LANE_H / 2.0 + 4.0,
            "start",
            &format!("{}: {}", lane.limiter.as_str(), lane.accepted),
        );
        let _ = write!(
            out,
            r#"<line class="rll-lane" x1="{}" x2="{}" y1="{2}" y2="{2}"/>"#,
            n(BURST_LEFT),
            n(f64::from(width) - BURST_RIGHT),
            n(y + LANE_H)
        );
        for (k, m) in lane.marks.iter().enumerate() {
            // A volley lands within a few ms: its requests sit in columns from where it
            // starts, so each one can be seen.
            let start = if k < per_volley {
                r.first_volley_us
            } else {
                r.second_volley_us
            };
            let j = k % per_volley;
            let cx = x(start) + (j / ROWS) as f64 * MARK_STEP;
            let cy = y + 6.0 + (j % ROWS) as f64 * MARK_STEP;
            if m.allowed {
                let _ = write!(
                    out,
                    r#"<circle class="rll-accepted" cx="{}" cy="{}" r="2.6"/>"#,
                    n(cx),
                    n(cy)
                );
            } else {
                let _ = write!(
                    out,
                    r#"<path class="rll-refused" d="M{} {}l5 5m0 -5l-5 5"/>"#,
                    n(cx - 2.5),
                    n(cy - 2.5)
                );
            }
        }
        out.push_str("</g>");
    }
    text(&mut out, 0.0, level_top + 16.0, "start", "bucket level");
    text(
        &mut out,
        0.0,
        level_top + 32.0,
        "start",
        &format!("0–{} tokens", r.limit),
    );
    let _ = write!(
        out,
        r#"<line class="rll-lane" x1="{}" x2="{}" y1="{2}" y2="{2}"/>"#,
        n(BURST_LEFT),
        n(f64::from(width) - BURST_RIGHT),
        n(level_top + LEVEL_H)
    );
    let full = u64::from(r.limit) * 1_000;
    let level_y = |milli: u64| level_top + LEVEL_H - milli as f64 / full as f64 * LEVEL_H;
    // Full from the axis' left edge until the first arrival, then the core's points.
    let mut points = format!("{},{}", n(BURST_LEFT), n(level_y(full)));
    for p in &r.bucket_level {
        let _ = write!(points, " {},{}", n(x(p.at_us)), n(level_y(p.milli_tokens)));
    }
    let _ = write!(
        out,
        r#"<polyline class="rll-level" data-testid="bucket-level" points="{points}"/>"#
    );
    for (name, start) in [("first", r.first_volley_us), ("second", r.second_volley_us)] {
        let _ = write!(
            out,
            r#"<rect class="rll-volley-handle" data-volley="{name}" x="{}" y="4" width="{}" height="{}"><title>Drag the {name} volley along the time axis</title></rect>"#,
            n(x(start) - 6.0),
            n(cols * MARK_STEP + 12.0),
            n(lanes_h + 4.0)
        );
    }
    out.push_str("</svg>");
    out
}

/// What the token bucket told each caller, request by request, as list items.
pub fn burst_answers(r: &BurstResult) -> String {
    let mut out = String::new();
    for row in super::burst::header_rows(r) {
        let _ = write!(
            out,
            r#"<li data-status="{}"{}><span class="rll-num">{}</span> <strong>{}</strong> <code data-header="RateLimit">{}</code>"#,
            row.status,
            if row.allowed {
                ""
            } else {
                r#" class="rll-refused-row""#
            },
            escape(&row.at),
            row.status,
            escape(&row.rate_limit)
        );
        if let Some(v) = &row.retry_after {
            let _ = write!(
                out,
                r#" <code data-header="Retry-After">{}</code>"#,
                escape(v)
            );
        }
        out.push_str("</li>");
    }
    out
}

const HERD_LEFT: f64 = 100.0;
const HERD_RIGHT: f64 = 14.0;
const HERD_ROW_H: f64 = 64.0;
const HERD_GAP: f64 = 24.0;
/// Tick labels closer than this are skipped.
const TICK_ROOM: f64 = 56.0;

/// The herd's first wave, without jitter and with the chosen jitter, on one scale.
pub fn herd_svg(r: &HerdResult, width: u32) -> String {
    let peak = r
        .bins
        .iter()
        .map(|b| b.none.max(b.chosen))
        .max()
        .unwrap_or(1)
        .max(1);
    let bins = r.bins.len().max(1);
    let end_us = bins as u64 * r.bin_us;
    let plot_w = f64::from(width) - HERD_LEFT - HERD_RIGHT;
    let x = |t: u64| HERD_LEFT + t as f64 / end_us as f64 * plot_w;
    let bar_w = plot_w / bins as f64;
    let height = 8.0 + 2.0 * (HERD_ROW_H + HERD_GAP) + 16.0;
    let mut out = String::new();
    open_svg(
        &mut out,
        width,
        height,
        "herd-chart",
        &format!(
            "First returns per {} ms bin: without jitter, and with {} jitter.",
            r.bin_us / US_PER_MS,
            r.jitter
        ),
    );
    for (row, (name, chosen)) in [("no jitter", false), (r.jitter.as_str(), true)]
        .into_iter()
        .enumerate()
    {
        let top = 8.0 + row as f64 * (HERD_ROW_H + HERD_GAP);
        text(&mut out, 0.0, top + HERD_ROW_H / 2.0, "start", name);
        if chosen {
            text(
                &mut out,
                0.0,
                top + HERD_ROW_H / 2.0 + 16.0,
                "start",
                "jitter",
            );
        }
        let _ = write!(
            out,
            r#"<line class="rll-lane" x1="{}" x2="{}" y1="{2}" y2="{2}"/>"#,
            n(HERD_LEFT),
            n(HERD_LEFT + plot_w),
            n(top + HERD_ROW_H)
        );
        let class = if chosen {
            "rll-bar-jitter"
        } else {
            "rll-bar-spike"
        };
        for (i, b) in r.bins.iter().enumerate() {
            let v = if chosen { b.chosen } else { b.none };
            if v == 0 {
                continue;
            }
            let h = HERD_ROW_H * f64::from(v) / f64::from(peak);
            let _ = write!(
                out,
                r#"<rect class="{class}" x="{}" y="{}" width="{}" height="{}"><title>{} ms: {v} first returns</title></rect>"#,
                n(HERD_LEFT + i as f64 * bar_w),
                n(top + HERD_ROW_H - h),
                n((bar_w - 1.0).max(1.0)),
                n(h),
                b.start_ms
            );
        }
    }
    let mut last = f64::NEG_INFINITY;
    for (t, label) in time_ticks(end_us, f64::from(width)) {
        let at = x(t);
        if at - last >= TICK_ROOM && at + TICK_ROOM / 2.0 <= f64::from(width) {
            text(&mut out, at, height - 4.0, "middle", &label);
            last = at;
        }
    }
    out.push_str("</svg>");
    out
}

const MEM_LEFT: f64 = 72.0;
const MEM_RIGHT: f64 = 20.0;
const BAR_H: f64 = 22.0;
const MEM_ROW_H: f64 = 34.0;

/// log10 of `v` (at least 1), to within 0.003: from the integer log2 and a quadratic
/// for the rest, because `f64::log10` brings a maths library of about 9 KB gzip into
/// the page's module.
pub fn log10(v: u64) -> f64 {
    let v = v.max(1);
    let k = v.ilog2();
    let f = v as f64 / (1u64 << k) as f64 - 1.0;
    (f64::from(k) + f * (1.3466 - 0.3466 * f)) * std::f64::consts::LOG10_2
}

/// Total bytes per limiter, as bars on a log axis with a tick per power of ten.
pub fn memory_svg(r: &MemoryResult, width: u32) -> String {
    let peak = r.rows.iter().map(|m| m.total_bytes).max().unwrap_or(1);
    let exps = decades(peak);
    let plot_w = f64::from(width) - MEM_LEFT - MEM_RIGHT;
    let x = |bytes: u64| MEM_LEFT + log10(bytes) / f64::from(exps) * plot_w;
    let axis_y = 6.0 + MEM_ROW_H * r.rows.len() as f64;
    let height = axis_y + 22.0;
    // Label every `step`-th power of ten, so labels do not touch.
    let step = (1..=exps)
        .find(|s| plot_w / f64::from(exps) * f64::from(*s) >= TICK_ROOM)
        .unwrap_or(exps);
    let mut out = String::new();
    open_svg(
        &mut out,
        width,
        height,
        "memory-chart",
        "Total bytes per limiter, on a log axis",
    );
    for e in 0..=exps {
        let at = MEM_LEFT + f64::from(e) / f64::from(exps) * plot_w;
        let _ = write!(
            out,
            r#"<line class="rll-grid" x1="{0}" x2="{0}" y1="2" y2="{1}"/>"#,
            n(at),
            n(axis_y)
        );
        if e % step == 0 {
            text(&mut out, at, axis_y + 16.0, "middle", &decade_label(e));
        }
    }
    for (i, m) in r.rows.iter().enumerate() {
        let y = 6.0 + i as f64 * MEM_ROW_H;
        text(
            &mut out,
            0.0,
            y + BAR_H / 2.0 + 4.0,
            "start",
            m.limiter.as_str(),
        );
        let _ = write!(
            out,
            r#"<rect class="rll-bar-memory" x="{}" y="{}" width="{}" height="{}"><title>{}: {} ({} bytes)</title></rect>"#,
            n(MEM_LEFT),
            n(y),
            n(x(m.total_bytes) - MEM_LEFT),
            n(BAR_H),
            m.limiter.as_str(),
            megabytes(m.total_bytes),
            count(m.total_bytes)
        );
    }
    out.push_str("</svg>");
    out
}

/// A table cell: its text, whether it is a number, and whether it marks harm.
pub type Cell = (String, bool, bool);

/// A table row: its name (the row's header), its cells, and whether it is the chosen one.
pub type Row = (String, Vec<Cell>, bool);

/// A result table: a header row, then rows named by their first cell; `chosen` rows are
/// bold.
pub fn table_html(caption: &str, head: &[&str], rows: &[Row]) -> String {
    let mut out = String::from("<table>");
    if !caption.is_empty() {
        let _ = write!(out, "<caption>{}</caption>", escape(caption));
    }
    out.push_str("<thead><tr>");
    for h in head {
        let _ = write!(out, r#"<th scope="col">{}</th>"#, escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for (name, cells, chosen) in rows {
        let _ = write!(
            out,
            r#"<tr{}><th scope="row">{}</th>"#,
            if *chosen {
                r#" class="rll-chosen""#
            } else {
                ""
            },
            escape(name)
        );
        for (t, is_num, harm) in cells {
            let class = match (is_num, harm) {
                (true, true) => r#" class="rll-num rll-harm-cell""#,
                (true, false) => r#" class="rll-num""#,
                (false, true) => r#" class="rll-harm-cell""#,
                (false, false) => "",
            };
            let _ = write!(
                out,
                "<td{class}>{}{}</td>",
                escape(t),
                if *harm { " ⚠" } else { "" }
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab::burst::{run as burst, BurstParams};
    use sim::lab::herd::{run as herd, HerdParams};
    use sim::lab::memory::{run as memory, MemoryParams};

    /// The `width`, `height` and `viewBox` of an SVG's opening tag.
    fn size(svg: &str) -> (String, String, String) {
        let attr = |name: &str| {
            let at = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            svg[at..at + svg[at..].find('"').unwrap()].to_string()
        };
        (attr("width"), attr("height"), attr("viewBox"))
    }

    #[test]
    fn every_chart_is_drawn_one_unit_to_a_pixel_with_classed_labels() {
        let charts = [
            burst_svg(&burst(&BurstParams::default(), 1).unwrap(), 343),
            herd_svg(&herd(&HerdParams::default(), 1).unwrap(), 343),
            memory_svg(&memory(&MemoryParams::default()).unwrap(), 343),
        ];
        for svg in charts {
            let (w, h, view_box) = size(&svg);
            assert_eq!(view_box, format!("0 0 {w} {h}"), "{svg}");
            assert_eq!(w, "343");
            // Every label carries the class the style sheet sizes at 12 px.
            assert_eq!(
                svg.matches("<text ").count(),
                svg.matches(&format!("<text class=\"{LABEL}\"")).count()
            );
            assert!(svg.matches("<text ").count() >= 3);
        }
    }

    #[test]
    fn the_log_is_close_enough_to_draw() {
        for v in [
            1u64,
            2,
            3,
            7,
            10,
            99,
            1_000,
            12_345,
            80_200_000,
            u64::MAX / 3,
        ] {
            let err = (log10(v) - (v as f64).log10()).abs();
            assert!(err < 0.003, "{v}: {err}");
        }
    }

    #[test]
    fn the_axis_maps_time_and_back() {
        let r = burst(&BurstParams::default(), 1).unwrap();
        let axis = BurstAxis::new(r.boundary_us, 600);
        let x = axis.x(r.second_volley_us);
        let back = axis.time_at(x);
        assert!(back.abs_diff(r.second_volley_us) < ms(10), "{back}");
        assert_eq!(
            dragged(&r, true, r.first_volley_us + ms(300)),
            (KnobId::BurstGap, 300)
        );
        assert_eq!(
            dragged(&r, false, r.boundary_us - ms(42)),
            (KnobId::BurstOffset, 42)
        );
        assert_eq!(chart_width(120.0), MIN_W);
        assert_eq!(chart_width(2_000.0), MAX_W);
    }

    #[test]
    fn markup_is_escaped_and_answers_are_listed() {
        let t = table_html(
            "a <b>",
            &["x"],
            &[("<i>".into(), vec![("1 & 2".into(), true, true)], true)],
        );
        assert!(t.contains("<caption>a &lt;b&gt;</caption>"), "{t}");
        assert!(t.contains("<th scope=\"row\">&lt;i&gt;</th><td class=\"rll-num rll-harm-cell\">1 &amp; 2 ⚠</td>"), "{t}");
        let r = burst(&BurstParams::default(), 1).unwrap();
        let answers = burst_answers(&r);
        assert_eq!(answers.matches("<li ").count(), 20);
        assert_eq!(answers.matches("data-header=\"Retry-After\"").count(), 9);
    }
}

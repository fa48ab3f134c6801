//! The limits experiments' charts and tables as markup, drawn at a given width in CSS
//! pixels: the SVG's user unit is one CSS pixel (its `width` is its `viewBox` width), so
//! its 12 px labels stay 12 px on a phone instead of shrinking with the picture. Written
//! here, as markup set with `inner_html`, because they are redrawn whole whenever a knob
//! moves, and as Leptos views they cost the limits page about 25 KB gzip of `.wasm` (the
//! same reason as the parameter sweep's chart). Every word in them is ours, and maud
//! escapes each all the same. Coordinates are written with integer formatting ([`dec`]).

use super::memory::{decade_label, decades, megabytes};
use crate::limits::settings::{KnobId, Range, KNOBS};
use crate::shared::format::{count, dec};
use crate::shared::markup::Whole;
use crate::shared::slot::Slot;
use crate::shared::ticks::time_ticks;
use crate::slot;
use maud::{html, Markup};
use sim::lab::burst::BurstResult;
use sim::lab::herd::HerdResult;
use sim::lab::memory::MemoryResult;
use sim::time::{ms, US_PER_MS};

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

/// A coordinate or a size in markup, to a tenth of a pixel ([`dec`]).
#[derive(Clone, Copy)]
struct N(f64);

impl maud::Render for N {
    fn render_to(&self, buffer: &mut String) {
        buffer.push_str(&dec(self.0, 1));
    }
}

fn n(v: f64) -> N {
    N(v)
}

/// A chart `w` × `h` CSS pixels, one user unit to a pixel, around `inner`; `slot` names
/// it when the UI has to find it.
fn svg(w: u32, h: f64, testid: &str, label: &str, slot: Option<Slot>, inner: Markup) -> Markup {
    let h = h.ceil() as u32;
    html! {
        svg.rll-chart-px width=(Whole(w.into())) height=(Whole(h.into())) viewBox={ "0 0 " (Whole(w.into())) " " (Whole(h.into())) } role="img" data-testid=(testid)
            aria-label=(label) data-slot=[slot] { (inner) }
    }
}

/// A label at (x, y); `anchor` is "start", "middle" or "end".
fn text(x: f64, y: f64, anchor: &str, words: &str) -> Markup {
    html! { text class=(LABEL) x=(n(x)) y=(n(y)) text-anchor=(anchor) { (words) } }
}

/// A horizontal line from `x1` to `x2` at `y`, of `class`.
fn hline(class: &str, x1: f64, x2: f64, y: f64) -> Markup {
    html! { line class=(class) x1=(n(x1)) x2=(n(x2)) y1=(n(y)) y2=(n(y)) {} }
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

/// The burst's chart, which the UI finds to turn a pointer's place into a time.
pub const BURST_CHART: Slot = slot!("burst-chart");

/// The handle of the burst's second volley (`second`) or first: dragged along the time
/// axis, it moves its knob.
pub const fn volley_slot(second: bool) -> Slot {
    if second {
        slot!("volley-second")
    } else {
        slot!("volley-first")
    }
}

/// The width of the burst's chart in a box `box_w` CSS pixels wide: wide enough, the
/// answers sit beside the chart (280 px and a gap); else below it.
pub fn burst_chart_width(box_w: f64) -> u32 {
    chart_width(if box_w >= 900.0 { box_w - 300.0 } else { box_w })
}

/// The burst: a lane per limiter, every window boundary, the token bucket's level under
/// its lane, and a handle on each volley (`data-volley="first"` / `"second"`).
pub fn burst_svg(r: &BurstResult, width: u32) -> Markup {
    let axis = BurstAxis::new(r.boundary_us, width);
    let x = |t: u64| axis.x(t);
    let lanes_h = LANE_H * r.lanes.len() as f64;
    let level_top = 8.0 + lanes_h + 8.0;
    let height = level_top + LEVEL_H + 44.0;
    let per_volley = r.lanes.first().map_or(1, |l| l.marks.len() / 2).max(1);
    let cols = per_volley.div_ceil(ROWS) as f64;
    let window = r.window_us;
    let right = f64::from(width) - BURST_RIGHT;
    let full = u64::from(r.limit) * 1_000;
    let level_y = |milli: u64| level_top + LEVEL_H - milli as f64 / full as f64 * LEVEL_H;
    // Full from the axis' left edge until the first arrival, then the core's points.
    let mut points = format!("{},{}", dec(BURST_LEFT, 1), dec(level_y(full), 1));
    for p in &r.bucket_level {
        points += &format!(
            " {},{}",
            dec(x(p.at_us), 1),
            dec(level_y(p.milli_tokens), 1)
        );
    }
    let inner = html! {
        @for k in axis.from_us.div_ceil(window)..=axis.to_us / window {
            @let at = n(x(k * window));
            line.rll-boundary x1=(at) x2=(at) y1="2" y2=(n(level_top + LEVEL_H)) {}
            (text(x(k * window), height - 24.0, "middle", &format!("{} s", k * window / 1_000_000)))
        }
        (text(BURST_LEFT, height - 6.0, "start", "dashes: boundaries · drag a volley"))
        @for (i, lane) in r.lanes.iter().enumerate() {
            @let y = 8.0 + i as f64 * LANE_H;
            g data-lane=(lane.limiter.as_str()) {
                (text(0.0, y + LANE_H / 2.0 + 4.0, "start", &format!("{}: {}", lane.limiter.as_str(), lane.accepted)))
                (hline("rll-lane", BURST_LEFT, right, y + LANE_H))
                @for (k, m) in lane.marks.iter().enumerate() {
                    // A volley lands within a few ms: its requests sit in columns from
                    // where it starts, so each one can be seen.
                    @let start = if k < per_volley { r.first_volley_us } else { r.second_volley_us };
                    @let j = k % per_volley;
                    @let cx = x(start) + (j / ROWS) as f64 * MARK_STEP;
                    @let cy = y + 6.0 + (j % ROWS) as f64 * MARK_STEP;
                    @if m.allowed {
                        circle.rll-accepted cx=(n(cx)) cy=(n(cy)) r="2.6" {}
                    } @else {
                        path.rll-refused d={ "M" (n(cx - 2.5)) " " (n(cy - 2.5)) "l5 5m0 -5l-5 5" } {}
                    }
                }
            }
        }
        (text(0.0, level_top + 16.0, "start", "bucket level"))
        (text(0.0, level_top + 32.0, "start", &format!("0–{} tokens", r.limit)))
        (hline("rll-lane", BURST_LEFT, right, level_top + LEVEL_H))
        polyline.rll-level data-testid="bucket-level" points=(points) {}
        @for (second, name, start) in [(false, "first", r.first_volley_us), (true, "second", r.second_volley_us)] {
            rect.rll-volley-handle data-volley=(name) data-slot=(volley_slot(second)) x=(n(x(start) - 6.0)) y="4"
                width=(n(cols * MARK_STEP + 12.0)) height=(n(lanes_h + 4.0)) {
                title { "Drag the " (name) " volley along the time axis" }
            }
        }
    };
    svg(
        width,
        height,
        "burst-chart",
        "Requests on a time axis for each limiter: dots were accepted, crosses refused. Below, the token bucket's level.",
        Some(BURST_CHART),
        inner,
    )
}

/// What the token bucket told each caller, request by request, as list items.
pub fn burst_answers(r: &BurstResult) -> Markup {
    html! {
        @for row in super::burst::header_rows(r) {
            li data-status=(Whole(row.status.into())) class=[(!row.allowed).then_some("rll-refused-row")] {
                span.rll-num { (row.at) }
                " "
                strong { (Whole(row.status.into())) }
                " "
                code data-header="RateLimit" { (row.rate_limit) }
                @if let Some(v) = &row.retry_after {
                    " "
                    code data-header="Retry-After" { (v) }
                }
            }
        }
    }
}

const HERD_LEFT: f64 = 100.0;
const HERD_RIGHT: f64 = 14.0;
const HERD_ROW_H: f64 = 64.0;
const HERD_GAP: f64 = 24.0;
/// Tick labels closer than this are skipped.
const TICK_ROOM: f64 = 56.0;

/// The herd's first wave, without jitter and with the chosen jitter, on one scale.
pub fn herd_svg(r: &HerdResult, width: u32) -> Markup {
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
    let mut last = f64::NEG_INFINITY;
    let ticks: Vec<(f64, String)> = time_ticks(end_us, f64::from(width))
        .into_iter()
        .filter_map(|(t, label)| {
            let at = x(t);
            let room = at - last >= TICK_ROOM && at + TICK_ROOM / 2.0 <= f64::from(width);
            room.then(|| {
                last = at;
                (at, label)
            })
        })
        .collect();
    let inner = html! {
        @for (row, (name, chosen)) in [("no jitter", false), (r.jitter.as_str(), true)].into_iter().enumerate() {
            @let top = 8.0 + row as f64 * (HERD_ROW_H + HERD_GAP);
            (text(0.0, top + HERD_ROW_H / 2.0, "start", name))
            @if chosen {
                (text(0.0, top + HERD_ROW_H / 2.0 + 16.0, "start", "jitter"))
            }
            (hline("rll-lane", HERD_LEFT, HERD_LEFT + plot_w, top + HERD_ROW_H))
            @let class = if chosen { "rll-bar-jitter" } else { "rll-bar-spike" };
            @for (i, b) in r.bins.iter().enumerate() {
                @let v = if chosen { b.chosen } else { b.none };
                @if v > 0 {
                    @let h = HERD_ROW_H * f64::from(v) / f64::from(peak);
                    rect class=(class) x=(n(HERD_LEFT + i as f64 * bar_w)) y=(n(top + HERD_ROW_H - h))
                        width=(n((bar_w - 1.0).max(1.0))) height=(n(h)) {
                        title { (Whole(b.start_ms)) " ms: " (Whole(v.into())) " first returns" }
                    }
                }
            }
        }
        @for (at, label) in &ticks {
            (text(*at, height - 4.0, "middle", label))
        }
    };
    svg(
        width,
        height,
        "herd-chart",
        &format!(
            "First returns per {} ms bin: without jitter, and with {} jitter.",
            r.bin_us / US_PER_MS,
            r.jitter
        ),
        None,
        inner,
    )
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
pub fn memory_svg(r: &MemoryResult, width: u32) -> Markup {
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
    let inner = html! {
        @for e in 0..=exps {
            @let at = MEM_LEFT + f64::from(e) / f64::from(exps) * plot_w;
            line.rll-grid x1=(n(at)) x2=(n(at)) y1="2" y2=(n(axis_y)) {}
            @if e % step == 0 {
                (text(at, axis_y + 16.0, "middle", &decade_label(e)))
            }
        }
        @for (i, m) in r.rows.iter().enumerate() {
            @let y = 6.0 + i as f64 * MEM_ROW_H;
            (text(0.0, y + BAR_H / 2.0 + 4.0, "start", m.limiter.as_str()))
            rect.rll-bar-memory x=(n(MEM_LEFT)) y=(n(y)) width=(n(x(m.total_bytes) - MEM_LEFT)) height=(n(BAR_H)) {
                title { (m.limiter.as_str()) ": " (megabytes(m.total_bytes)) " (" (count(m.total_bytes)) " bytes)" }
            }
        }
    };
    svg(
        width,
        height,
        "memory-chart",
        "Total bytes per limiter, on a log axis",
        None,
        inner,
    )
}

/// A table cell: its text, whether it is a number, and whether it marks harm.
pub type Cell = (String, bool, bool);

/// A table row: its name (the row's header), its cells, and whether it is the chosen one.
pub type Row = (String, Vec<Cell>, bool);

/// A result table: a header row, then rows named by their first cell; `chosen` rows are
/// bold.
pub fn table_html(caption: &str, head: &[&str], rows: &[Row]) -> Markup {
    html! {
        table {
            @if !caption.is_empty() {
                caption { (caption) }
            }
            thead { tr { @for h in head { th scope="col" { (h) } } } }
            tbody {
                @for (name, cells, chosen) in rows {
                    tr class=[chosen.then_some("rll-chosen")] {
                        th scope="row" { (name) }
                        @for (t, is_num, harm) in cells {
                            @let class = match (is_num, harm) {
                                (true, true) => Some("rll-num rll-harm-cell"),
                                (true, false) => Some("rll-num"),
                                (false, true) => Some("rll-harm-cell"),
                                (false, false) => None,
                            };
                            td class=[class] {
                                (t)
                                @if *harm { " ⚠" }
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
        ]
        .map(Markup::into_string);
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
            // Inside <svg> the HTML parser closes no element by its name: each is closed.
            for tag in ["line", "circle", "path", "polyline", "rect", "text", "g"] {
                assert_eq!(
                    svg.matches(&format!("<{tag} ")).count(),
                    svg.matches(&format!("</{tag}>")).count(),
                    "{tag}"
                );
            }
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
        )
        .into_string();
        assert!(t.contains("<caption>a &lt;b&gt;</caption>"), "{t}");
        assert!(t.contains("<th scope=\"row\">&lt;i&gt;</th><td class=\"rll-num rll-harm-cell\">1 &amp; 2 ⚠</td>"), "{t}");
        let r = burst(&BurstParams::default(), 1).unwrap();
        let answers = burst_answers(&r).into_string();
        assert_eq!(answers.matches("<li ").count(), 20);
        assert_eq!(answers.matches("data-header=\"Retry-After\"").count(), 9);
    }
}

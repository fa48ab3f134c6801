//! The timeline: every request as a mark at (time sent, customer), and under it the
//! provider's rate window and in-flight count against their limits. Drawn on a canvas
//! (set up by [`crate::shared::canvas`]), at most once per animation frame, from the core's
//! record and series.

use crate::shared::canvas::{context, Css, Fit};
use crate::shared::use_animation_frame::now_ms;
use page::run::timeline::{limit_label, INFLIGHT_BAND_LABEL, MARKS_LABEL, RATE_BAND_LABEL};
use sim::record::RequestRecord;
use sim::timeline::{Mark, MarkKind, Series};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// What one timeline draws.
pub struct TimelineData<'a> {
    /// The requests so far.
    pub record: &'a [RequestRecord],
    /// Simulated time now: nothing after it exists yet.
    pub now_us: u64,
    /// The right end of the time axis.
    pub axis_end_us: u64,
    /// Rows: customers `1..=customers`.
    pub customers: u32,
    /// The provider's rate limit and window, and its in-flight limit.
    pub rate_limit: u32,
    /// Length of the rate window.
    pub rate_window_us: u64,
    /// In-flight limit.
    pub max_inflight: u32,
    /// Requests that may wait for a busy provider (0: no queue).
    pub queue_limit: u32,
    /// The run has finished: no "now" line.
    pub finished: bool,
    /// A previous run's requests, drawn faintly under these (empty: none).
    pub ghost: &'a [RequestRecord],
    /// A customer whose row and marks stand out (pointed at in the grid, or open).
    pub highlight: Option<u32>,
    /// The provider's incident, shaded once it has begun (none: no incident).
    pub incident: Option<sim::incident::IncidentPlan>,
    /// A harm the playhead is on, pointed at (none: nothing pointed at).
    pub pointed: Option<Pointed>,
}

/// A harm pointed at on the timeline: where money moved for its customer (or where the
/// harm happened), each ringed, and for more than one, joined by a labelled connector.
pub struct Pointed {
    /// Whose row.
    pub customer: u32,
    /// The instants to ring on that row, in order.
    pub at_us: Vec<u64>,
    /// The connector's words, the page layer's ("charged twice"); none: no connector.
    pub label: Option<String>,
}

impl<'a> TimelineData<'a> {
    /// What a simulation shows now, on an axis ending at `axis_end_us`.
    pub fn of(sim: &'a sim::Simulation, axis_end_us: u64) -> Self {
        let sc = sim.scenario();
        Self {
            record: sim.record().unwrap_or(&[]),
            now_us: sim.now_us(),
            axis_end_us,
            customers: sc.customers,
            rate_limit: sc.provider.rate_limit,
            rate_window_us: sc.provider.rate_window_us,
            max_inflight: sc.provider.max_inflight,
            queue_limit: sc.provider.queue_limit,
            finished: sim.is_finished(),
            ghost: &[],
            highlight: None,
            incident: Some(sc.provider.incident)
                .filter(|i| i.kind != sim::incident::Incident::None),
            pointed: None,
        }
    }
}

/// The font of every word and number on a timeline: 12 CSS px, the smallest chart text
/// the lab uses at any width (one unit of the canvas is one CSS pixel).
pub const CHART_FONT: &str = "12px system-ui, sans-serif";

/// Layout of one timeline, in CSS pixels.
#[derive(Clone, Copy)]
pub struct Layout {
    /// Height of the marks band.
    pub marks_h: f64,
    /// Height of each series band (0 hides the rate band; small multiples keep in flight).
    pub rate_h: f64,
    /// Height of the in-flight band.
    pub inflight_h: f64,
    /// Room on the left for labels.
    pub left: f64,
}

impl Layout {
    /// The full timeline of the run view.
    pub const FULL: Layout = Layout {
        marks_h: 230.0,
        rate_h: 64.0,
        inflight_h: 64.0,
        left: 74.0,
    };
    /// The run view in the presenter's layout: drawn 4/3 larger, so a shorter band of
    /// marks keeps the whole stage on a 768 px projector.
    pub const PRESENT: Layout = Layout {
        marks_h: 126.0,
        ..Layout::FULL
    };
    /// A small multiple in the compare view.
    pub const COMPACT: Layout = Layout {
        marks_h: 90.0,
        rate_h: 0.0,
        inflight_h: 34.0,
        left: 8.0,
    };

    const GAP: f64 = 14.0;
    const AXIS: f64 = 20.0;
    /// Room above the marks.
    pub const TOP: f64 = 6.0;

    /// Total height.
    pub fn height(&self) -> f64 {
        let bands = [self.rate_h, self.inflight_h]
            .iter()
            .filter(|h| **h > 0.0)
            .map(|h| h + Self::GAP)
            .sum::<f64>();
        Self::TOP + self.marks_h + bands + Self::AXIS
    }
}

/// The timeline's colours, from the page's CSS custom properties. A timeline reads them
/// once, through [`crate::shared::canvas::use_canvas`], not on every frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Palette {
    text: String,
    muted: String,
    grid: String,
    limit: String,
    series: String,
    kinds: Vec<String>,
}

impl Palette {
    /// The colours in a canvas's style.
    pub fn read(css: &Css) -> Palette {
        let text = css.var("--rll-text", "#222");
        Palette {
            muted: css.var("--rll-muted", "#666"),
            grid: css.var("--rll-border", "#ddd"),
            limit: css.var("--rll-harm", "#c33"),
            series: css.var("--rll-accent", "#36c"),
            kinds: MarkKind::ALL
                .iter()
                .map(|k| css.var(&kind_var(*k), &text))
                .collect(),
            text,
        }
    }
}

/// The CSS custom property holding a mark kind's colour.
pub fn kind_var(kind: MarkKind) -> String {
    format!("--rll-mark-{}", kind.as_str())
}

/// The request whose mark is nearest to (`px`, `py`) in the drawing's CSS pixels, within
/// `reach` pixels: the inverse of [`draw`]'s placement of marks, for pointing at one.
pub fn mark_at(
    data: &TimelineData,
    width: f64,
    layout: Layout,
    px: f64,
    py: f64,
    reach: f64,
) -> Option<RequestRecord> {
    let plot_w = (width.max(200.0) - layout.left - 8.0).max(10.0);
    let axis_end_us = data.axis_end_us.max(data.now_us).max(1) as f64;
    let rows = f64::from(data.customers.max(2) - 1);
    data.record
        .iter()
        .map(|r| {
            let x = layout.left + r.sent_at_us as f64 / axis_end_us * plot_w;
            let y = Layout::TOP + f64::from(r.customer - 1) / rows * layout.marks_h;
            ((x - px).powi(2) + (y - py).powi(2), r)
        })
        .filter(|(d, _)| *d <= reach * reach)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, r)| *r)
}

/// Draws `data` on `canvas`; returns the time it took, in milliseconds.
/// `width` is the canvas's CSS width, measured once by the caller: reading it on every
/// frame would force a layout while the rest of the page is changing.
pub fn draw(
    canvas: &HtmlCanvasElement,
    pal: &Palette,
    width: f64,
    data: &TimelineData,
    layout: Layout,
) -> f64 {
    let started_ms = now_ms();
    let width = width.max(200.0);
    let Some(ctx) = context(canvas, width, layout.height(), Fit::AspectRatio) else {
        return 0.0;
    };

    let left = layout.left;
    let plot_w = (width - left - 8.0).max(10.0);
    let axis_end_us = data.axis_end_us.max(data.now_us).max(1);
    let x = |t_us: u64| left + t_us as f64 / axis_end_us as f64 * plot_w;

    // Band 1: the marks.
    let top = Layout::TOP;
    let rows = f64::from(data.customers.max(2) - 1);
    let y = |customer: u32| top + f64::from(customer - 1) / rows * layout.marks_h;
    let r = if data.customers <= 2_000 { 2.4 } else { 1.3 };
    ctx.set_line_width(1.0);
    // The ghost: the run before, one faint dot per request, under everything else.
    if !data.ghost.is_empty() {
        ctx.set_global_alpha(0.22);
        ctx.set_fill_style_str(&pal.muted);
        ctx.begin_path();
        for rec in data
            .ghost
            .iter()
            .filter(|r| r.customer <= data.customers.max(1))
        {
            let (xx, yy) = (x(rec.sent_at_us.min(axis_end_us)), y(rec.customer));
            ctx.move_to(xx + r, yy);
            let _ = ctx.arc(xx, yy, r, 0.0, std::f64::consts::TAU);
        }
        ctx.fill();
        ctx.set_global_alpha(1.0);
    }
    // Slow requests: a line for the time the provider spent on them.
    ctx.set_stroke_style_str(&pal.muted);
    ctx.begin_path();
    for rec in data.record.iter() {
        let slow = matches!(
            rec.admission,
            sim::record::Admission::Admitted { slow: true, .. }
        );
        if slow {
            let yy = y(rec.customer);
            ctx.move_to(x(rec.sent_at_us), yy);
            ctx.line_to(x(rec.done_at_us.min(data.now_us)), yy);
        }
    }
    ctx.stroke();
    for (kind, colour) in MarkKind::ALL.into_iter().zip(&pal.kinds) {
        ctx.set_fill_style_str(colour);
        ctx.set_stroke_style_str(colour);
        ctx.begin_path();
        for m in data.record.iter().map(Mark::of).filter(|m| m.kind == kind) {
            shape(&ctx, kind, x(m.sent_at_us), y(m.customer), r);
        }
        if filled(kind) {
            ctx.fill();
        } else {
            ctx.stroke();
        }
    }
    // A charge that landed after the client stopped waiting: a ring where the money moved.
    ctx.set_stroke_style_str(&pal.limit);
    ctx.set_line_width(1.5);
    ctx.begin_path();
    for rec in data
        .record
        .iter()
        .filter(|r| r.answered_after_client_left() && r.charged)
    {
        let (xx, yy) = (x(rec.done_at_us), y(rec.customer));
        ctx.move_to(xx + r + 2.0, yy);
        let _ = ctx.arc(xx, yy, r + 2.0, 0.0, std::f64::consts::TAU);
    }
    ctx.stroke();
    // The customer pointed at: a line along their row and a ring on each of their marks.
    if let Some(c) = data.highlight.filter(|c| (1..=data.customers).contains(c)) {
        let yy = y(c);
        ctx.set_stroke_style_str(&pal.text);
        ctx.set_line_width(1.0);
        ctx.begin_path();
        ctx.move_to(left, yy);
        ctx.line_to(left + plot_w, yy);
        for rec in data.record.iter().filter(|r| r.customer == c) {
            let xx = x(rec.sent_at_us);
            ctx.move_to(xx + r + 3.5, yy);
            let _ = ctx.arc(xx, yy, r + 3.5, 0.0, std::f64::consts::TAU);
        }
        ctx.stroke();
    }
    // The harm pointed at: rings where it happened, joined by a bracket with its words
    // (above the row, or below it near the top).
    if let Some(p) = data
        .pointed
        .as_ref()
        .filter(|p| (1..=data.customers).contains(&p.customer) && !p.at_us.is_empty())
    {
        let yy = y(p.customer);
        let ring = r + 5.0;
        ctx.set_stroke_style_str(&pal.limit);
        ctx.set_fill_style_str(&pal.limit);
        ctx.set_line_width(2.5);
        ctx.begin_path();
        for &t in &p.at_us {
            let xx = x(t);
            ctx.move_to(xx + ring, yy);
            let _ = ctx.arc(xx, yy, ring, 0.0, std::f64::consts::TAU);
        }
        let (x0, x1) = (x(p.at_us[0]), x(p.at_us[p.at_us.len() - 1]));
        let above = yy - ring - 24.0 > 0.0;
        let dir = if above { -1.0 } else { 1.0 };
        let (near, far) = (yy + dir * (ring + 1.0), yy + dir * (ring + 10.0));
        if let Some(label) = p.label.as_deref() {
            ctx.move_to(x0, near);
            ctx.line_to(x0, far);
            ctx.line_to(x1, far);
            ctx.line_to(x1, near);
            ctx.stroke();
            ctx.set_font(CHART_FONT);
            ctx.set_text_align("center");
            let ty = if above { far - 4.0 } else { far + 13.0 };
            // Kept inside the plot (`max`/`min`, not `clamp`, whose panic message would
            // bring float formatting into the module).
            let tx = ((x0 + x1) / 2.0).min(left + plot_w - 40.0).max(left + 40.0);
            let _ = ctx.fill_text(label, tx, ty);
            ctx.set_text_align("start");
        } else {
            ctx.stroke();
        }
    }
    ctx.set_line_width(1.0);
    let mut band_top = top + layout.marks_h + Layout::GAP;
    label(&ctx, &pal.muted, layout, MARKS_LABEL, top + 10.0);

    // Bands 2 and 3: the series against their limits.
    let bin_us = (axis_end_us / (plot_w as u64 / 2).max(1)).max(10_000);
    let series = Series::of(data.record, data.rate_window_us, data.now_us, bin_us);
    let bands = [
        (
            layout.rate_h,
            &series.rate_window,
            data.rate_limit,
            RATE_BAND_LABEL,
            false,
        ),
        (
            layout.inflight_h,
            &series.inflight,
            data.max_inflight,
            INFLIGHT_BAND_LABEL,
            data.queue_limit > 0,
        ),
    ];
    for (h, values, limit, name, queued_above) in bands {
        if h <= 0.0 {
            continue;
        }
        let peak = values.iter().copied().max().unwrap_or(0).max(limit) as f64 * 1.15;
        let yv = |v: f64| band_top + h - v / peak * h;
        ctx.set_stroke_style_str(&pal.grid);
        ctx.begin_path();
        ctx.move_to(left, band_top + h);
        ctx.line_to(left + plot_w, band_top + h);
        ctx.stroke();
        // The limit, dashed.
        ctx.set_stroke_style_str(&pal.limit);
        let _ = ctx.set_line_dash(&js_sys::Array::of2(&4.0.into(), &3.0.into()));
        ctx.begin_path();
        ctx.move_to(left, yv(f64::from(limit)));
        ctx.line_to(left + plot_w, yv(f64::from(limit)));
        ctx.stroke();
        let _ = ctx.set_line_dash(&js_sys::Array::new());
        // The series, as steps.
        ctx.set_stroke_style_str(&pal.series);
        ctx.set_line_width(1.5);
        ctx.begin_path();
        for (i, v) in values.iter().enumerate() {
            let (x0, x1) = (
                x(i as u64 * bin_us),
                x(((i as u64 + 1) * bin_us).min(data.now_us)),
            );
            let yy = yv(f64::from(*v));
            if i == 0 {
                ctx.move_to(x0, yy);
            } else {
                ctx.line_to(x0, yy);
            }
            ctx.line_to(x1, yy);
        }
        ctx.stroke();
        ctx.set_line_width(1.0);
        if layout.left > 20.0 {
            label(&ctx, &pal.muted, layout, name, band_top + h - 2.0);
            // The limit's own label sits at the right end of its dashed line.
            ctx.set_text_align("right");
            ctx.set_fill_style_str(&pal.limit);
            let _ = ctx.fill_text(
                &limit_label(limit, queued_above),
                left + plot_w,
                yv(f64::from(limit)) - 3.0,
            );
            ctx.set_text_align("start");
        }
        band_top += h + Layout::GAP;
    }

    // The time axis, fitted to the run: milliseconds for a short one.
    let axis_y = band_top - Layout::GAP + 4.0;
    ctx.set_fill_style_str(&pal.muted);
    ctx.set_font(CHART_FONT);
    for (t_us, text) in page::shared::ticks::time_ticks(axis_end_us, plot_w) {
        let xx = x(t_us);
        // Skip a label that would run off the right edge.
        if xx + 30.0 <= width {
            let _ = ctx.fill_text(&text, xx - 6.0, axis_y + 12.0);
        }
    }
    // The incident, shaded from its start to its end (or to now, while it lasts).
    if let Some(plan) = data
        .incident
        .filter(|p| p.start_us < data.now_us.min(axis_end_us))
    {
        let x0 = x(plan.start_us);
        let x1 = x(plan.end_us().min(data.now_us).min(axis_end_us));
        ctx.set_global_alpha(0.12);
        ctx.set_fill_style_str(&pal.limit);
        ctx.fill_rect(x0, top - 4.0, (x1 - x0).max(1.0), axis_y - top + 4.0);
        ctx.set_global_alpha(1.0);
        ctx.set_font(CHART_FONT);
        let _ = ctx.fill_text(
            &page::run::incident::band_label(plan.kind),
            x0 + 3.0,
            top + 6.0,
        );
    }
    // Now, while playing.
    if !data.finished && data.now_us < axis_end_us {
        ctx.set_stroke_style_str(&pal.text);
        ctx.begin_path();
        ctx.move_to(x(data.now_us), top);
        ctx.line_to(x(data.now_us), axis_y);
        ctx.stroke();
    }
    now_ms() - started_ms
}

fn label(ctx: &CanvasRenderingContext2d, colour: &str, layout: Layout, text: &str, y: f64) {
    if layout.left < 20.0 {
        return;
    }
    ctx.set_fill_style_str(colour);
    ctx.set_font(CHART_FONT);
    let _ = ctx.fill_text(text, 2.0, y);
}

/// Whether a kind's shape is filled (the others are outlines).
fn filled(kind: MarkKind) -> bool {
    !matches!(
        kind,
        MarkKind::TooMany | MarkKind::TimedOut | MarkKind::Waiting | MarkKind::KeyReused
    )
}

/// Adds one mark's shape to the current path. Each kind has its own shape, so colour is
/// never the only difference.
fn shape(ctx: &CanvasRenderingContext2d, kind: MarkKind, x: f64, y: f64, r: f64) {
    match kind {
        MarkKind::Ok => {
            ctx.move_to(x + r, y);
            let _ = ctx.arc(x, y, r, 0.0, std::f64::consts::TAU);
        }
        MarkKind::Declined => ctx.rect(x - r, y - r, 2.0 * r, 2.0 * r),
        MarkKind::Conflict => {
            ctx.move_to(x, y - r * 1.3);
            ctx.line_to(x + r * 1.2, y + r);
            ctx.line_to(x - r * 1.2, y + r);
            ctx.close_path();
        }
        MarkKind::KeyReused => {
            ctx.move_to(x, y + r * 1.3);
            ctx.line_to(x + r * 1.2, y - r);
            ctx.line_to(x - r * 1.2, y - r);
            ctx.close_path();
        }
        MarkKind::TooMany => {
            ctx.move_to(x - r, y - r);
            ctx.line_to(x + r, y + r);
            ctx.move_to(x + r, y - r);
            ctx.line_to(x - r, y + r);
        }
        MarkKind::ServerError => {
            ctx.move_to(x, y - r * 1.4);
            ctx.line_to(x + r * 1.4, y);
            ctx.line_to(x, y + r * 1.4);
            ctx.line_to(x - r * 1.4, y);
            ctx.close_path();
        }
        MarkKind::Overloaded => {
            ctx.move_to(x - r * 1.2, y - r);
            ctx.line_to(x + r * 1.2, y - r);
            ctx.line_to(x, y + r * 1.3);
            ctx.close_path();
        }
        MarkKind::TimedOut => {
            ctx.move_to(x + r * 1.3, y);
            let _ = ctx.arc(x, y, r * 1.3, 0.0, std::f64::consts::TAU);
        }
        MarkKind::Waiting => ctx.rect(x - r, y - r, 2.0 * r, 2.0 * r),
    }
}

//! Goodput over time, for traffic that keeps arriving: per second, the customers who
//! arrived, the requests the client sent and the charges it learned of (its goodput),
//! with the incident's span shaded and, once the run is over, where goodput came back.
//!
//! The picture is SVG in plot units (`viewBox` 0..[`WIDTH`] × 0..[`HEIGHT`], stretched to
//! its box), whole numbers only, and `aria-hidden`: a sentence under it says with the
//! run's own numbers what it shows, and the legend says in words what each line is. The
//! few words on the picture (the incident's name, where goodput came back, the time axis)
//! are text beside the SVG, placed by percent of its width, so they keep their size on a
//! phone. A batch (every customer at t = 0) gets no chart: the UI shows none.

use super::incident::band_label;
use crate::shared::format::{capitalised, count, duration_ms};
use crate::shared::live::{Fill, Live};
use crate::shared::markup::Whole;
use crate::shared::slot::Slot;
use crate::shared::ticks::time_ticks;
use crate::slot;
use maud::{html, Markup};
use sim::flow::Second;
use sim::incident::{Incident, IncidentPlan};
use sim::time::{whole_ms, US_PER_MS, US_PER_S};
use sim::Stats;

/// The class of the chart's box in the UI.
pub const FLOW_CLASS: &str = "rll-flow";
/// The `data-testid` of the chart's box in the UI.
pub const FLOW_TESTID: &str = "flow-chart";
/// The chart's title, its box's label for screen readers.
pub const FLOW_TITLE: &str = "Goodput over time";

/// Where a module without the chart (the bare address's and the walk's, which keep a
/// first visit's download small) points for it, under traffic that keeps arriving: the
/// run page, with the same run.
pub fn elsewhere_markup(scenario: &sim::Scenario) -> Markup {
    html! {
        p.rll-callout data-testid=(FLOW_TESTID) {
            (FLOW_TITLE) " is drawn on "
            a href=(crate::query::links::run_href(scenario.strategy, scenario)) { "the run page" }
            "."
        }
    }
}

/// The plot's width in its own units.
pub const WIDTH: u64 = 1000;
/// The plot's height in its own units: the busiest second of any line is this tall.
pub const HEIGHT: u64 = 200;
/// The narrowest the incident's band is drawn, in plot units, so a short one still shows.
const MIN_BAND: u64 = 4;
/// The sentence's last figures are averaged over at most this many seconds of arrivals.
pub const LAST_SPAN_S: usize = 15;
/// The time axis is spaced for a plot this wide, in CSS pixels (a phone's), so its
/// labels never touch; a wider screen shows the same ticks further apart.
const AXIS_PX: f64 = 340.0;
/// A label whose place is past this share of the width, in plot units, is set by its
/// right edge, so it stays inside the chart.
const RIGHT_ALIGN_FROM: u64 = 600;
/// The furthest right a tick is centred, in plot units: half a label's width from the
/// edge on a phone.
const LAST_TICK_MAX: u64 = 930;

/// Averages over a span of whole seconds, rounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rates {
    /// How many seconds.
    pub span_s: u64,
    /// Customers who arrived, a second.
    pub arrivals: u64,
    /// Requests the client sent, a second.
    pub sent: u64,
    /// Charges the client learned of, a second.
    pub goodput: u64,
}

impl Rates {
    /// The averages over `seconds` (all zero for none).
    pub fn over(seconds: &[Second]) -> Self {
        let n = seconds.len() as u64;
        let avg = |f: fn(&Second) -> u32| {
            let sum: u64 = seconds.iter().map(|s| u64::from(f(s))).sum();
            (sum + n / 2).checked_div(n).unwrap_or(0)
        };
        Self {
            span_s: n,
            arrivals: avg(|s| s.arrivals),
            sent: avg(|s| s.sent),
            goodput: avg(|s| s.goodput),
        }
    }
}

/// Whether goodput came back after the incident, as the chart tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Back {
    /// The run is still going (or it had no incident, or was over before it): nothing
    /// to say.
    Unknown,
    /// Back this many milliseconds after the incident's end, and back to the run's end.
    After(u64),
    /// Not back for good by the run's end: the recovery is a lower bound of `ms`, and
    /// goodput was up `up_percent` of the seconds after the incident.
    Never {
        /// The lower bound, in ms.
        ms: u64,
        /// [`Stats::goodput_up_percent`].
        up_percent: u64,
    },
}

impl Back {
    /// What the run's `recovery_ms` (its `goodput_recovery_ms`, `None` while it plays)
    /// says over `seconds`. The core gives, when goodput never came back, the time from
    /// the incident's end to the end of the last second recorded; a recovery it found
    /// starts at a whole second before that one, so is at least a second short of it.
    pub fn of(seconds: &[Second], incident: &IncidentPlan, recovery: Option<Recovery>) -> Self {
        match recovery {
            _ if incident.kind == Incident::None => Back::Unknown,
            None => Back::Unknown,
            // Over before the incident: nothing came back, nothing went.
            Some(_) if seconds.len() as u64 * US_PER_S <= incident.start_us => Back::Unknown,
            Some(r) if r.came_back => Back::After(r.ms),
            Some(r) => Back::Never {
                ms: r.ms,
                up_percent: r.up_percent,
            },
        }
    }
}

/// A finished run's goodput recovery: its figure, and whether goodput came back at all
/// (the core's rule, [`Stats::goodput_came_back`]) or the figure is the lower bound of a
/// recovery that never came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recovery {
    /// [`Stats::goodput_recovery_ms`].
    pub ms: u64,
    /// True if goodput came back.
    pub came_back: bool,
    /// [`Stats::goodput_up_percent`].
    pub up_percent: u64,
}

impl Recovery {
    /// The recovery of a finished run with `stats`, under `incident`.
    pub fn of(stats: &Stats, incident: &IncidentPlan) -> Self {
        Self {
            ms: stats.goodput_recovery_ms,
            came_back: stats.goodput_came_back(incident),
            up_percent: stats.goodput_up_percent,
        }
    }
}

/// The figures the sentence says, computed from the seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// The whole seconds before the incident (every second with none); `None` if there
    /// are none yet, or with no incident.
    pub before: Option<Rates>,
    /// The last [`LAST_SPAN_S`] seconds of arrivals (after the incident's end, if any);
    /// `None` if there are none yet.
    pub last: Option<Rates>,
    /// True if any customer has arrived.
    pub arrived: bool,
}

impl Figures {
    /// The figures of `seconds` around `incident`.
    pub fn of(seconds: &[Second], incident: &IncidentPlan) -> Self {
        let calm = incident.kind == Incident::None;
        // Past the last second that saw an arrival, customers are done arriving.
        let arrivals_end = seconds
            .iter()
            .rposition(|s| s.arrivals > 0)
            .map_or(0, |i| i + 1);
        let after = if calm {
            0
        } else {
            incident.end_us().div_ceil(US_PER_S) as usize
        };
        let from = after.max(arrivals_end.saturating_sub(LAST_SPAN_S));
        let last = (from < arrivals_end).then(|| Rates::over(&seconds[from..arrivals_end]));
        let before_end = ((incident.start_us / US_PER_S) as usize).min(seconds.len());
        let before = (!calm && before_end > 0).then(|| Rates::over(&seconds[..before_end]));
        Self {
            before,
            last,
            arrived: arrivals_end > 0,
        }
    }
}

/// What the incident is called in the sentence.
fn incident_noun(kind: Incident) -> &'static str {
    match kind {
        Incident::Down => "outage",
        _ => "incident",
    }
}

/// The sentence under the chart: what the client learned of before the incident, over
/// the last seconds of arrivals, and whether goodput came back, every number from the run.
pub fn flow_sentence(figures: &Figures, incident: &IncidentPlan, back: Back) -> String {
    let noun = incident_noun(incident.kind);
    let before = figures.before.map(|b| {
        format!(
            "Before the {noun} the client learned of {} charges a second",
            count(b.goodput)
        )
    });
    let last = figures.last.map(|r| {
        let (after, who) = match (incident.kind, &before) {
            (_, Some(_)) => (String::new(), "it"),
            (Incident::None, None) => (String::new(), "the client"),
            (_, None) => (format!(" after the {noun}"), "the client"),
        };
        format!(
            "over the last {} s of arrivals{after}, {who} learned of {} charges a second for {} customers arriving a second, while it sent {} requests a second",
            r.span_s,
            count(r.goodput),
            count(r.arrivals),
            count(r.sent)
        )
    });
    let mut text = match (before, last) {
        (Some(b), Some(l)) => format!("{b}; {l}."),
        (Some(b), None) => format!("{b}."),
        (None, Some(l)) => format!("{}.", capitalised(&l)),
        (None, None) if figures.arrived => {
            format!("The {noun} is not over yet: the chart fills in as it goes.")
        }
        (None, None) => "No customer has arrived yet: the chart fills in as they do.".to_string(),
    };
    let after = |ms| match ms {
        0 => String::new(),
        ms => format!(", {} after the {noun} ended", duration_ms(ms)),
    };
    text += &match back {
        Back::Unknown => String::new(),
        Back::After(0) => format!(" Goodput was back as soon as the {noun} ended, and stayed."),
        Back::After(ms) => format!(
            " Goodput was back {} after the {noun} ended, and stayed.",
            duration_ms(ms)
        ),
        Back::Never { ms, up_percent: 0 } => {
            format!(" Goodput was not back by the run's end{}.", after(ms))
        }
        Back::Never { ms, up_percent } => format!(
            " Goodput did not recover: it was up in only {up_percent}% of the seconds after the {noun}, and not back for good by the run's end{}.",
            after(ms)
        ),
    };
    text
}

/// The words at the recovery's marker (or at the chart's right edge when there is none).
pub fn back_label(back: Back) -> Option<String> {
    match back {
        Back::Unknown => None,
        Back::After(0) => Some("back at once".to_string()),
        Back::After(ms) => Some(format!("back after {}", duration_ms(ms))),
        Back::Never { .. } => Some("not back by the run's end".to_string()),
    }
}

/// What a line plots of each second.
type Value = fn(&Second) -> u32;

/// The lines, from the back: each one's class and what it plots.
const SERIES: [(&str, Value); 3] = [
    ("rll-flow-arrivals", |s| s.arrivals),
    ("rll-flow-sent", |s| s.sent),
    ("rll-flow-goodput", |s| s.goodput),
];

/// `t_us` on an axis of `axis_us`, in plot units (0..=[`WIDTH`]).
fn x_of(t_us: u64, axis_us: u64) -> u64 {
    t_us.min(axis_us).saturating_mul(WIDTH) / axis_us.max(1)
}

/// One series as a step line in plot units: a level per second, on an axis of `axis_s`
/// seconds, scaled so that `peak` is full height.
fn step_path(seconds: &[Second], value: Value, axis_s: u64, peak: u64) -> String {
    let y_of = |s: &Second| HEIGHT - u64::from(value(s)).min(peak) * HEIGHT / peak.max(1);
    let mut d = format!("M0 {}", seconds.first().map_or(HEIGHT, y_of));
    for (i, s) in seconds.iter().enumerate() {
        let right = x_of((i as u64 + 1) * US_PER_S, axis_s * US_PER_S);
        d += &format!("V{}H{right}", y_of(s));
    }
    d
}

/// The time axis's ticks: (place in plot units, label), centred on their time; one too
/// close to the right edge to fit whole is left out (the first stays).
fn axis_ticks(axis_us: u64) -> Vec<(u64, String)> {
    time_ticks(axis_us, AXIS_PX)
        .into_iter()
        .enumerate()
        .map(|(i, (t, label))| (i, x_of(t, axis_us), label))
        .filter(|&(i, x, _)| i == 0 || x <= LAST_TICK_MAX)
        .map(|(_, x, label)| (x, label))
        .collect()
}

/// A label's place along the chart, as CSS: from the left up to [`RIGHT_ALIGN_FROM`],
/// from the right past it, in percent to a tenth.
fn place(x: u64) -> String {
    let (side, from) = if x <= RIGHT_ALIGN_FROM {
        ("left", x)
    } else {
        ("right", WIDTH - x)
    };
    format!("{side}:{}.{}%", from / 10, from % 10)
}

/// The chart's figure, live: its data attributes, the sentence's numbers for tests.
pub const FIGURE: Slot = slot!("flow-figure");
/// The incident's band.
pub const BAND: Slot = slot!("flow-band");
/// Each line, from the back ([`SERIES`]).
pub const LINE: Slot = slot!("flow-line");
/// The line where goodput came back.
pub const BACK_LINE: Slot = slot!("flow-back-line");
/// The incident's name over its band.
pub const BAND_LABEL: Slot = slot!("flow-band-label");
/// The words where goodput came back.
pub const BACK_LABEL: Slot = slot!("flow-back-label");
/// The time axis's ticks, replaced as markup when the axis changes length (their number
/// changes with it).
pub const AXIS: Slot = slot!("flow-axis");
/// The legend, replaced as markup when its span or its peak changes (a sentence with
/// one clause that comes and goes).
pub const LEGEND: Slot = slot!("flow-legend");
/// The sentence under the chart.
pub const SENTENCE: Slot = slot!("flow-sentence");

/// What the chart shows: `seconds` (whole seconds from t = 0, as far as the run has been
/// shown), the run's `incident`, an axis of `axis_s` seconds (longer if the seconds
/// are), and `recovery`, the run's goodput recovery once it has finished (`None` while
/// it plays).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlowState {
    /// The seconds shown.
    pub seconds: Vec<Second>,
    /// The run's incident.
    pub incident: IncidentPlan,
    /// The axis's length, in seconds.
    pub axis_s: u64,
    /// The run's goodput recovery, once it has finished.
    pub recovery: Option<Recovery>,
}

/// The places and figures of a chart, worked out once for its shape and its drawing.
struct Plot {
    axis_s: u64,
    axis_us: u64,
    peak: u64,
    figures: Figures,
    back: Back,
    band: Option<(u64, u64)>,
    marker: Option<u64>,
    back_at: Option<u64>,
}

impl Plot {
    fn of(st: &FlowState) -> Self {
        let (seconds, incident) = (&st.seconds, &st.incident);
        let axis_s = st.axis_s.max(seconds.len() as u64).max(1);
        let axis_us = axis_s * US_PER_S;
        let peak = seconds
            .iter()
            .map(|s| s.arrivals.max(s.sent).max(s.goodput))
            .max()
            .unwrap_or(0)
            .max(1);
        let back = Back::of(seconds, incident, st.recovery);
        // Only the part of the incident the axis holds; none if it starts past the end.
        let band = (incident.kind != Incident::None && incident.start_us < axis_us).then(|| {
            let left = x_of(incident.start_us, axis_us).min(WIDTH - MIN_BAND);
            let right = x_of(incident.end_us(), axis_us).max(left + MIN_BAND);
            (left, right - left)
        });
        let marker = match back {
            Back::After(ms) => Some(x_of(
                incident.end_us().saturating_add(ms * US_PER_MS),
                axis_us,
            )),
            _ => None,
        };
        let back_at = match back {
            Back::After(_) => marker,
            Back::Never { .. } => Some(WIDTH),
            Back::Unknown => None,
        };
        Self {
            axis_s,
            axis_us,
            peak: u64::from(peak),
            figures: Figures::of(seconds, incident),
            back,
            band,
            marker,
            back_at,
        }
    }
}

/// The goodput chart's box ([`Live`]): empty (and hidden by the stylesheet) with
/// nothing to chart, else the chart. Its nodes stay while the run goes; each second
/// writes the lines' paths, the figures and the sentence in place. Which parts are
/// drawn (the band, the lines, the recovery's mark and words) is its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow;

impl Live for Flow {
    type State = Option<FlowState>;

    fn shape(&self, state: &Option<FlowState>) -> u64 {
        state.as_ref().map_or(0, |st| {
            let p = Plot::of(st);
            let back_label = p.back_at.is_some() && back_label(p.back).is_some();
            [
                true,
                p.band.is_some(),
                !st.seconds.is_empty(),
                p.marker.is_some(),
                back_label,
            ]
            .iter()
            .fold(0, |n, b| n * 2 + u64::from(*b))
        })
    }

    fn draw(&self, state: &Option<FlowState>, fill: &mut Fill) -> Markup {
        html! {
            section class=(FLOW_CLASS) data-testid=(FLOW_TESTID) aria-label=(FLOW_TITLE) {
                @if let Some(st) = state { (draw_figure(st, fill)) }
            }
        }
    }
}

/// The chart for `st` ([`Flow`] draws it in its box). Its figure carries the sentence's
/// numbers as data attributes, for tests.
pub fn flow_markup(
    seconds: &[Second],
    incident: &IncidentPlan,
    axis_s: u64,
    recovery: Option<Recovery>,
) -> Markup {
    let st = FlowState {
        seconds: seconds.to_vec(),
        incident: *incident,
        axis_s,
        recovery,
    };
    draw_figure(&st, &mut Fill::default())
}

/// A whole number as an attribute's text.
fn whole(n: u64) -> Option<String> {
    Some(html! { (Whole(n)) }.into_string())
}

/// The chart's figure, its live nodes recorded in `fill`.
fn draw_figure(st: &FlowState, fill: &mut Fill) -> Markup {
    let (seconds, incident) = (&st.seconds, &st.incident);
    let p = Plot::of(st);
    let (figures, back) = (p.figures, p.back);
    let (recovery_ms, recovered) = match back {
        Back::After(ms) => (whole(ms), Some("true")),
        Back::Never { ms, .. } => (whole(ms), Some("false")),
        Back::Unknown => (None, None),
    };
    let sentence = flow_sentence(&figures, incident, back);
    let axis = html! {
        @for (x, label) in axis_ticks(p.axis_us) {
            span style={ "left:" (Whole(x / 10)) "." (Whole(x % 10)) "%" } { (label) }
        }
    };
    let legend = html! {
        strong { (FLOW_TITLE) } ". Thin grey line: customers who arrived each second; blue: requests the client sent; bold green: charges it learned of (its goodput)."
        @if p.band.is_some() { " Shaded: the incident." }
        " From 0 to "
        (duration_ms(whole_ms(p.axis_us))) " across, 0 to " (count(p.peak)) " a second up."
    };
    html! {
        figure.rll-flow-figure data-testid="flow-figure" data-slot=(FIGURE)
            data-goodput-before=[fill.data(FIGURE, "data-goodput-before", figures.before.and_then(|r| whole(r.goodput)))]
            data-goodput-last=[fill.data(FIGURE, "data-goodput-last", figures.last.and_then(|r| whole(r.goodput)))]
            data-sent-last=[fill.data(FIGURE, "data-sent-last", figures.last.and_then(|r| whole(r.sent)))]
            data-recovery-ms=[fill.data(FIGURE, "data-recovery-ms", recovery_ms)]
            data-recovered=[fill.data(FIGURE, "data-recovered", recovered.map(str::to_string))] {
            div.rll-flow-plot {
                svg.rll-flow-svg viewBox="0 0 1000 200" preserveAspectRatio="none" aria-hidden="true" focusable="false" {
                    @if let Some((x, w)) = p.band {
                        rect.rll-flow-band data-slot=(BAND) x=[fill.data(BAND, "x", whole(x))] y="0"
                            width=[fill.data(BAND, "width", whole(w))] height="200" {}
                    }
                    @if !seconds.is_empty() {
                        @for (class, value) in SERIES {
                            path class=(class) data-slot=(LINE)
                                d=[fill.data(LINE, "d", Some(step_path(seconds, value, p.axis_s, p.peak)))]
                                vector-effect="non-scaling-stroke" {}
                        }
                    }
                    @if let Some(x) = p.marker {
                        path.rll-flow-back data-slot=(BACK_LINE)
                            d=[fill.data(BACK_LINE, "d", Some(html! { "M" (Whole(x)) " 0V200" }.into_string()))]
                            vector-effect="non-scaling-stroke" {}
                    }
                }
                @if let Some((x, w)) = p.band {
                    span.rll-flow-note.rll-flow-band-label aria-hidden="true" data-slot=(BAND_LABEL)
                        style=[fill.data(BAND_LABEL, "style", Some(place(if x <= RIGHT_ALIGN_FROM { x } else { x + w })))] {
                        (fill.text(BAND_LABEL, band_label(incident.kind)))
                    }
                }
                @if let (Some(x), Some(words)) = (p.back_at, back_label(back)) {
                    span.rll-flow-note.rll-flow-back-label aria-hidden="true" data-testid="flow-back" data-slot=(BACK_LABEL)
                        style=[fill.data(BACK_LABEL, "style", Some(place(x)))] { (fill.text(BACK_LABEL, words)) }
                }
            }
            div.rll-flow-axis aria-hidden="true" data-slot=(AXIS) { (fill.markup(AXIS, axis)) }
            figcaption.rll-flow-legend data-slot=(LEGEND) { (fill.markup(LEGEND, legend)) }
            p.rll-flow-sentence data-testid="flow-sentence" data-slot=(SENTENCE) { (fill.text(SENTENCE, sentence)) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::outage;
    use sim::time::secs;
    use sim::{Simulation, StrategyName};

    fn second(arrivals: u32, sent: u32, goodput: u32) -> Second {
        Second {
            arrivals,
            sent,
            goodput,
        }
    }

    fn down(start_s: u64, length_s: u64) -> IncidentPlan {
        IncidentPlan {
            kind: Incident::Down,
            start_us: secs(start_s),
            length_us: secs(length_s),
        }
    }

    fn attr(markup: &str, name: &str) -> Option<String> {
        let key = format!(" {name}=\"");
        let at = markup.find(&key)? + key.len();
        Some(markup[at..at + markup[at..].find('"')?].to_string())
    }

    /// The band's left and width, in plot units (only the band has an `x`).
    fn band(markup: &str) -> Option<String> {
        Some(format!("{} {}", attr(markup, "x")?, attr(markup, "width")?))
    }

    #[test]
    fn the_sentence_averages_the_seconds_before_the_outage_and_the_last_of_arrivals() {
        // 10 s at 50 in, 48 out; a 2 s outage; then 20 s at 50 in with nothing out but
        // retries, and 5 s of tail with no arrivals.
        let mut seconds = vec![second(50, 50, 48); 10];
        seconds.extend([second(50, 90, 0); 2]);
        seconds.extend([second(50, 91, 0); 19]);
        seconds.push(second(51, 91, 0));
        seconds.extend([second(0, 90, 0); 5]);
        let plan = down(10, 2);
        let f = Figures::of(&seconds, &plan);
        assert_eq!(
            f.before,
            Some(Rates {
                span_s: 10,
                arrivals: 50,
                sent: 50,
                goodput: 48
            })
        );
        // The last 15 s of arrivals are seconds 17..32; 51 of 750 rounds to 50.
        assert_eq!(
            f.last,
            Some(Rates {
                span_s: 15,
                arrivals: 50,
                sent: 91,
                goodput: 0
            })
        );
        let never = Some(Recovery {
            ms: 25_000,
            came_back: false,
            up_percent: 0,
        });
        let m = flow_markup(&seconds, &plan, 40, never).into_string();
        assert_eq!(attr(&m, "data-goodput-before").as_deref(), Some("48"));
        assert_eq!(attr(&m, "data-goodput-last").as_deref(), Some("0"));
        assert_eq!(attr(&m, "data-sent-last").as_deref(), Some("91"));
        assert_eq!(attr(&m, "data-recovered").as_deref(), Some("false"));
        let text = flow_sentence(&f, &plan, Back::of(&seconds, &plan, never));
        assert_eq!(
            text,
            "Before the outage the client learned of 48 charges a second; over the last 15 s \
             of arrivals, it learned of 0 charges a second for 50 customers arriving a \
             second, while it sent 91 requests a second. Goodput was not back by the run's \
             end, 25.0 s after the outage ended."
        );
        // Without the seconds before it, the same figures with their subject.
        let late = Figures { before: None, ..f };
        assert!(flow_sentence(&late, &plan, Back::Unknown).starts_with(
            "Over the last 15 s of arrivals after the outage, the client learned of 0 charges"
        ));
        assert_eq!(
            flow_sentence(&f, &plan, Back::After(0)),
            flow_sentence(&f, &plan, Back::Unknown)
                + " Goodput was back as soon as the outage ended, and stayed."
        );
        assert_eq!(back_label(Back::After(0)).as_deref(), Some("back at once"));
        assert!(m.contains(&text), "{m}");
        // With goodput back from second 14, the same run says so, and where.
        let mut back = seconds.clone();
        for s in &mut back[14..32] {
            s.goodput = s.arrivals;
        }
        let m = flow_markup(
            &back,
            &plan,
            40,
            Some(Recovery {
                ms: 2_000,
                came_back: true,
                up_percent: 0,
            }),
        )
        .into_string();
        assert_eq!(attr(&m, "data-recovered").as_deref(), Some("true"));
        assert_eq!(attr(&m, "data-recovery-ms").as_deref(), Some("2000"));
        assert_eq!(attr(&m, "data-goodput-last").as_deref(), Some("50"));
        assert!(m.contains("back after 2.0 s"), "{m}");
        // At 14 s on a 40 s axis: 350 of 1000.
        assert!(m.contains("d=\"M350 0V200\""), "{m}");
        assert!(m.contains("Goodput was back 2.0 s after the outage ended, and stayed."));
        // Back for a while, not for good: the share of the time it was up.
        let flapped = Some(Recovery {
            ms: 25_000,
            came_back: false,
            up_percent: 12,
        });
        assert!(
            flow_sentence(&f, &plan, Back::of(&seconds, &plan, flapped)).ends_with(
                " Goodput did not recover: it was up in only 12% of the seconds after the outage, \
             and not back for good by the run's end, 25.0 s after the outage ended."
            )
        );
    }

    #[test]
    fn the_band_sits_on_the_incidents_span_and_the_lines_on_the_seconds() {
        let seconds = [second(4, 2, 1), second(2, 4, 0)];
        let plan = down(1, 1);
        // A 4 s axis: the band from 250 to 500; each second is 250 wide; the busiest
        // second (4) is full height.
        let m = flow_markup(&seconds, &plan, 4, None).into_string();
        assert!(
            m.contains(
                "<rect class=\"rll-flow-band\" data-slot=\"flow-band\" x=\"250\" y=\"0\" width=\"250\" height=\"200\">"
            ),
            "{m}"
        );
        assert_eq!(band(&m).as_deref(), Some("250 250"));
        assert!(m.contains("d=\"M0 0V0H250V100H500\""), "arrivals: {m}");
        assert!(m.contains("d=\"M0 100V100H250V0H500\""), "sent: {m}");
        assert!(m.contains("d=\"M0 150V150H250V200H500\""), "goodput: {m}");
        assert!(m.contains("style=\"left:25.0%\">incident: down<"), "{m}");
        // While it plays, nothing is said about a recovery.
        assert_eq!(attr(&m, "data-recovered"), None);
        assert!(!m.contains("flow-back"), "{m}");
        assert!(m.contains("aria-hidden=\"true\""));
        // A run shown past its axis stretches it; a band past the axis is clipped, and
        // its name set by its right edge.
        let m = flow_markup(&seconds, &down(1, 5), 1, None).into_string();
        assert!(
            m.contains("From 0 to 2.0 s across, 0 to 4 a second up."),
            "{m}"
        );
        assert_eq!(band(&m).as_deref(), Some("500 500"));
        let m = flow_markup(&seconds, &down(1, 5), 3, None).into_string();
        assert_eq!(band(&m).as_deref(), Some("333 667"));
        let m = flow_markup(
            &seconds,
            &IncidentPlan {
                start_us: 1_999_999,
                ..down(1, 5)
            },
            2,
            None,
        )
        .into_string();
        assert_eq!(band(&m).as_deref(), Some("996 4"));
        assert!(m.contains("style=\"right:0.0%\">incident: down<"), "{m}");
        // An incident that starts past the run's end has no band, and no recovery.
        let m = flow_markup(
            &seconds,
            &down(9, 3),
            2,
            Some(Recovery {
                ms: 0,
                came_back: true,
                up_percent: 0,
            }),
        )
        .into_string();
        assert_eq!(band(&m), None);
        assert_eq!(attr(&m, "data-recovered"), None);
    }

    #[test]
    fn no_seconds_give_an_empty_chart_that_says_so() {
        let m = flow_markup(&[], &down(10, 3), 0, None).into_string();
        assert!(
            m.contains("From 0 to 1.0 s across, 0 to 1 a second up."),
            "{m}"
        );
        assert_eq!(attr(&m, "data-goodput-before"), None);
        assert!(!m.contains("<path"), "{m}");
        assert!(m.contains("No customer has arrived yet"), "{m}");
        assert!(m.contains(">0 ms<"), "{m}");
        let calm = flow_markup(
            &[],
            &IncidentPlan::default(),
            0,
            Some(Recovery {
                ms: 0,
                came_back: true,
                up_percent: 0,
            }),
        )
        .into_string();
        assert!(
            !calm.contains("<rect") && !calm.contains("Shaded"),
            "{calm}"
        );
        assert_eq!(attr(&calm, "data-recovered"), None);
    }

    #[test]
    fn with_no_incident_the_sentence_is_about_the_last_seconds_alone() {
        let seconds = [second(10, 11, 9); 3];
        let plan = IncidentPlan::default();
        let f = Figures::of(&seconds, &plan);
        assert_eq!(f.before, None);
        assert_eq!(
            flow_sentence(
                &f,
                &plan,
                Back::of(
                    &seconds,
                    &plan,
                    Some(Recovery {
                        ms: 0,
                        came_back: true,
                        up_percent: 0,
                    })
                )
            ),
            "Over the last 3 s of arrivals, the client learned of 9 charges a second for 10 \
             customers arriving a second, while it sent 11 requests a second."
        );
    }

    #[test]
    fn after_the_outage_a_client_with_a_timeout_stays_down_and_a_budget_comes_back() {
        let run = |strategy| {
            let s = outage::scenario(strategy, 1);
            let mut sim = Simulation::new(&s).unwrap();
            let stats = sim.run_to_end();
            let seconds = sim.flow().seconds().to_vec();
            let axis = sim.now_us().div_ceil(US_PER_S);
            let m = flow_markup(
                &seconds,
                &s.provider.incident,
                axis,
                Some(Recovery::of(&stats, &s.provider.incident)),
            )
            .into_string();
            (seconds, stats, m)
        };
        let (seconds, stats, m) = run(StrategyName::Keyed);
        let before = Rates::over(&seconds[..10]);
        assert!(before.goodput > 40, "{before:?}");
        assert_eq!(
            attr(&m, "data-goodput-before"),
            Some(before.goodput.to_string())
        );
        assert_eq!(attr(&m, "data-goodput-last").as_deref(), Some("0"));
        assert_eq!(attr(&m, "data-recovered").as_deref(), Some("false"));
        assert_eq!(
            attr(&m, "data-recovery-ms"),
            Some(stats.goodput_recovery_ms.to_string())
        );
        assert!(m.contains("not back by the run's end"), "{m}");
        let (seconds, stats, m) = run(StrategyName::Budget);
        assert_eq!(attr(&m, "data-recovered").as_deref(), Some("true"));
        assert!(stats.goodput_recovery_ms <= 5_000);
        let last = Figures::of(
            &seconds,
            &outage::scenario(StrategyName::Budget, 1).provider.incident,
        )
        .last
        .unwrap();
        assert!(last.goodput * 10 >= last.arrivals * 9, "{last:?}");
        assert!(
            m.contains(&format!(
                "back after {}",
                duration_ms(stats.goodput_recovery_ms)
            )),
            "{m}"
        );
    }

    #[test]
    fn a_module_without_the_chart_links_the_same_run_on_the_run_page() {
        let s = outage::scenario(StrategyName::Budget, 4);
        let m = elsewhere_markup(&s).into_string();
        let href = crate::query::links::run_href(StrategyName::Budget, &s);
        assert!(
            href.contains("traffic=steady") && href.contains("seed=4"),
            "{href}"
        );
        assert!(
            m.contains(&format!("href=\"{}\"", href.replace('&', "&amp;"))),
            "{m}"
        );
        assert!(m.starts_with("<p class=\"rll-callout\" data-testid=\"flow-chart\">Goodput over time is drawn on "), "{m}");
    }

    #[test]
    fn the_chart_draws_what_it_fills_and_a_second_more_writes_in_place() {
        let plan = down(1, 1);
        let done = Some(Recovery {
            ms: 500,
            came_back: true,
            up_percent: 90,
        });
        let state = |n: usize, recovery| {
            Some(FlowState {
                seconds: vec![second(4, 2, 1); n],
                incident: plan,
                axis_s: 8,
                recovery,
            })
        };
        for st in [None, state(0, None), state(3, None), state(8, done)] {
            crate::shared::live::check_drawn(&Flow, &st).unwrap();
        }
        assert_eq!(Flow.shape(&None), 0);
        assert_eq!(Flow.markup(&None).into_string(), "<section class=\"rll-flow\" data-testid=\"flow-chart\" aria-label=\"Goodput over time\"></section>");
        // A second more, while it plays: the same nodes, the lines and the figures
        // written again, the axis left alone.
        let (a, b) = (state(3, None), state(4, None));
        assert_eq!(Flow.shape(&a), Flow.shape(&b));
        let fill = |s: &Option<FlowState>| {
            let mut fill = Fill::default();
            Flow.draw(s, &mut fill);
            fill
        };
        let (fa, fb) = (fill(&a), fill(&b));
        let changed: Vec<Slot> = fb.changed_since(&fa).map(|(hole, _)| hole.slot).collect();
        assert!(
            changed.contains(&LINE) && !changed.contains(&AXIS),
            "{changed:?}"
        );
        // Its end adds the recovery's mark: another shape.
        assert_ne!(Flow.shape(&state(8, None)), Flow.shape(&state(8, done)));
    }
}

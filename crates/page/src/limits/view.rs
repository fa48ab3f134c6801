//! What each limits experiment shows besides its knobs, as markup: its sentences, its
//! chart (drawn at a width, see [`super::charts`]) and its table. Written as markup, a
//! hole of the live widget [`LabShown`], not as Leptos views, because it is made again
//! whole whenever a knob moves and as views it cost the limits page's `.wasm` about 16 KB
//! gzip. Every word is ours; maud escapes each.
//!
//! The page's live widgets ([`Picker`], [`Knobs`], [`LabShown`]) are here, each node they
//! write named by its [`Slot`] next to the markup that draws it.

use super::charts::{
    burst_answers, burst_chart_width, burst_svg, chart_width, herd_svg, memory_svg, table_html,
    Cell, Row,
};
use super::clients::blind_retry;
use super::herd::{formula, seconds, verdict};
use super::lab::round_ms;
use super::settings::{knobs_of, KnobId, LabSettings, Range};
use super::units::{correct_text, naive_text};
use crate::shared::format::{count, duration_ms};
use crate::shared::limiter::label;
use crate::shared::live::{Fill, Live};
use crate::shared::markup::Whole;
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup, PreEscaped};
use sim::lab::burst::BurstResult;
use sim::lab::herd::Jitter;
use sim::lab::{ExperimentName, LabResult};
use sim::limiter::LimiterKind;

/// An experiment's button label and heading.
pub fn experiment_title(e: ExperimentName) -> &'static str {
    match e {
        ExperimentName::Burst => "Boundary burst",
        ExperimentName::Units => "Header units",
        ExperimentName::Clients => "Blind, obedient, proactive",
        ExperimentName::Neighbour => "Noisy neighbour",
        ExperimentName::Memory => "Memory cost",
        ExperimentName::Herd => "Thundering herd",
        ExperimentName::Fleet => "Many instances",
    }
}

/// What stands where an experiment will be, before one is picked.
pub const PICK_AN_EXPERIMENT: &str = "Pick an experiment to run it.";

/// The limits section: its `data-state` and `data-experiment` say which experiment is
/// on screen.
pub const LIMITS: Slot = slot!("limits");

/// The limits section's heading.
pub const LIMITS_TITLE: &str = "Publishing your limit";

/// The name of the row of experiment buttons.
pub const EXPERIMENTS_LABEL: &str = "Experiments";

/// The button that runs experiment `e`.
pub const fn experiment_slot(e: ExperimentName) -> Slot {
    match e {
        ExperimentName::Burst => slot!("experiment-burst"),
        ExperimentName::Units => slot!("experiment-units"),
        ExperimentName::Clients => slot!("experiment-clients"),
        ExperimentName::Neighbour => slot!("experiment-neighbour"),
        ExperimentName::Memory => slot!("experiment-memory"),
        ExperimentName::Herd => slot!("experiment-herd"),
        ExperimentName::Fleet => slot!("experiment-fleet"),
    }
}

/// The limits section's opening paragraph and its row of experiment buttons ([`Live`]):
/// drawn once, then only which button is pressed is written. Its state is the
/// experiment on screen.
pub struct Picker {
    /// The seed the experiments run from, named in the opening paragraph.
    pub seed: u64,
    /// The headers page's link, with the link's seed and numbers.
    pub headers_href: String,
}

impl Live for Picker {
    type State = Option<ExperimentName>;

    fn shape(&self, _: &Self::State) -> u64 {
        0
    }

    fn draw(&self, on: &Self::State, fill: &mut Fill) -> Markup {
        html! {
            p {
                "The other side of the same problem: you run the API. Which limiter do you put in front of it, "
                "what do you tell callers in the headers, and what do careless clients do with what you tell them? "
                "Each experiment runs in simulated time, from seed " (Whole(self.seed)) ". "
                "The headers themselves, and a reader for them, are on " a href=(self.headers_href) { "the headers page" } "."
            }
            div.rll-picker.rll-experiments role="group" aria-label=(EXPERIMENTS_LABEL) {
                // Each button numbered; `data-experiment` names it.
                @for (i, e) in ExperimentName::ALL.into_iter().enumerate() {
                    @let slot = experiment_slot(e);
                    button.rll-strategy type="button" data-experiment=(e.as_str()) data-slot=(slot)
                        aria-pressed=(fill.attr(slot, "aria-pressed", if *on == Some(e) { "true" } else { "false" })) {
                        span.rll-step { (Whole(i as u64 + 1)) }
                        span { (experiment_title(e)) }
                    }
                }
            }
        }
    }
}

/// Why the experiment cannot run with the knobs' numbers, when it cannot.
pub const LAB_ERROR: Slot = slot!("lab-error");
/// The fleet's caption while its module is on its way.
pub const LAB_ARRIVING: Slot = slot!("lab-arriving");
/// What an experiment shows below its knobs: sentences, chart and table.
pub const LAB_BODY: Slot = slot!("lab-body");
/// The list of every number an experiment produced.
pub const LAB_CELLS: Slot = slot!("lab-cells");

fn ms(us: u64) -> String {
    duration_ms(round_ms(us))
}

/// "second" for a one-second window, else the duration: "per second", "per 1.5 s".
fn per(window_us: u64) -> String {
    if window_us == 1_000_000 {
        "second".into()
    } else {
        ms(window_us)
    }
}

fn num(v: impl std::fmt::Display) -> Cell {
    (v.to_string(), true, false)
}

fn word(v: impl std::fmt::Display) -> Cell {
    (v.to_string(), false, false)
}

/// A result table, scrolled sideways on a narrow screen.
fn table(caption: &str, head: &[&str], rows: &[Row]) -> Markup {
    html! { div.rll-table-scroll { (table_html(caption, head, rows)) } }
}

/// `<strong data-testid="…">text</strong>`.
fn strong(testid: &str, text: &str) -> Markup {
    html! { strong data-testid=(testid) { (text) } }
}

/// The neighbour's rows for every limiter: what the noisy caller and the quiet ones got
/// under each scope (a quiet caller starved shows as a flagged zero).
fn neighbour_limiter_rows(r: &sim::lab::neighbour::NeighbourResult) -> Vec<Row> {
    r.limiters
        .iter()
        .map(|l| {
            let cells = vec![
                num(l.global_noisy_ok),
                (l.global_quiet_ok.to_string(), true, l.global_quiet_ok == 0),
                num(l.per_key_noisy_ok),
                (
                    l.per_key_quiet_ok.to_string(),
                    true,
                    l.per_key_quiet_ok == 0,
                ),
            ];
            (label(l.limiter).to_string(), cells, false)
        })
        .collect()
}

/// The burst's sentence.
pub fn burst_lead(r: &BurstResult) -> String {
    let lane = |k: &str| {
        r.lanes
            .iter()
            .find(|l| l.limiter.as_str() == k)
            .map_or(0, |l| l.accepted)
    };
    let per_volley = r.lanes.first().map_or(0, |l| l.marks.len() / 2);
    let first = format!(
        "{per_volley} requests {} before a window boundary and {per_volley} more {} after those, against a \
         limit of {} per {}. The fixed window accepts {}, the sliding log {} and the token bucket {}: its extra \
         ones are refill that really happened between the volleys. All arrived within {}.",
        ms(r.boundary_us - r.first_volley_us),
        ms(r.second_volley_us - r.first_volley_us),
        r.limit,
        per(r.window_us),
        lane("fixed"),
        lane("sliding"),
        lane("bucket"),
        // Rounded as the cells round it, so the sentence and the numbers agree.
        ms(r.span_us),
    );
    let others: Vec<String> = r
        .lanes
        .iter()
        .filter(|l| {
            !matches!(
                l.limiter,
                LimiterKind::Fixed | LimiterKind::Sliding | LimiterKind::Bucket
            )
        })
        .map(|l| {
            let held = if l.delayed > 0 {
                format!(
                    " ({} of them held in the queue, the last for {})",
                    l.delayed,
                    ms(l.max_delay_us)
                )
            } else {
                String::new()
            };
            format!("the {} {}{held}", label(l.limiter), l.accepted)
        })
        .collect();
    match others.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            // Joined as &str, the join the other lists on this page use.
            let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
            format!("{first} Of the others, {} and {last}.", rest.join(", "))
        }
        Some((only, _)) => format!("{first} Also {only}."),
        None => first,
    }
}

/// A knob's control (a slider and its value, or a row of buttons), which the UI shows
/// at the knob's value.
pub const fn knob_slot(id: KnobId) -> Slot {
    match id {
        KnobId::BurstOffset => slot!("knob-burst-offset"),
        KnobId::BurstGap => slot!("knob-burst-gap"),
        KnobId::UnitsWait => slot!("knob-units-wait"),
        KnobId::ClientsCalls => slot!("knob-clients-calls"),
        KnobId::ClientsLimit => slot!("knob-clients-limit"),
        KnobId::BlindRetry => slot!("knob-blind-retry"),
        KnobId::NoisyRequests => slot!("knob-noisy-requests"),
        KnobId::QuietCallers => slot!("knob-quiet-callers"),
        KnobId::MemoryCallers => slot!("knob-memory-callers"),
        KnobId::MemoryPerWindow => slot!("knob-memory-per-window"),
        KnobId::HerdJitter => slot!("knob-herd-jitter"),
        KnobId::HerdClients => slot!("knob-herd-clients"),
        KnobId::FleetInstances => slot!("knob-fleet-instances"),
        KnobId::FleetBalancer => slot!("knob-fleet-balancer"),
        KnobId::FleetMode => slot!("knob-fleet-mode"),
        KnobId::FleetRtt => slot!("knob-fleet-rtt"),
        KnobId::FleetLimiter => slot!("knob-fleet-limiter"),
        KnobId::FleetBurst => slot!("knob-fleet-burst"),
    }
}

/// A knob's slider, inside its [`knob_slot`]: its value is the slider position.
pub const SLIDER: Slot = slot!("lab-slider");
/// A slider's value in words, inside its knob's [`knob_slot`].
pub const KNOB_VALUE: Slot = slot!("lab-knob-value");

/// Each button of a choice, inside its knob's [`knob_slot`], in the choice's order;
/// which value, its [`CHOICE_KEY`].
pub const CHOICE: Slot = slot!("lab-choice");
/// The attribute of a choice's button that holds the value's name.
pub const CHOICE_KEY: &str = "data-value";

/// The knobs of an experiment as controls ([`Live`]), each in its [`knob_slot`]: a
/// range input ([`SLIDER`], `data-knob="<key>"`, its value the slider position) with an
/// `<output>` ([`KNOB_VALUE`], `data-knob-value="<key>"`) for each number, and a group of
/// buttons (`data-knob` on the group, [`CHOICE`] and `data-value` on each) for each
/// choice. Drawn once with every range, stop and word; as the settings move (from a
/// control, or from a drag on a chart) only each knob's value, words and pressed button
/// are written, and a slider's value is left alone while it matches, so a drag keeps
/// its place.
pub struct Knobs {
    /// Whose knobs.
    pub experiment: ExperimentName,
}

impl Live for Knobs {
    type State = LabSettings;

    fn shape(&self, _: &LabSettings) -> u64 {
        0
    }

    fn draw(&self, s: &LabSettings, fill: &mut Fill) -> Markup {
        html! {
            @for k in knobs_of(self.experiment) {
                @let v = s.get(k.id);
                @let id = html! { "rll-knob-" (k.key) };
                @match k.range {
                    Range::Choice(names) => {
                        div.rll-field data-slot=(knob_slot(k.id)) {
                            span.rll-field-label id=(id) { (k.label) }
                            // More than four choices wrap onto a second row rather than cut their names.
                            div.rll-segmented.rll-wrap[names.len() > 4] role="group" aria-labelledby=(id) data-knob=(k.key) {
                                @for (i, name) in names.iter().enumerate() {
                                    button type="button" data-value=(name)
                                        aria-pressed=(fill.attr(CHOICE, "aria-pressed", if i as u64 == v { "true" } else { "false" }))
                                        data-slot=(CHOICE) { (name) }
                                }
                            }
                        }
                    }
                    _ => {
                        @let (lo, hi) = k.slider();
                        @let shown = k.shown(v);
                        div.rll-field.rll-knob data-slot=(knob_slot(k.id)) {
                            label.rll-field-label for=(id) {
                                (k.label) ": "
                                output data-slot=(KNOB_VALUE) data-knob-value=(k.key) { (fill.text(KNOB_VALUE, shown.clone())) }
                            }
                            input id=(id) type="range" data-slot=(SLIDER) data-knob=(k.key) min=(Whole(lo)) max=(Whole(hi)) step="1"
                                value=(fill.value(SLIDER, k.position(v).to_string()))
                                aria-valuetext=(fill.attr_text(SLIDER, "aria-valuetext", shown));
                        }
                    }
                }
            }
        }
    }
}

/// What an experiment shows below its knobs, as [`LabShown`] draws it: each part made
/// by the page layer from the result (or, for the fleet, by the fleet's own module).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// Why the experiment cannot run or be shown, if it cannot.
    pub error: Option<String>,
    /// Its sentences, chart and table, as markup.
    pub body: String,
    /// Every number it produced, as a definition list's items ([`cells_html`]).
    pub cells: String,
    /// For the fleet, whether its figures have arrived (the caption shows until they
    /// have); `None` for an experiment this page runs itself.
    pub arrived: Option<bool>,
}

impl Shown {
    /// What `result` shows with its charts drawn for a box `box_w` CSS pixels wide.
    pub fn of(result: &Result<LabResult, String>, box_w: Option<f64>) -> Self {
        match result {
            Ok(r) => Self {
                error: None,
                body: body_html(r, box_w).into_string(),
                cells: cells_html(&super::lab::cells_on_page(r)).into_string(),
                arrived: None,
            },
            Err(why) => Self {
                error: Some(why.clone()),
                ..Self::default()
            },
        }
    }
}

/// An experiment's error line, body and cells ([`Live`]): drawn once, then the error's
/// words and the body's and the cells' markup written as they change. The body is a
/// [`Fill::markup`] hole: a knob's move reruns the experiment, and its sentences, chart
/// and table are made again whole (they are many nodes, whose number changes).
#[derive(Clone, Copy, Debug)]
pub struct LabShown;

impl Live for LabShown {
    type State = Shown;

    fn shape(&self, s: &Shown) -> u64 {
        u64::from(s.arrived.is_some())
    }

    fn draw(&self, s: &Shown, fill: &mut Fill) -> Markup {
        let why = s.error.clone().unwrap_or_default();
        html! {
            p.rll-field-help.rll-error data-testid="lab-error" data-slot=(LAB_ERROR)
                hidden[fill.flag(LAB_ERROR, "hidden", s.error.is_none())] { (fill.text(LAB_ERROR, why)) }
            @if let Some(arrived) = s.arrived {
                p.rll-caption data-testid="fleet-arriving" data-slot=(LAB_ARRIVING)
                    hidden[fill.flag(LAB_ARRIVING, "hidden", arrived)] { (super::fleet::FLEET_ARRIVING) }
            }
            div data-slot=(LAB_BODY) { (fill.markup(LAB_BODY, PreEscaped(s.body.clone()))) }
            details.rll-details {
                summary { "Every number (the same as " code { "ratelab limits … --json" } ")" }
                dl.rll-cells data-slot=(LAB_CELLS) { (fill.markup(LAB_CELLS, PreEscaped(s.cells.clone()))) }
            }
        }
    }
}

/// Every cell as a definition list's items, each value in a `data-result` element.
pub fn cells_html(cells: &[(String, String)]) -> Markup {
    html! {
        @for (key, value) in cells {
            div {
                dt { (key.split_once('.').map_or(key.as_str(), |(_, f)| f)) }
                dd.rll-num data-result=(key) { (value) }
            }
        }
    }
}

/// Everything an experiment shows below its knobs, with its charts drawn for a box
/// `box_w` CSS pixels wide (none before the width is known).
pub fn body_html(result: &LabResult, box_w: Option<f64>) -> Markup {
    let width = box_w.map(chart_width);
    match result {
        // The fleet is drawn by its own module (`super::fleet::draw_on_page`): the limits
        // page never holds its result, and its module carries none of its markup.
        LabResult::Fleet(_) => html! {},
        LabResult::Burst(r) => html! {
            p data-testid="burst-lead" { (burst_lead(r)) }
            div.rll-burst-row {
                div.rll-chart-box {
                    @if let Some(w) = box_w { (burst_svg(r, burst_chart_width(w))) }
                }
                div.rll-answers {
                    p.rll-field-label { "What the token bucket answered" }
                    ol.rll-answer-list data-testid="burst-headers" tabindex="0"
                        aria-label="What the token bucket answered, request by request" { (burst_answers(r)) }
                }
            }
        },
        LabResult::Units(r) => {
            let rows: Vec<Row> = r
                .rows
                .iter()
                .map(|row| {
                    let wrong = row.naive_wait_us != Some(row.correct_wait_us);
                    let cells = vec![
                        word(&row.value),
                        (naive_text(row), false, wrong),
                        word(correct_text(row)),
                    ];
                    (row.header.to_string(), cells, false)
                })
                .collect();
            html! {
                p {
                    "“Wait " (Whole(r.wait_s)) " s”, written the four ways servers write it, read naively \
                     (Number(value) × 1000) and by each form's rules. Two naive readings fail silently: NaN fires \
                     a timer at once, and an epoch asks for decades, more than a JavaScript timer holds (a \
                     browser wraps it, Node fires after 1 ms)."
                }
                (table("", &["header", "value", "naive", "careful"], &rows))
            }
        }
        LabResult::Clients(r) => {
            let rows: Vec<Row> = r
                .runs
                .iter()
                .map(|c| {
                    let flooded = c.rate_limited * 10 > c.sent;
                    let cells = vec![
                        num(count(c.sent)),
                        (count(c.rate_limited), true, flooded),
                        num(ms(c.wall_us)),
                    ];
                    (c.strategy.as_str().to_string(), cells, false)
                })
                .collect();
            html! {
                p {
                    (Whole(r.calls.into())) " calls to make against a bucket of " (Whole(r.capacity.into())) " refilled at " (Whole(r.limit.into())) " per "
                    (per(r.window_us)) ", over a " (Whole(r.round_trip_us)) " µs round trip; the blind client retries "
                    (blind_retry(r.blind_pause_us)) ". All three finish in about the same time; the blind one sends "
                    (strong("traffic-ratio", &format!("{}×", count(r.traffic_ratio))))
                    " the obedient one's traffic."
                }
                (table("", &["client", "sent", "429s", "wall time"], &rows))
            }
        }
        LabResult::Neighbour(r) => {
            let tallies = &r.global.tallies;
            let sent = |i: usize| tallies.get(i).map_or(0, |t| t.ok + t.rate_limited);
            let rows = |case: &sim::lab::neighbour::NeighbourCase| -> Vec<Row> {
                case.tallies
                    .iter()
                    .map(|t| {
                        let cells = vec![(t.ok.to_string(), true, t.ok == 0), num(t.rate_limited)];
                        (t.caller.clone(), cells, false)
                    })
                    .collect()
            };
            html! {
                p {
                    "One caller sends " (Whole(sent(0).into())) " requests, then " (Whole(tallies.len().saturating_sub(1) as u64))
                    " quiet callers send " (Whole(sent(1).into())) " each, all within " (ms(r.span_us)) ". The noisy \
                     caller is throttled the same either way; what changes is what happens to everyone else."
                }
                div.rll-neighbour {
                    @for (caption, case) in [("one global bucket", &r.global), ("a bucket per key", &r.per_key)] {
                        (table(caption, &["caller", "ok", "429"], &rows(case)))
                    }
                }
                (table(
                    &format!("every limiter: ok of {} noisy and {} quiet requests", r.noisy_sent, r.quiet_sent),
                    &["limiter", "global noisy", "global quiet", "per-key noisy", "per-key quiet"],
                    &neighbour_limiter_rows(r),
                ))
            }
        }
        LabResult::Memory(r) => {
            let rows: Vec<Row> = r
                .rows
                .iter()
                .map(|m| {
                    let cells = vec![num(count(m.per_caller_bytes)), num(count(m.total_bytes))];
                    (m.limiter.as_str().to_string(), cells, false)
                })
                .collect();
            html! {
                p {
                    "Remembering " (count(r.callers.into())) " callers at " (count(r.per_window.into()))
                    " requests per window, counted from this lab's own state types. \
                     The sliding log keeps every instant, so it costs "
                    (strong("memory-ratio", &format!("{}×", count(r.log_to_bucket_ratio))))
                    " the token bucket. The bars are on a log axis: each step is ten times more."
                }
                @if let Some(w) = width { (memory_svg(r, w)) }
                (table("", &["limiter", "bytes per caller", "total bytes"], &rows))
                p.rll-caption {
                    "Counted: integer state and key bytes. Not counted: map nodes, pointers, spare capacity, allocator overhead."
                }
            }
        }
        LabResult::Herd(r) => {
            let rows: Vec<Row> = r
                .cases
                .iter()
                .map(|c| {
                    let cells = vec![
                        num(c.peak_per_ms),
                        num(ms(c.spread_us())),
                        num(count(c.requests)),
                        // As the verdict and the CLI's table write it.
                        num(seconds(c.finish_us)),
                    ];
                    (c.jitter.as_str().to_string(), cells, c.jitter == r.jitter)
                })
                .collect();
            let (chosen, none) = (r.case(r.jitter), r.case(Jitter::None));
            html! {
                p {
                    (count(r.clients.into())) " clients are refused at the same instant and all read a "
                    (ms(r.retry_after_us)) " Retry-After. Each then retries against a bucket of " (Whole(r.limit.into())) " per "
                    (per(r.window_us)) " until it gets in. After every refusal a client sleeps the \
                     Retry-After it was given, plus a backoff v that doubles with each refusal (from "
                    (ms(r.retry_after_us)) " up to " (ms(r.cap_us)) "); the jitter decides how much of v it sleeps:"
                }
                ul.rll-formulas {
                    @for j in Jitter::ALL {
                        li class=[(j == r.jitter).then_some("rll-chosen")] { code { (j.as_str()) ": " (formula(j)) } }
                    }
                }
                p data-testid="herd-wave" {
                    "First wave with " (r.jitter.as_str()) " jitter: at most "
                    (strong("herd-peak", &chosen.peak_per_ms.to_string()))
                    " per millisecond, spread over "
                    (strong("herd-spread", &ms(chosen.spread_us())))
                    " (without jitter: " (Whole(none.peak_per_ms.into())) " in one millisecond, spread " (ms(none.spread_us())) ")."
                }
                @if let Some(w) = width { (herd_svg(r, w)) }
                p data-testid="herd-verdict" { (verdict(r)) }
                (table("", &["jitter", "peak per ms", "first-wave spread", "requests", "last client in"], &rows))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::settings::{run, KnobId, LabSettings};
    use crate::shared::live::{check_drawn, Write};
    use sim::lab::ExperimentName;

    #[test]
    fn every_knob_is_a_control_at_its_value() {
        let mut s = LabSettings::default();
        s.read(KnobId::MemoryCallers, "5000").unwrap();
        let html = Knobs {
            experiment: ExperimentName::Memory,
        }
        .markup(&s)
        .into_string();
        assert!(
            html.contains(r#"data-knob-value="memoryCallers">5,000 callers</output>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"data-knob="memoryCallers" min="0" max="21" step="1" value="11""#),
            "{html}"
        );
        let html = Knobs {
            experiment: ExperimentName::Herd,
        }
        .markup(&s)
        .into_string();
        assert!(
            html.contains(&format!(
                r#"<button type="button" {CHOICE_KEY}="full" aria-pressed="true""#
            )),
            "{html}"
        );
        assert_eq!(html.matches("aria-pressed=\"true\"").count(), 1);
        // Every knob of every experiment has its own control, found by its slot.
        let mut names = std::collections::BTreeSet::new();
        for e in ExperimentName::ALL {
            let html = Knobs { experiment: e }.markup(&s).into_string();
            for k in knobs_of(e) {
                let slot = knob_slot(k.id);
                assert!(names.insert(slot.name()), "{slot:?} named twice");
                let attr = format!("data-slot=\"{}\"", slot.name());
                assert_eq!(html.matches(&attr).count(), 1, "{slot:?}");
            }
        }
    }

    #[test]
    fn every_experiment_says_what_it_measured() {
        let mut s = LabSettings::default();
        s.read(KnobId::HerdJitter, "equal").unwrap();
        for name in ExperimentName::ALL {
            let r = run(name, 1, &s).unwrap();
            let html = match name {
                ExperimentName::Fleet => {
                    assert_eq!(body_html(&r, Some(400.0)).into_string(), "");
                    let [body, _] = crate::limits::fleet::draw_on_page(1, s.values()).unwrap();
                    body
                }
                _ => body_html(&r, Some(400.0)).into_string(),
            };
            assert!(html.starts_with("<p"), "{name}: {html}");
            let opened = html.matches("<p>").count() + html.matches("<p ").count();
            assert_eq!(opened, html.matches("</p>").count(), "{name}");
        }
        let herd = run(ExperimentName::Herd, 1, &s).unwrap();
        let html = body_html(&herd, Some(400.0)).into_string();
        let LabResult::Herd(h) = &herd else {
            unreachable!()
        };
        assert!(html.contains(&format!(
            r#"<strong data-testid="herd-peak">{}</strong>"#,
            h.case(Jitter::Equal).peak_per_ms
        )));
        assert!(
            html.contains(r#"<li class="rll-chosen"><code>equal: "#),
            "{html}"
        );
        assert!(html.contains("data-testid=\"herd-chart\""));
        assert!(!body_html(&herd, None).into_string().contains("<svg"));
        let burst = run(ExperimentName::Burst, 1, &s).unwrap();
        let LabResult::Burst(b) = &burst else {
            unreachable!()
        };
        assert!(burst_lead(b)
            .starts_with("10 requests 150 ms before a window boundary and 10 more 170 ms after"));
    }

    #[test]
    fn the_burst_lead_names_every_other_limiter_with_the_cores_numbers() {
        let r = sim::lab::burst::run(&sim::lab::burst::BurstParams::default(), 1).unwrap();
        let lead = burst_lead(&r);
        let accepted = |k| r.accepted(k);
        let queue = r
            .lanes
            .iter()
            .find(|l| l.limiter == LimiterKind::Queue)
            .unwrap();
        let expected = format!(
            " Of the others, the sliding-window counter {}, the leaky bucket, queued {} ({} of them \
             held in the queue, the last for {}), the leaky bucket, nodelay {}, the GCRA {} and the \
             concurrency limit {}.",
            accepted(LimiterKind::Counter),
            accepted(LimiterKind::Queue),
            queue.delayed,
            ms(queue.max_delay_us),
            accepted(LimiterKind::Nodelay),
            accepted(LimiterKind::Gcra),
            accepted(LimiterKind::Inflight),
        );
        assert!(lead.ends_with(&expected), "{lead}");
        let neighbour = run(ExperimentName::Neighbour, 1, &LabSettings::default()).unwrap();
        let html = body_html(&neighbour, None).into_string();
        assert!(html.contains("every limiter: ok of 40 noisy and 6 quiet requests"));
        assert!(
            html.contains("<th scope=\"row\">concurrency limit</th>"),
            "{html}"
        );
    }

    #[test]
    fn every_experiment_has_a_button_and_the_intro_names_its_seed_and_link() {
        let picker = Picker {
            seed: 7,
            headers_href: "headers.html?section=headers&a=1".into(),
        };
        let m = picker.markup(&None).into_string();
        for e in ExperimentName::ALL {
            assert_eq!(
                m.matches(&format!("data-experiment=\"{}\"", e.as_str()))
                    .count(),
                1,
                "{e:?}"
            );
            assert_eq!(
                m.matches(&format!("data-slot=\"{}\"", experiment_slot(e).name()))
                    .count(),
                1,
                "{e:?}"
            );
            assert!(m.contains(experiment_title(e)));
        }
        let intro = m;
        assert!(intro.contains("from seed 7."), "{intro}");
        assert!(
            intro.contains("href=\"headers.html?section=headers&amp;a=1\""),
            "{intro}"
        );
    }

    #[test]
    fn the_picker_presses_only_the_experiment_on_screen() {
        let picker = Picker {
            seed: 1,
            headers_href: "headers.html".into(),
        };
        let mut states = vec![None];
        states.extend(ExperimentName::ALL.map(Some));
        for on in &states {
            check_drawn(&picker, on).unwrap();
        }
        let (mut a, mut b) = (Fill::default(), Fill::default());
        picker.draw(&Some(ExperimentName::Burst), &mut a);
        picker.draw(&Some(ExperimentName::Herd), &mut b);
        let changed: Vec<_> = a.changed_since(&b).collect();
        assert_eq!(changed.len(), 2, "{changed:?}");
        assert!(picker
            .markup(&Some(ExperimentName::Herd))
            .into_string()
            .contains(r#"data-experiment="herd" data-slot="experiment-herd" aria-pressed="true""#));
    }

    #[test]
    fn a_knob_that_moves_writes_only_its_own_value_and_words() {
        let s = LabSettings::default();
        for e in ExperimentName::ALL {
            check_drawn(&Knobs { experiment: e }, &s).unwrap();
        }
        let knobs = Knobs {
            experiment: ExperimentName::Memory,
        };
        let mut moved = s.clone();
        moved.read(KnobId::MemoryCallers, "5000").unwrap();
        check_drawn(&knobs, &moved).unwrap();
        let (mut a, mut b) = (Fill::default(), Fill::default());
        knobs.draw(&s, &mut a);
        knobs.draw(&moved, &mut b);
        let changed: Vec<_> = b.changed_since(&a).map(|x| x.1.clone()).collect();
        // The output's words, the slider's position and its words for screen readers.
        assert_eq!(
            changed,
            vec![
                Write::Text("5,000 callers".into()),
                Write::Value("11".into()),
                Write::Data("aria-valuetext", Some("5,000 callers".into())),
            ]
        );
        // A choice presses one button and lets go of another.
        let herd = Knobs {
            experiment: ExperimentName::Herd,
        };
        let mut equal = s.clone();
        equal.read(KnobId::HerdJitter, "equal").unwrap();
        let (mut a, mut b) = (Fill::default(), Fill::default());
        herd.draw(&s, &mut a);
        herd.draw(&equal, &mut b);
        assert_eq!(a.changed_since(&b).count(), 2);
    }

    #[test]
    fn an_experiment_shows_its_error_or_its_body_and_cells_where_they_are_filled() {
        let s = LabSettings::default();
        for name in ExperimentName::ALL {
            let r = run(name, 1, &s);
            let shown = Shown::of(&r, Some(400.0));
            check_drawn(&LabShown, &shown).unwrap();
            if name != ExperimentName::Fleet {
                assert!(shown.cells.contains("data-result="), "{name}");
            }
        }
        let failed = Shown::of(&Err("No room.".into()), None);
        check_drawn(&LabShown, &failed).unwrap();
        let html = LabShown.markup(&failed).into_string();
        assert!(html.starts_with(
            r#"<p class="rll-field-help rll-error" data-testid="lab-error" data-slot="lab-error">No room.</p>"#
        ), "{html}");
        let fine = Shown::of(&run(ExperimentName::Burst, 1, &s), None);
        assert!(LabShown
            .markup(&fine)
            .into_string()
            .contains(r#"data-slot="lab-error" hidden></p>"#));
        // The fleet's caption is there only for the fleet, hidden once its figures arrived.
        let waiting = Shown {
            arrived: Some(false),
            ..Shown::default()
        };
        check_drawn(&LabShown, &waiting).unwrap();
        assert_ne!(LabShown.shape(&waiting), LabShown.shape(&fine));
        assert!(!LabShown
            .markup(&fine)
            .into_string()
            .contains("fleet-arriving"));
        let (mut a, mut b) = (Fill::default(), Fill::default());
        LabShown.draw(&waiting, &mut a);
        LabShown.draw(
            &Shown {
                arrived: Some(true),
                ..Shown::default()
            },
            &mut b,
        );
        assert_eq!(a.changed_since(&b).count(), 1);
    }
}

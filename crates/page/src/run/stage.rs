//! The stage's words and choices: which few counters matter for each strategy, and the
//! one-sentence verdict on a finished run, with how bad it was; the gauges, the verdict's
//! lines and the reduced-motion note as markup, with the nodes the UI writes.

use crate::shared::budget::{keeps_record, Workload};
use crate::shared::format::{capitalised, count, duration_ms};
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::shared::words::Words;
use crate::slot;
use crate::Speed;
use maud::{html, Markup, PreEscaped};
use sim::{Scenario, StatField, Stats, StrategyName};

/// The counters the stage shows beside the timeline for `strategy`: the ones its story
/// turns on (the article's "what to watch"), customers charged first.
pub fn key_stats(strategy: StrategyName) -> [StatField; 4] {
    use StatField::*;
    match strategy {
        StrategyName::Naive => [CustomersCharged, RateLimited, Overloaded, GaveUp],
        StrategyName::Paced => [CustomersCharged, ServerErrors, GaveUp, ElapsedMs],
        StrategyName::Retry => [CustomersCharged, Requests, Slow, ElapsedMs],
        StrategyName::TimeoutNoKey => [CustomersCharged, Duplicates, Requests, ElapsedMs],
        StrategyName::Keyed => [CustomersCharged, Duplicates, InProgressConflicts, ElapsedMs],
        StrategyName::Pool => [CustomersCharged, Duplicates, InProgressConflicts, ElapsedMs],
        StrategyName::Headers => [CustomersCharged, IncidentRequests, RecoveryMs, Requests],
        StrategyName::Budget => [
            CustomersCharged,
            BudgetExhausted,
            IncidentRequests,
            RecoveryMs,
        ],
        StrategyName::Breaker => [CustomersCharged, BreakerOpens, IncidentRequests, RecoveryMs],
        StrategyName::Adaptive => [
            CustomersCharged,
            ConcurrencyPeak,
            ConcurrencyMean,
            RecoveryMs,
        ],
    }
}

/// How a run went, for the verdict's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Every valid customer charged exactly once, and no declined card asked again.
    Good,
    /// Someone was harmed: charged twice, never charged, or a declined card retried.
    Harm,
}

/// The verdict on a run: its tone and one sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Good or harmful.
    pub tone: Tone,
    /// The sentence, every number in it from `stats`.
    pub text: String,
}

/// The verdict on a run of `valid_customers` valid customers: the harms first
/// (customers never charged, extra charges, declined cards asked again), then the cost.
/// A run seen before its end (`finished` false: paused, or at a playhead) has customers
/// "not charged yet", which is no harm, not "never charged".
pub fn verdict(stats: &Stats, valid_customers: u32, finished: bool) -> Verdict {
    let valid = u64::from(valid_customers);
    let uncharged = valid.saturating_sub(stats.customers_charged);
    let mut harms = Vec::new();
    let mut waiting = None;
    if uncharged > 0 {
        let (never, yet) = (count(uncharged), count(valid));
        if finished {
            harms.push(format!("{never} of {yet} valid customers never charged"));
        } else {
            waiting = Some(format!("{never} of {yet} valid customers not charged yet"));
        }
    }
    if stats.duplicates > 0 {
        harms.push(format!(
            "{} extra {} (customers who paid twice)",
            count(stats.duplicates),
            plural(stats.duplicates, "charge", "charges")
        ));
    }
    if stats.retried_declined > 0 {
        harms.push(format!(
            "{} {} for a declined card",
            count(stats.retried_declined),
            plural(stats.retried_declined, "retry", "retries")
        ));
    }
    let cost = format!(
        "{} requests in {}",
        count(stats.requests),
        duration_ms(stats.elapsed_ms)
    );
    let tone = if harms.is_empty() {
        Tone::Good
    } else {
        Tone::Harm
    };
    harms.extend(waiting);
    let text = if harms.is_empty() {
        format!(
            "All {} valid customers charged exactly once, with {cost}.",
            count(valid)
        )
    } else {
        format!("{}; {cost}.", capitalised(&harms.join(", ")))
    };
    Verdict { tone, text }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Why a run cannot start, by the field whose help says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunProblem {
    /// The seed typed is not a seed.
    Seed(String),
    /// The numbers cannot be run together, or not within the page's limits.
    Numbers(String),
}

/// Where a run is to run: how many customers the page runs (on its own thread, or up to
/// the core's limit in a simulation worker), and the device's memory in GiB if the
/// browser says (`navigator.deviceMemory`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Room {
    /// What the page runs.
    pub workload: Workload,
    /// The device's memory, if known.
    pub device_gib: Option<f64>,
}

impl Room {
    /// A page that runs everything on its own thread, on a device of unknown memory.
    pub const PAGE: Room = Room {
        workload: Workload::Run,
        device_gib: None,
    };
}

/// The scenario a run of `strategy` uses: `draft`'s numbers, the seed (as the seed field
/// read it: a number, or why its text is none), and a record kept only when the run is
/// small enough to draw. Or why it cannot run: the seed, the numbers, more customers than
/// the page runs, or more memory than the tab should take ([`crate::run::memory`]).
pub fn run_scenario(
    draft: &Scenario,
    seed: Result<u64, String>,
    strategy: StrategyName,
    room: Room,
) -> Result<Scenario, RunProblem> {
    let seed = seed.map_err(RunProblem::Seed)?;
    room.workload
        .check(draft)
        .map_err(|e| RunProblem::Numbers(e.sentence()))?;
    let scenario = Scenario {
        seed,
        strategy,
        record: keeps_record(draft.customers),
        ..draft.clone()
    };
    scenario
        .validate()
        .map_err(|e| RunProblem::Numbers(e.sentence()))?;
    crate::run::memory::check(&scenario, room.device_gib)
        .map_err(|e| RunProblem::Numbers(e.sentence()))?;
    Ok(scenario)
}

/// The note saying runs are instant because the reader's system asks for reduced
/// motion, hidden until the UI shows it.
pub const MOTION_NOTE: Slot = slot!("motion-note");
/// The note's button that animates anyway.
pub const ANIMATE: Slot = slot!("animate");

/// The reduced-motion note with its button: the run page's notice, or a `widget`'s
/// caption, a live widget over [`MotionState`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MotionNote {
    /// A widget's caption rather than the run page's notice.
    pub widget: bool,
}

/// What the reduced-motion note depends on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MotionState {
    /// The reader's system asks for reduced motion.
    pub reduced: bool,
    /// The playback's speed.
    pub speed: Speed,
}

impl MotionState {
    /// The note is shown while reduced motion is why runs are instant.
    pub fn shown(self) -> bool {
        self.reduced && self.speed == Speed::Instant
    }
}

impl Live for MotionNote {
    type State = MotionState;

    fn shape(&self, _: &MotionState) -> u64 {
        0
    }

    fn draw(&self, state: &MotionState, fill: &mut Fill) -> Markup {
        let (class, testid, instant) = match self.widget {
            false => ("rll-notice", "motion-note", "play instantly"),
            true => ("rll-caption", "widget-motion-note", "are instant"),
        };
        html! {
            p class=(class) data-slot=(MOTION_NOTE) data-testid=(testid) hidden[fill.flag(MOTION_NOTE, "hidden", !state.shown())] {
                "Your system asks for reduced motion, so runs " (instant) ". "
                button.rll-link type="button" data-slot=(ANIMATE) { "Animate anyway" }
            }
        }
    }
}

/// The button that breaks the provider during a watched run
/// ([`crate::run::incident::break_label`]).
pub const BREAK: Slot = slot!("break-provider");

/// The button that breaks the provider: shown while a run is watched, labelled with the
/// incident it starts. A live widget over [`BreakState`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakButton;

/// What the break button shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BreakState {
    /// A run plays, or is paused, at a watching speed.
    pub watched: bool,
    /// Its words: the incident it starts.
    pub label: String,
}

impl Live for BreakButton {
    type State = BreakState;

    fn shape(&self, _: &BreakState) -> u64 {
        0
    }

    fn draw(&self, state: &BreakState, fill: &mut Fill) -> Markup {
        html! {
            button.rll-break.rll-hidden[fill.class(BREAK, "rll-hidden", !state.watched)] type="button" data-slot=(BREAK) data-testid="break-provider" {
                (fill.text(BREAK, state.label.clone()))
            }
        }
    }
}

/// The "pause at the first harm" switch.
pub const PAUSE_AT_HARM: Slot = slot!("pause-at-harm");

/// The switch's words.
pub const PAUSE_AT_HARM_LABEL: &str = "Pause at the first harm";

/// The "pause at the first harm" switch, as markup set once: `on` at first (the
/// presenter's layout turns it on, [`pauses_at_harm`]).
pub fn pause_at_harm_markup(on: bool) -> Markup {
    html! {
        label.rll-switch {
            input type="checkbox" data-slot=(PAUSE_AT_HARM) data-testid="pause-at-harm" checked[on];
            " " (PAUSE_AT_HARM_LABEL)
        }
    }
}

/// The "pause at the first harm" switch ([`Live`]), drawn once: its state is whether it
/// is ticked at first, and the reader ticks it after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HarmSwitch;

impl Live for HarmSwitch {
    type State = bool;

    fn shape(&self, _: &bool) -> u64 {
        0
    }

    fn draw(&self, on: &bool, _: &mut Fill) -> Markup {
        pause_at_harm_markup(*on)
    }
}

/// Whether a run pauses at its first harm when the page opens: in the presenter's
/// layout, where the room should see the harm happen, not read about it afterwards.
pub fn pauses_at_harm(q: &crate::Base) -> bool {
    q.present
}

/// The strategy the run page opens on: the link's; in the presenter's layout without
/// one, timeout-no-key, the run that shows the problem (a double charge); else the
/// link's scenario's.
pub fn opening_strategy(q: &crate::Base) -> StrategyName {
    match (q.strategy(), q.present) {
        (Some(s), _) => s,
        (None, true) => StrategyName::TimeoutNoKey,
        (None, false) => q.scenario.strategy,
    }
}

/// The verdict's line: empty until the run is done, then how it went.
pub const SUMMARY: Slot = slot!("summary");
/// What the incident did, once the run is past it.
pub const INCIDENT_NOTE: Slot = slot!("incident-note");
/// Beside an outage's result, what the provider does with a 409 and while it is down
/// ([`crate::run::model::model_markup`]).
pub const MODEL_NOTE: Slot = slot!("model-note");

/// What the verdict's lines say: the verdict once the run has stopped, what the
/// incident did once the run is past it, and the provider's model beside an outage.
#[derive(Clone, Debug, Default)]
pub struct SummaryState {
    /// The verdict, once the run has stopped (paused, or finished).
    pub verdict: Option<Verdict>,
    /// What the incident did.
    pub incident: Option<String>,
    /// The provider's model, beside an outage (`run::model::model_markup`).
    pub model: Option<Markup>,
}

/// The verdict's lines ([`Live`]): the live region the verdict is announced in (silent,
/// and with no tone, until there is one), the incident's note, and the box the
/// provider's model is said in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary;

impl Live for Summary {
    type State = SummaryState;

    fn shape(&self, _: &SummaryState) -> u64 {
        0
    }

    fn draw(&self, s: &SummaryState, fill: &mut Fill) -> Markup {
        let tone = s.verdict.as_ref().map(|v| v.tone);
        let tone_name = match tone {
            Some(Tone::Good) => "good",
            Some(Tone::Harm) => "harm",
            None => "",
        };
        let text = s
            .verdict
            .as_ref()
            .map(|v| v.text.clone())
            .unwrap_or_default();
        html! {
            p.rll-summary.rll-summary-shown[fill.class(SUMMARY, "rll-summary-shown", tone.is_some())]
                .rll-summary-harm[fill.class(SUMMARY, "rll-summary-harm", tone == Some(Tone::Harm))]
                role="status" data-slot=(SUMMARY) data-testid="summary"
                data-tone=(fill.attr(SUMMARY, "data-tone", tone_name)) {
                (fill.text(SUMMARY, text))
            }
            p.rll-field-help data-slot=(INCIDENT_NOTE) data-testid="incident-note" {
                (fill.text(INCIDENT_NOTE, s.incident.clone().unwrap_or_default()))
            }
            div data-slot=(MODEL_NOTE) {
                (fill.markup(MODEL_NOTE, s.model.clone().unwrap_or(PreEscaped(String::new()))))
            }
        }
    }
}

/// The verdict's lines before any run: empty.
pub fn summary_markup() -> Markup {
    Summary.markup(&SummaryState::default())
}

/// The heading of the run page's stage.
pub const RUN_TITLE: &str = "Send the charges";

/// The heading of the run page's customers and their stories.
pub const GRID_TITLE: &str = "Every customer";

/// The stage's `id`, which a link to it names.
pub const STAGE_ID: &str = "rll-stage";

/// The link down to the stage, from the verdict of a shared run on a phone.
pub const STAGE_LINK: (&str, &str) = (const_format::concatcp!("#", STAGE_ID), "Watch it happen ↓");

/// The verdict card's label, and its small timeline's.
pub const VERDICT_LABELS: (&str, &str) = (
    "How this run ends",
    "The whole run: every request, one row per customer.",
);

/// What the run page's "Change the numbers" says an edit does.
pub const PARAMS_CAPTION: &str = "Changes apply to the next run. Every value has a range; anything outside it is refused, never quietly adjusted.";

/// Why a run cannot start, beside the button that started it, while a number under
/// "Change the numbers" cannot be used: why the first such field refuses its number (as
/// the field itself says), else the generic sentence.
pub fn numbers_not_ready(first: Option<&str>) -> String {
    match first {
        Some(why) => format!("{why} Fix the highlighted number under “Change the numbers” first."),
        None => NUMBERS_NOT_READY.to_string(),
    }
}

/// Why a run cannot start while a number under "Change the numbers" cannot be used.
pub const NUMBERS_NOT_READY: &str =
    "Some numbers under “Change the numbers” cannot be used yet: fix the highlighted ones first.";

/// Why a run too large to keep a record shows no timeline, grid or story.
pub fn unrecorded_sentence() -> String {
    format!(
        "Runs above {} customers keep no per-request record, so there is no timeline, grid or story: the counters above are the whole result.",
        crate::shared::format::count(crate::shared::budget::RECORD_MAX_CUSTOMERS.into())
    )
}

/// Where goodput over time is drawn, in a module without the chart ([`Live`], its state
/// the run's numbers under traffic that keeps arriving; none for a batch, which has no
/// such chart, and which the stylesheet hides). The note's link follows the numbers, so
/// its content is one markup hole ([`Fill::markup`]), written again when they change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowElsewhere;

/// The box that says where goodput over time is drawn.
pub const FLOW_ELSEWHERE: Slot = slot!("flow-elsewhere");

impl Live for FlowElsewhere {
    type State = Option<Scenario>;

    fn shape(&self, _: &Option<Scenario>) -> u64 {
        0
    }

    fn draw(&self, s: &Option<Scenario>, fill: &mut Fill) -> Markup {
        let inner = s
            .as_ref()
            .map(crate::run::flow::elsewhere_markup)
            .unwrap_or_default();
        html! {
            div class=(crate::run::flow::FLOW_CLASS) data-slot=(FLOW_ELSEWHERE) { (fill.markup(FLOW_ELSEWHERE, inner)) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::Simulation;

    #[test]
    fn the_flow_note_says_where_the_chart_is_only_for_traffic_that_keeps_arriving() {
        let steady = sim::outage::scenario(StrategyName::Budget, 4);
        crate::shared::live::check_drawn(&FlowElsewhere, &None).unwrap();
        crate::shared::live::check_drawn(&FlowElsewhere, &Some(steady.clone())).unwrap();
        assert_eq!(
            FlowElsewhere.markup(&None).into_string(),
            r#"<div class="rll-flow" data-slot="flow-elsewhere"></div>"#
        );
        assert!(FlowElsewhere
            .markup(&Some(steady))
            .into_string()
            .contains("flow-chart"));
    }

    fn run(strategy: StrategyName) -> (Stats, u32) {
        let sc = Scenario {
            strategy,
            seed: 7,
            ..Scenario::default()
        };
        let mut sim = Simulation::new(&sc).unwrap();
        sim.run_to_end();
        (
            sim.snapshot().stats,
            sc.provider.valid_customers(sc.customers),
        )
    }

    #[test]
    fn a_clean_run_is_good_and_says_what_it_cost() {
        let (stats, valid) = run(StrategyName::Keyed);
        let v = verdict(&stats, valid, true);
        assert_eq!(v.tone, Tone::Good, "{}", v.text);
        assert!(
            v.text.starts_with(&format!("All {valid} valid")),
            "{}",
            v.text
        );
        assert!(v.text.contains(&count(stats.requests)), "{}", v.text);
    }

    #[test]
    fn every_harm_is_named_with_its_number() {
        let (stats, valid) = run(StrategyName::TimeoutNoKey);
        assert!(stats.duplicates > 0);
        let v = verdict(&stats, valid, true);
        assert_eq!(v.tone, Tone::Harm);
        assert!(
            v.text
                .contains(&format!("{} extra charges", stats.duplicates)),
            "{}",
            v.text
        );
        let (stats, valid) = run(StrategyName::Naive);
        let v = verdict(&stats, valid, true);
        assert_eq!(v.tone, Tone::Harm);
        let never = u64::from(valid) - stats.customers_charged;
        assert!(
            v.text.starts_with(&format!(
                "{} of {} valid customers never charged",
                count(never),
                count(valid.into())
            )),
            "{}",
            v.text
        );
        let one = Stats {
            duplicates: 1,
            retried_declined: 1,
            customers_charged: 5,
            requests: 9,
            elapsed_ms: 17,
            ..Stats::default()
        };
        assert_eq!(
            verdict(&one, 5, true).text,
            "1 extra charge (customers who paid twice), 1 retry for a declined card; 9 requests in 17 ms."
        );
    }

    #[test]
    fn each_strategy_shows_four_different_counters_led_by_customers_charged() {
        for s in StrategyName::ALL {
            let k = key_stats(s);
            assert_eq!(k[0], StatField::CustomersCharged);
            for (i, a) in k.iter().enumerate() {
                assert!(!k[i + 1..].contains(a), "{s}: {a} twice");
            }
        }
    }

    #[test]
    fn the_motion_note_and_the_summary_name_their_nodes() {
        for widget in [false, true] {
            let note = MotionNote { widget };
            let m = note.markup(&MotionState::default()).into_string();
            assert!(
                m.contains(" hidden>Your system asks for reduced motion"),
                "{m}"
            );
            assert!(
                m.contains("data-slot=\"animate\">Animate anyway</button></p>"),
                "{m}"
            );
            // Shown only while reduced motion is why runs are instant.
            for (reduced, speed, shown) in [
                (true, Speed::Instant, true),
                (true, Speed::X10, false),
                (false, Speed::Instant, false),
            ] {
                let state = MotionState { reduced, speed };
                assert_eq!(state.shown(), shown);
                let m = note.markup(&state).into_string();
                assert_eq!(m.contains(" hidden>"), !shown, "{m}");
                crate::shared::live::check_drawn(&note, &state).unwrap();
            }
        }
        assert!(MotionNote { widget: true }
            .markup(&MotionState::default())
            .into_string()
            .contains("data-testid=\"widget-motion-note\""));
        let m = summary_markup().into_string();
        for slot in [SUMMARY, INCIDENT_NOTE, MODEL_NOTE] {
            assert!(m.contains(&format!("data-slot=\"{}\"", slot.name())), "{m}");
        }
        assert!(m.contains(r#"<p class="rll-summary" role="status""#), "{m}");
        crate::shared::live::check_drawn(&Summary, &SummaryState::default()).unwrap();
        let harmed = SummaryState {
            verdict: Some(verdict(
                &Stats {
                    duplicates: 3,
                    customers_charged: 10,
                    ..Stats::default()
                },
                10,
                true,
            )),
            incident: Some("The outage <ended>.".into()),
            model: crate::run::model::model_markup(&sim::outage::scenario(StrategyName::Keyed, 1)),
        };
        assert!(harmed.model.is_some());
        crate::shared::live::check_drawn(&Summary, &harmed).unwrap();
        let m = Summary.markup(&harmed).into_string();
        assert!(
            m.contains(r#"class="rll-summary rll-summary-shown rll-summary-harm""#),
            "{m}"
        );
        assert!(
            m.contains(r#"data-tone="harm""#) && m.contains("The outage &lt;ended&gt;."),
            "{m}"
        );
        assert_eq!(STAGE_LINK.0, "#rll-stage");
        let idle = BreakButton.markup(&BreakState::default()).into_string();
        assert!(
            idle.contains(r#"class="rll-break rll-hidden" type="button" data-slot="break-provider" data-testid="break-provider"></button>"#),
            "{idle}"
        );
        let watched = BreakState {
            watched: true,
            label: "Break the provider for 3 s".into(),
        };
        crate::shared::live::check_drawn(&BreakButton, &watched).unwrap();
        let m = BreakButton.markup(&watched).into_string();
        assert!(
            m.contains(r#"class="rll-break" type="button""#)
                && m.contains(">Break the provider for 3 s</button>"),
            "{m}"
        );
    }

    #[test]
    fn a_run_takes_the_seed_typed_and_says_which_field_is_wrong() {
        let draft = Scenario::default();
        let sc = run_scenario(
            &draft,
            crate::parse_seed(" 42 "),
            StrategyName::Pool,
            Room::PAGE,
        )
        .unwrap();
        assert_eq!(
            (sc.seed, sc.strategy, sc.customers),
            (42, StrategyName::Pool, draft.customers)
        );
        assert_eq!(sc.record, keeps_record(draft.customers));
        assert!(matches!(
            run_scenario(
                &draft,
                crate::parse_seed("x1"),
                StrategyName::Pool,
                Room::PAGE
            ),
            Err(RunProblem::Seed(_))
        ));
        let huge = Scenario {
            customers: 5_000_000,
            ..draft.clone()
        };
        let Err(RunProblem::Numbers(why)) =
            run_scenario(&huge, Ok(1), StrategyName::Pool, Room::PAGE)
        else {
            panic!("five million customers run on the page's thread")
        };
        assert!(
            why.contains("1,000,000") && why.contains("run.html"),
            "{why}"
        );
        // A page with a simulation worker runs them, on a device that can hold them.
        let worker = Room {
            workload: Workload::WorkerRun,
            device_gib: Some(8.0),
        };
        assert_eq!(
            run_scenario(&huge, Ok(1), StrategyName::Pool, worker).map(|s| s.customers),
            Ok(5_000_000)
        );
        let small_device = Room {
            device_gib: Some(1.0),
            ..worker
        };
        let Err(RunProblem::Numbers(why)) =
            run_scenario(&huge, Ok(1), StrategyName::Pool, small_device)
        else {
            panic!("400 MB on a 1 GB device")
        };
        assert!(why.contains("a quarter of this device's 1 GB"), "{why}");
        let big = Scenario {
            customers: 60_000,
            ..draft
        };
        assert!(
            !run_scenario(&big, Ok(1), StrategyName::Pool, Room::PAGE)
                .unwrap()
                .record,
            "no record above the drawing limit"
        );
    }

    #[test]
    fn before_the_end_customers_are_not_charged_yet_not_never_charged() {
        let sc = Scenario::article(StrategyName::TimeoutNoKey, 1);
        let mut sim = Simulation::new(&sc).unwrap();
        sim.run_until(11_230_000);
        let stats = sim.snapshot().stats;
        let valid = sc.provider.valid_customers(sc.customers);
        let uncharged = u64::from(valid) - stats.customers_charged;
        assert!(uncharged > 0 && stats.duplicates > 0, "{stats:?}");
        let mid = verdict(&stats, valid, false);
        assert!(!mid.text.contains("never"), "{}", mid.text);
        assert!(
            mid.text
                .starts_with(&format!("{} extra charge", count(stats.duplicates))),
            "the harm first: {}",
            mid.text
        );
        assert!(
            mid.text.contains(&format!(
                ", {} of {} valid customers not charged yet; ",
                count(uncharged),
                count(valid.into())
            )),
            "{}",
            mid.text
        );
        assert_eq!(mid.tone, Tone::Harm, "the extra charges are harm already");
        // The same numbers at the end of a run are a harm of their own.
        let end = verdict(&stats, valid, true);
        assert!(
            end.text.starts_with(&format!(
                "{} of {} valid customers never charged",
                count(uncharged),
                count(valid.into())
            )),
            "{}",
            end.text
        );
        // Waiting is no harm: early in a keyed run, nobody has been hurt.
        let keyed = Scenario::article(StrategyName::Keyed, 1);
        let mut sim = Simulation::new(&keyed).unwrap();
        sim.run_until(2_000_000);
        let early = verdict(&sim.snapshot().stats, valid, false);
        assert_eq!(early.tone, Tone::Good, "{}", early.text);
        assert!(early.text.contains("not charged yet"), "{}", early.text);
    }

    #[test]
    fn the_presenter_opens_on_the_problem_at_1x_pausing_at_the_first_harm() {
        let read = |pairs: &[(&str, &str)]| {
            let pairs: Vec<(String, String)> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            crate::parse(&pairs)
        };
        let room = read(&[("present", "1")]);
        assert_eq!(opening_strategy(&room.base), StrategyName::TimeoutNoKey);
        assert_eq!(room.base.speed, crate::Speed::X1);
        assert!(pauses_at_harm(&room.base));
        assert!(room.base.problems.is_empty(), "{:?}", room.base.problems);
        // Unless the link says otherwise.
        let asked = read(&[("present", "1"), ("strategy", "pool"), ("speed", "10x")]);
        assert_eq!(opening_strategy(&asked.base), StrategyName::Pool);
        assert_eq!(asked.base.speed, crate::Speed::X10);
        // A reader's page is as before.
        let reader = read(&[]);
        assert_eq!(
            opening_strategy(&reader.base),
            reader.base.scenario.strategy
        );
        assert_eq!(reader.base.speed, crate::Speed::default());
        assert!(!pauses_at_harm(&reader.base));
        let m = pause_at_harm_markup(true).into_string();
        assert!(
            m.contains("data-slot=\"pause-at-harm\" data-testid=\"pause-at-harm\" checked>"),
            "{m}"
        );
        assert!(!pause_at_harm_markup(false)
            .into_string()
            .contains("checked"));
    }
}

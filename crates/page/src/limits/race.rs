//! The race, stepped, in words and markup: two instances and a shared counter, each step
//! of the core's race ([`sim::fleet::race`]) as a sentence, the counter and each
//! instance as they stand, and the buttons that step. A live widget ([`RaceWidget`]):
//! drawn once per mode, then only what a step changes is written. The UI steps it with
//! the buttons or the arrow keys.

use crate::shared::format::count;
use crate::shared::live::{Fill, Live};
use crate::shared::markup::Whole;
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
use sim::fleet::engine::{FleetStep, StepKind};
use sim::fleet::race::{Race, RaceMode, RACE_AT_US, RACE_GAP_US, RACE_LIMIT, RACE_RTT_US};

/// What the race shows: which way the counter is updated, and how many steps are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceState {
    /// Read-then-write or the atomic script.
    pub mode: RaceMode,
    /// Steps taken, from 0 to the race's length.
    pub at: usize,
}

impl Default for RaceState {
    fn default() -> Self {
        Self {
            mode: RaceMode::ReadThenWrite,
            at: 0,
        }
    }
}

impl RaceState {
    /// One step on, stopping at the end.
    pub fn next(self) -> Self {
        Self {
            at: (self.at + 1).min(Race::len(self.mode)),
            ..self
        }
    }

    /// One step back, stopping at the start.
    pub fn back(self) -> Self {
        Self {
            at: self.at.saturating_sub(1),
            ..self
        }
    }

    /// The race from the start in `mode`.
    pub fn with_mode(mode: RaceMode) -> Self {
        Self { mode, at: 0 }
    }
}

/// The race's box: it takes the arrow keys.
pub const RACE: Slot = slot!("race");
/// The button that steps back.
pub const RACE_BACK: Slot = slot!("race-back");
/// The button that steps on.
pub const RACE_NEXT: Slot = slot!("race-next");
/// The step count, "step 2 of 6".
pub const RACE_POSITION: Slot = slot!("race-position");
/// The simulated clock.
pub const RACE_CLOCK: Slot = slot!("race-clock");
/// The counter in the store.
pub const RACE_COUNTER: Slot = slot!("race-counter");
/// Requests admitted so far.
pub const RACE_ADMITTED: Slot = slot!("race-admitted");
/// Each instance's state (two nodes).
pub const RACE_INSTANCE: Slot = slot!("race-instance");
/// The step's sentence.
pub const RACE_SAY: Slot = slot!("race-say");
/// The log's items, one per step.
pub const RACE_LOG: Slot = slot!("race-log");

/// The button that picks `mode`.
pub const fn mode_slot(mode: RaceMode) -> Slot {
    match mode {
        RaceMode::ReadThenWrite => slot!("race-read-then-write"),
        RaceMode::Atomic => slot!("race-atomic"),
    }
}

/// A mode's button label.
pub const fn mode_label(mode: RaceMode) -> &'static str {
    match mode {
        RaceMode::ReadThenWrite => "Read, then write",
        RaceMode::Atomic => "Atomic script",
    }
}

/// The race's heading.
pub const RACE_TITLE: &str = "The race for the last request, stepped";

/// An instant as the race's clock shows it: microseconds after the 10th request arrived.
pub fn clock(at_us: u64) -> String {
    format!("t = {} µs", at_us.saturating_sub(RACE_AT_US))
}

/// Instances are numbered from 1 for readers.
fn instance(step: &FleetStep) -> u32 {
    step.instance + 1
}

/// What one step did, as a sentence.
pub fn say(step: &FleetStep) -> String {
    let (who, n) = (instance(step), Race::number(step));
    match step.kind {
        StepKind::Read { room } => format!(
            "Instance {who} reads the counter for request {n}: {} of {RACE_LIMIT} used, so there is room.",
            RACE_LIMIT - room.min(RACE_LIMIT)
        ),
        StepKind::Decide { admitted: true } => format!(
            "The count is back at instance {who}: it admits request {n} and sends the new count to be written."
        ),
        StepKind::Decide { admitted: false } => {
            format!("The count is back at instance {who}: no room, request {n} gets a 429.")
        }
        StepKind::Write { room } => format!(
            "Instance {who}'s write reaches the store: the counter is set to {}, whatever it held.",
            RACE_LIMIT - room.min(RACE_LIMIT)
        ),
        StepKind::Script { admitted: true, room } => format!(
            "Instance {who}'s script counts request {n} inside the store: {} of {RACE_LIMIT}, admitted.",
            RACE_LIMIT - room.min(RACE_LIMIT)
        ),
        StepKind::Script { admitted: false, .. } => format!(
            "Instance {who}'s script finds {RACE_LIMIT} of {RACE_LIMIT} already counted: request {n} gets a 429."
        ),
        StepKind::Local { admitted } => format!(
            "Instance {who} decides request {n} alone: {}.",
            if admitted { "admitted" } else { "refused" }
        ),
        StepKind::Cached => format!("Instance {who} refuses request {n} from its cache."),
        StepKind::Forward { owner } => {
            format!("Instance {who} forwards request {n} to instance {}.", owner + 1)
        }
    }
}

/// What instance `i` (from 0) is doing after the steps taken.
fn phase(race: &Race, i: u32) -> String {
    let last = race.steps.iter().rev().find(|s| s.instance == i);
    let n = |s: &FleetStep| Race::number(s);
    match last {
        None => "waiting for its request".into(),
        Some(s) => match s.kind {
            StepKind::Read { room } => format!(
                "read {} for request {}",
                RACE_LIMIT - room.min(RACE_LIMIT),
                n(s)
            ),
            StepKind::Decide { admitted } => format!(
                "{} request {}",
                if admitted { "admitted" } else { "refused" },
                n(s)
            ),
            StepKind::Write { room } => format!("wrote {}", RACE_LIMIT - room.min(RACE_LIMIT)),
            StepKind::Script { admitted, .. } => format!(
                "{} request {}",
                if admitted { "admitted" } else { "refused" },
                n(s)
            ),
            _ => String::new(),
        },
    }
}

/// The sentence under the counter: where the race stands, and at its end what it came to.
pub fn verdict(race: &Race, done: bool) -> String {
    if race.steps.is_empty() {
        return format!(
            "Requests 1 to {} were admitted earlier; the counter holds {}. Requests {} and {} arrive {} µs apart, at different instances; the store is {} µs away, there and back. Step with → and ←, or the buttons.",
            RACE_LIMIT - 1,
            race.counter,
            RACE_LIMIT,
            RACE_LIMIT + 1,
            RACE_GAP_US,
            count(RACE_RTT_US)
        );
    }
    let step = race.steps[race.steps.len() - 1];
    let said = say(&step);
    if !done {
        return said;
    }
    let total = race.admitted;
    let end = if total > RACE_LIMIT {
        format!(
            " {total} requests admitted against a limit of {RACE_LIMIT}, and the counter says {}: request {} slipped through.",
            race.counter,
            RACE_LIMIT + 1
        )
    } else {
        format!(
            " {total} requests admitted, the limit held; the counter says {}.",
            race.counter
        )
    };
    format!("{said}{end}")
}

/// The race ([`Live`]): its shape is its mode (each mode has its own number of steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceWidget;

impl Live for RaceWidget {
    type State = RaceState;

    fn shape(&self, _: &RaceState) -> u64 {
        // One structure for both modes (the log as long as the longer race), so that
        // switching modes moves no node and the focus stays where the reader left it.
        0
    }

    fn draw(&self, s: &RaceState, fill: &mut Fill) -> Markup {
        let len = Race::len(s.mode);
        let whole = Race::at(s.mode, len);
        let race = Race::at(s.mode, s.at);
        let done = s.at >= len;
        let clock_at = race.steps.last().map_or(RACE_AT_US, |st| st.at_us);
        html! {
            div.rll-segmented role="group" aria-label="How the instances update the counter" {
                @for m in RaceMode::ALL {
                    button type="button" data-slot=(mode_slot(m)) data-race-mode=(m.as_str())
                        aria-pressed=(fill.attr(mode_slot(m), "aria-pressed", if m == s.mode { "true" } else { "false" })) { (mode_label(m)) }
                }
            }
            div.rll-race tabindex="0" role="group" data-slot=(RACE) data-testid="race"
                aria-label="The race: press → for the next step and ← for the one before"
                data-race-at=(fill.attr(RACE, "data-race-at", STEP_NAMES[s.at.min(STEP_NAMES.len() - 1)])) {
                div.rll-race-board {
                    div.rll-race-cell {
                        span.rll-field-label { "Store counter" }
                        strong data-slot=(RACE_COUNTER) data-testid="race-counter" { (fill.text(RACE_COUNTER, race.counter.to_string())) }
                        span { " of " (Whole(RACE_LIMIT.into())) }
                    }
                    @for i in 0..2u32 {
                        div.rll-race-cell {
                            span.rll-field-label { "Instance " (Whole(u64::from(i) + 1)) }
                            span data-slot=(RACE_INSTANCE) { (fill.text(RACE_INSTANCE, phase(&race, i))) }
                        }
                    }
                    div.rll-race-cell {
                        span.rll-field-label { "Admitted" }
                        strong data-slot=(RACE_ADMITTED) data-testid="race-admitted" { (fill.text(RACE_ADMITTED, race.admitted.to_string())) }
                    }
                }
                p.rll-race-say aria-live="polite" data-slot=(RACE_SAY) data-testid="race-say" { (fill.text(RACE_SAY, verdict(&race, done))) }
                div.rll-buttons {
                    button type="button" data-slot=(RACE_BACK) data-testid="race-back" aria-keyshortcuts="ArrowLeft"
                        disabled[fill.flag(RACE_BACK, "disabled", s.at == 0)] { "← Back" }
                    button type="button" data-slot=(RACE_NEXT) data-testid="race-next" aria-keyshortcuts="ArrowRight"
                        disabled[fill.flag(RACE_NEXT, "disabled", done)] { "Next →" }
                    span.rll-field-help data-slot=(RACE_POSITION) data-testid="race-position" {
                        (fill.text(RACE_POSITION, format!("step {} of {len}, {}", s.at, clock(clock_at))))
                    }
                }
                ol.rll-race-log {
                    @for k in 0..longest() {
                        @let step = whole.steps.get(k);
                        li data-slot=(RACE_LOG) hidden[fill.flag(RACE_LOG, "hidden", k >= s.at.min(len))] {
                            (fill.text(RACE_LOG, step.map(|st| format!("{}: {}", clock(st.at_us), say(st))).unwrap_or_default()))
                        }
                    }
                }
            }
        }
    }
}

/// Steps in the longer of the two races: the log's length in either mode.
fn longest() -> usize {
    RaceMode::ALL.into_iter().map(Race::len).max().unwrap_or(0)
}

/// `data-race-at` values: how many steps are taken, as a word tests can wait for.
const STEP_NAMES: [&str; 8] = ["0", "1", "2", "3", "4", "5", "6", "7"];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::live::check_drawn;

    #[test]
    fn every_step_of_both_modes_is_drawn_where_it_is_filled() {
        for mode in RaceMode::ALL {
            for at in 0..=Race::len(mode) {
                let s = RaceState { mode, at };
                check_drawn(&RaceWidget, &s).unwrap();
            }
            assert!(Race::len(mode) < STEP_NAMES.len());
        }
    }

    #[test]
    fn read_then_write_ends_with_the_eleventh_admitted_and_the_script_does_not() {
        let mut s = RaceState::default();
        let first = RaceWidget.markup(&s).into_string();
        assert!(first.contains("Requests 1 to 9 were admitted earlier; the counter holds 9."));
        for _ in 0..10 {
            s = s.next();
        }
        assert_eq!(s.at, 6);
        let end = RaceWidget.markup(&s).into_string();
        assert!(
            end.contains("11 requests admitted against a limit of 10, and the counter says 10: request 11 slipped through."),
            "{end}"
        );
        assert!(end.contains("data-testid=\"race-admitted\">11<"));
        let s = RaceState::with_mode(RaceMode::Atomic).next().next().next();
        let end = RaceWidget.markup(&s).into_string();
        assert!(
            end.contains("10 requests admitted, the limit held; the counter says 10."),
            "{end}"
        );
        assert!(end.contains("request 11 gets a 429."));
        assert_eq!(RaceState::default().back(), RaceState::default());
        // Both modes draw the same nodes: switching moves none.
        let rw = RaceWidget.shape(&RaceState::default());
        assert_eq!(
            rw,
            RaceWidget.shape(&RaceState::with_mode(RaceMode::Atomic))
        );
        let mut a = Fill::default();
        let mut b = Fill::default();
        RaceWidget.draw(&RaceState::default(), &mut a);
        RaceWidget.draw(&RaceState::with_mode(RaceMode::Atomic), &mut b);
        assert_eq!(a.writes().len(), b.writes().len());
        assert!(a.writes().iter().zip(b.writes()).all(|(x, y)| x.0 == y.0));
    }

    #[test]
    fn one_step_changes_only_what_it_changes() {
        let mut a = Fill::default();
        let mut b = Fill::default();
        RaceWidget.draw(&RaceState::default(), &mut a);
        RaceWidget.draw(&RaceState::default().next(), &mut b);
        let changed = a.changed_since(&b).count();
        // The box's step, an instance, the sentence, Back, the position and one log item.
        assert_eq!(changed, 6);
        assert_eq!(clock(RACE_AT_US + 250), "t = 250 µs");
    }
}

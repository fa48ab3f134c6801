//! The control bar's words and markup: the speeds, the seed field and the run buttons.
//! The bar is a live widget ([`ControlBar`]): drawn once, and then only what a run
//! changes is written (which speed is pressed, the buttons' labels, the seed's help);
//! the UI reads clicks by the buttons' slots.

use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use crate::Speed;
use maud::{html, Markup};

/// What the seed field says when the seed typed can be used.
pub const SEED_HELP: &str = "Same seed, same numbers, every time.";

/// The seed field.
pub const SEED: Slot = slot!("seed");
/// The seed field's help line: the rule, or why the seed typed cannot be used.
pub const SEED_HELP_LINE: Slot = slot!("seed-help");
/// Why a run cannot start, when it cannot.
pub const RUN_ERROR: Slot = slot!("run-error");

/// The button that plays at `speed`.
pub const fn speed_slot(speed: Speed) -> Slot {
    match speed {
        Speed::Instant => slot!("speed-instant"),
        Speed::X10 => slot!("speed-10x"),
        Speed::X1 => slot!("speed-1x"),
        Speed::X01 => slot!("speed-0.1x"),
        Speed::X001 => slot!("speed-0.01x"),
    }
}

/// What a control button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Run the selected strategy with the seed typed.
    Run,
    /// Pick a random seed and run.
    NewSeed,
    /// Pause, or resume a paused run.
    Pause,
    /// Back to before the run.
    Reset,
}

impl Action {
    /// Every action, in the bar's order.
    pub const ALL: [Action; 4] = [Action::Run, Action::NewSeed, Action::Pause, Action::Reset];

    /// Its button.
    pub const fn slot(self) -> Slot {
        match self {
            Action::Run => slot!("run"),
            Action::NewSeed => slot!("new-seed"),
            Action::Pause => slot!("pause"),
            Action::Reset => slot!("reset"),
        }
    }
}

/// The run button's label: "Run" before any run, "Run again" after.
pub fn run_label(idle: bool) -> &'static str {
    if idle {
        "Run"
    } else {
        "Run again"
    }
}

/// The pause button's label: a run in a simulation worker cannot pause, only stop
/// (`run::whole`), so its button says Cancel.
pub fn pause_label(paused: bool, offloaded: bool) -> &'static str {
    match (paused, offloaded) {
        (_, true) => "Cancel",
        (true, false) => "Resume",
        (false, false) => "Pause",
    }
}

/// What the control bar shows: the speed pressed, the run's state, the seed as typed,
/// and what stops a run or became of one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarState {
    /// The speed pressed.
    pub speed: Speed,
    /// Nothing has run yet (or the run was reset).
    pub idle: bool,
    /// A run is paused.
    pub paused: bool,
    /// A run is playing or paused: it can pause, resume or stop.
    pub active: bool,
    /// The run on screen runs in a simulation worker: it can only stop.
    pub offloaded: bool,
    /// The seed as typed.
    pub seed: String,
    /// Why the seed typed cannot be used, if it cannot.
    pub seed_error: Option<String>,
    /// Why a run cannot start, if it cannot.
    pub run_error: Option<String>,
    /// What became of a run in a worker, if anything is to be said.
    pub note: Option<String>,
}

impl BarState {
    /// The bar before any run, with `seed` typed.
    pub fn before_any_run(speed: Speed, seed: String) -> Self {
        Self {
            speed,
            idle: true,
            paused: false,
            active: false,
            offloaded: false,
            seed,
            seed_error: None,
            run_error: None,
            note: None,
        }
    }
}

/// The control bar ([`Live`]): every speed, the seed field, and the run, pause and reset
/// buttons, with what a run changes in them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControlBar;

impl Live for ControlBar {
    type State = BarState;

    fn shape(&self, _: &BarState) -> u64 {
        0
    }

    fn draw(&self, b: &BarState, fill: &mut Fill) -> Markup {
        let said = b.run_error.clone().or_else(|| b.note.clone());
        html! {
            div.rll-field {
                span.rll-field-label #rll-speed-label { "Speed" }
                div.rll-segmented role="group" aria-labelledby="rll-speed-label" {
                    @for s in Speed::ALL {
                        @let pressed = if s == b.speed { "true" } else { "false" };
                        button type="button" data-slot=(speed_slot(s)) data-speed=(s.as_str())
                            aria-pressed=(fill.attr(speed_slot(s), "aria-pressed", pressed)) { (s.label()) }
                    }
                }
            }
            div.rll-field {
                label.rll-field-label for="rll-seed" { "Seed" }
                div.rll-seed-row {
                    input #rll-seed type="text" inputmode="numeric" autocomplete="off" spellcheck="false"
                        data-slot=(SEED) data-testid="seed"
                        value=(fill.value(SEED, b.seed.clone()))
                        aria-invalid=(fill.attr(SEED, "aria-invalid", if b.seed_error.is_some() { "true" } else { "false" }))
                        aria-describedby="rll-seed-help";
                    button.rll-quiet type="button" data-slot=(Action::NewSeed.slot())
                        title="Pick a random seed and run" { "New seed" }
                }
                span #rll-seed-help .rll-field-help.rll-error[fill.class(SEED_HELP_LINE, "rll-error", b.seed_error.is_some())]
                    data-slot=(SEED_HELP_LINE) {
                    (fill.text(SEED_HELP_LINE, b.seed_error.clone().unwrap_or_else(|| SEED_HELP.into())))
                }
            }
            div.rll-buttons {
                button.rll-primary type="button" data-slot=(Action::Run.slot()) data-testid="run" {
                    (fill.text(Action::Run.slot(), run_label(b.idle).into()))
                }
                button type="button" data-slot=(Action::Pause.slot()) data-testid="pause"
                    disabled[fill.flag(Action::Pause.slot(), "disabled", !b.active)] {
                    (fill.text(Action::Pause.slot(), pause_label(b.paused, b.offloaded).into()))
                }
                button type="button" data-slot=(Action::Reset.slot()) data-testid="reset"
                    disabled[fill.flag(Action::Reset.slot(), "disabled", b.idle)] { "Reset" }
                p.rll-field-help.rll-run-note.rll-error[fill.class(RUN_ERROR, "rll-error", b.run_error.is_some())]
                    role="alert" data-slot=(RUN_ERROR) data-testid="run-error"
                    hidden[fill.flag(RUN_ERROR, "hidden", said.is_none())] {
                    (fill.text(RUN_ERROR, said.clone().unwrap_or_default()))
                }
            }
        }
    }
}

/// The bar as it stands before any run, at the default speed with no seed typed.
pub fn controls_markup() -> Markup {
    ControlBar.markup(&BarState::before_any_run(Speed::default(), String::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_speed_and_action_has_one_button_of_its_own() {
        let m = controls_markup().into_string();
        let slots = Speed::ALL
            .map(speed_slot)
            .into_iter()
            .chain(Action::ALL.map(Action::slot))
            .chain([SEED, SEED_HELP_LINE, RUN_ERROR]);
        let mut names = std::collections::BTreeSet::new();
        for slot in slots {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(m.matches(&attr).count(), 1, "{slot:?}");
            assert!(names.insert(slot.name()), "{slot:?} named twice");
        }
        for s in Speed::ALL {
            assert!(
                m.contains(&format!("data-speed=\"{}\"", s.as_str())),
                "{s:?}"
            );
        }
        assert!(m.contains(SEED_HELP));
    }

    #[test]
    fn the_bar_draws_what_a_run_changes_in_it() {
        let mut b = BarState::before_any_run(Speed::X1, "7".into());
        crate::shared::live::check_drawn(&ControlBar, &b).unwrap();
        let m = ControlBar.markup(&b).into_string();
        assert!(m.contains(r#"data-speed="1x" aria-pressed="true""#), "{m}");
        assert!(m.contains(r#"data-testid="pause" disabled>Pause"#), "{m}");
        assert!(m.contains(r#"data-testid="run-error" hidden></p>"#), "{m}");
        b.idle = false;
        b.active = true;
        b.offloaded = true;
        b.seed_error = Some("No <seed>.".into());
        b.note = Some("Cancelled.".into());
        crate::shared::live::check_drawn(&ControlBar, &b).unwrap();
        let m = ControlBar.markup(&b).into_string();
        assert!(m.contains(r#"data-testid="pause">Cancel"#), "{m}");
        assert!(m.contains("No &lt;seed&gt;."), "{m}");
        assert!(
            m.contains(r#"data-testid="run-error">Cancelled.</p>"#),
            "{m}"
        );
        assert!(
            m.contains(r#"class="rll-field-help rll-run-note" role"#),
            "{m}"
        );
    }

    #[test]
    fn labels_follow_the_run() {
        assert_eq!(run_label(true), "Run");
        assert_eq!(run_label(false), "Run again");
        assert_eq!(pause_label(true, false), "Resume");
        assert_eq!(pause_label(false, false), "Pause");
        assert_eq!(pause_label(false, true), "Cancel");
    }
}

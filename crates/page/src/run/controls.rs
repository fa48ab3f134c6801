//! The control bar's words and markup: the speeds, the seed field and the run buttons.
//! The bar is one string set once ([`crate::shared::markup`]); the UI then changes only what a
//! run changes (which speed is pressed, the buttons' labels, the seed's help) and
//! reads clicks by the buttons' `data-speed` and `data-action`.

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

/// The bar as it stands before any run: every speed (none pressed yet), the seed field
/// (its value is set by the UI), and the run, pause and reset buttons.
pub fn controls_markup() -> Markup {
    html! {
        div.rll-field {
            span.rll-field-label #rll-speed-label { "Speed" }
            div.rll-segmented role="group" aria-labelledby="rll-speed-label" {
                @for s in Speed::ALL {
                    button type="button" data-slot=(speed_slot(s)) data-speed=(s.as_str()) aria-pressed="false" { (s.label()) }
                }
            }
        }
        div.rll-field {
            label.rll-field-label for="rll-seed" { "Seed" }
            div.rll-seed-row {
                input #rll-seed type="text" inputmode="numeric" autocomplete="off" spellcheck="false"
                    data-slot=(SEED) data-testid="seed" aria-invalid="false" aria-describedby="rll-seed-help";
                button.rll-quiet type="button" data-slot=(Action::NewSeed.slot())
                    title="Pick a random seed and run" { "New seed" }
            }
            span #rll-seed-help .rll-field-help data-slot=(SEED_HELP_LINE) { (SEED_HELP) }
        }
        div.rll-buttons {
            button.rll-primary type="button" data-slot=(Action::Run.slot()) data-testid="run" { (run_label(true)) }
            button type="button" data-slot=(Action::Pause.slot()) data-testid="pause" disabled { (pause_label(false, false)) }
            button type="button" data-slot=(Action::Reset.slot()) data-testid="reset" disabled { "Reset" }
            p.rll-field-help.rll-run-note.rll-error role="alert" data-slot=(RUN_ERROR) data-testid="run-error" hidden {}
        }
    }
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
    fn labels_follow_the_run() {
        assert_eq!(run_label(true), "Run");
        assert_eq!(run_label(false), "Run again");
        assert_eq!(pause_label(true, false), "Resume");
        assert_eq!(pause_label(false, false), "Pause");
        assert_eq!(pause_label(false, true), "Cancel");
    }
}

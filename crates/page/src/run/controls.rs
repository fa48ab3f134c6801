//! The control bar's words and markup: the speeds, the seed field and the run buttons.
//! The bar is one string set once ([`crate::shared::markup`]); the UI then changes only what a
//! run changes (which speed is pressed, the buttons' labels, the seed's help) and
//! reads clicks by the buttons' `data-speed` and `data-action`.

use crate::shared::markup::escape;
use crate::Speed;

/// What the seed field says when the seed typed can be used.
pub const SEED_HELP: &str = "Same seed, same numbers, every time.";

/// What a control button does, as its `data-action`.
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
    const ALL: [Action; 4] = [Action::Run, Action::NewSeed, Action::Pause, Action::Reset];

    /// The `data-action` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Run => "run",
            Action::NewSeed => "new-seed",
            Action::Pause => "pause",
            Action::Reset => "reset",
        }
    }

    /// The action a `data-action` value names.
    pub fn from_attr(value: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.as_str() == value)
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

/// The pause button's label.
pub fn pause_label(paused: bool) -> &'static str {
    if paused {
        "Resume"
    } else {
        "Pause"
    }
}

/// The bar as it stands before any run: every speed (none pressed yet), the seed field
/// (its value is set by the UI), and the run, pause and reset buttons.
pub fn controls_markup() -> String {
    let speeds: String = Speed::ALL
        .iter()
        .map(|s| {
            format!(
                "<button type=\"button\" data-speed=\"{}\" aria-pressed=\"false\">{}</button>",
                s.as_str(),
                escape(s.label())
            )
        })
        .collect();
    format!(
        concat!(
            "<div class=\"rll-field\"><span class=\"rll-field-label\" id=\"rll-speed-label\">Speed</span>",
            "<div class=\"rll-segmented\" role=\"group\" aria-labelledby=\"rll-speed-label\">{speeds}</div></div>",
            "<div class=\"rll-field\"><label class=\"rll-field-label\" for=\"rll-seed\">Seed</label>",
            "<div class=\"rll-seed-row\"><input id=\"rll-seed\" type=\"text\" inputmode=\"numeric\" autocomplete=\"off\" ",
            "spellcheck=\"false\" data-testid=\"seed\" aria-invalid=\"false\" aria-describedby=\"rll-seed-help\">",
            "<button type=\"button\" class=\"rll-quiet\" data-action=\"{new_seed}\" title=\"Pick a random seed and run\">New seed</button></div>",
            "<span id=\"rll-seed-help\" class=\"rll-field-help\">{help}</span></div>",
            "<div class=\"rll-buttons\">",
            "<button type=\"button\" class=\"rll-primary\" data-testid=\"run\" data-action=\"{run}\">{run_label}</button>",
            "<button type=\"button\" data-testid=\"pause\" data-action=\"{pause}\" disabled>{pause_label}</button>",
            "<button type=\"button\" data-testid=\"reset\" data-action=\"{reset}\" disabled>Reset</button>",
            "<p class=\"rll-field-help rll-error\" role=\"alert\" data-testid=\"run-error\" hidden></p>",
            "</div>"
        ),
        speeds = speeds,
        new_seed = Action::NewSeed.as_str(),
        help = escape(SEED_HELP),
        run = Action::Run.as_str(),
        run_label = run_label(true),
        pause = Action::Pause.as_str(),
        pause_label = pause_label(false),
        reset = Action::Reset.as_str(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_speed_and_action_is_in_the_bar_and_read_back() {
        let m = controls_markup();
        for s in Speed::ALL {
            assert!(
                m.contains(&format!("data-speed=\"{}\"", s.as_str())),
                "{s:?}"
            );
        }
        for a in Action::ALL {
            let attr = format!("data-action=\"{}\"", a.as_str());
            assert_eq!(m.matches(&attr).count(), 1, "{a:?}");
            assert_eq!(Action::from_attr(a.as_str()), Some(a));
        }
        assert_eq!(Action::from_attr("explode"), None);
        assert!(m.contains(SEED_HELP));
    }

    #[test]
    fn labels_follow_the_run() {
        assert_eq!(run_label(true), "Run");
        assert_eq!(run_label(false), "Run again");
        assert_eq!(pause_label(true), "Resume");
        assert_eq!(pause_label(false), "Pause");
    }
}

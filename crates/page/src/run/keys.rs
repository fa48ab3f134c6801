//! The run page's keys: what each does, and the list the `?` panel shows. The UI only
//! listens and carries out the [`KeyAction`] named here.

use crate::shared::markup::escape;
use crate::Speed;
use sim::moments::{Harm, HarmMoment};
use sim::StrategyName;

/// What a key asks the run page to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    /// Play, pause or resume.
    PlayPause,
    /// Select this strategy, without starting it.
    Pick(StrategyName),
    /// Move the playhead to the previous (`false`) or next (`true`) request.
    StepRequest(bool),
    /// Move the playhead to the previous (`false`) or next (`true`) harmful moment.
    StepHarm(bool),
    /// One speed slower.
    Slower,
    /// One speed faster.
    Faster,
    /// Run again from the start.
    Rerun,
    /// Show or hide the list of keys.
    Help,
}

/// The action of a key (`KeyboardEvent.key`, with Shift held or not), if it has one.
/// Keys with Ctrl, Alt or Meta held are the browser's: the caller does not ask.
pub fn action_for(key: &str, shift: bool) -> Option<KeyAction> {
    Some(match key {
        " " | "Spacebar" => KeyAction::PlayPause,
        "ArrowLeft" if shift => KeyAction::StepHarm(false),
        "ArrowRight" if shift => KeyAction::StepHarm(true),
        "ArrowLeft" => KeyAction::StepRequest(false),
        "ArrowRight" => KeyAction::StepRequest(true),
        "," | "<" => KeyAction::Slower,
        "." | ">" => KeyAction::Faster,
        "r" | "R" => KeyAction::Rerun,
        "?" => KeyAction::Help,
        // 1 to 9, then 0 for the tenth, as on a keyboard's top row.
        digit if digit.len() == 1 => {
            let n: usize = digit.parse().ok()?;
            let i = if n == 0 { 9 } else { n - 1 };
            KeyAction::Pick(*StrategyName::ALL.get(i)?)
        }
        _ => return None,
    })
}

/// The keys, as the `?` panel lists them: (keys, what they do).
pub const KEY_LIST: [(&str, &str); 8] = [
    ("Space", "Play, pause or resume"),
    ("1 – 9, 0", "Pick a strategy (in the order of the buttons) without starting it"),
    ("← / →", "Previous / next request"),
    ("Shift + ← / →", "Previous / next harm: a storm of 429s or 503s, a double charge, a 409, a charge the client gave up on"),
    (", / .", "Slower / faster"),
    ("R", "Run again"),
    ("?", "Show or hide this list"),
    ("← / → in the walk", "Previous / next step of the guided walk, while its card has the focus"),
];

/// The playhead slider's label.
pub const PLAYHEAD_LABEL: &str = "Playhead: the run as it stood at this simulated time";

/// The step buttons beside the playhead: (test id, text, what it does, harm, forward).
pub const STEP_BUTTONS: [(&str, &str, &str, bool, bool); 4] = [
    (
        "prev-harm",
        "◀◀ harm",
        "Previous harmful moment (Shift + ←)",
        true,
        false,
    ),
    (
        "prev-request",
        "◀ request",
        "Previous request (←)",
        false,
        false,
    ),
    ("next-request", "request ▶", "Next request (→)", false, true),
    (
        "next-harm",
        "harm ▶▶",
        "Next harmful moment (Shift + →)",
        true,
        true,
    ),
];

/// The playhead's slider, its time and what it landed on, and the step buttons, as
/// markup set once: `style` spans the slider along the plot. The UI writes the slider's
/// range and value and the two texts as a run goes, and reads a step button's click by
/// its `data-testid` ([`step_of`]).
pub fn playhead_markup(style: &str) -> String {
    let mut out = format!(
        "<input type=\"range\" data-testid=\"playhead\" style=\"{}\" aria-label=\"{}\" min=\"0\" max=\"0\" step=\"1\">\
         <span data-testid=\"playhead-time\"></span> <span data-testid=\"playhead-harm\"></span>",
        escape(style),
        escape(PLAYHEAD_LABEL)
    );
    for (id, text, title, _, _) in STEP_BUTTONS {
        out.push_str(&format!(
            " <button type=\"button\" class=\"rll-quiet\" data-testid=\"{id}\" title=\"{}\">{}</button>",
            escape(title),
            escape(text)
        ));
    }
    out
}

/// What the step button with test id `id` steps to: (harm only, forward).
pub fn step_of(id: &str) -> Option<(bool, bool)> {
    STEP_BUTTONS
        .iter()
        .find(|b| b.0 == id)
        .map(|&(_, _, _, harm, forward)| (harm, forward))
}

/// What the playhead landed on, in words: "double charge: customer 12".
pub fn harm_text(m: &HarmMoment) -> String {
    let what = match m.harm {
        Harm::Storm => "a storm of refusals starts",
        Harm::DoubleCharge => "double charge",
        Harm::Conflict => "409: a retry met the first attempt",
        Harm::ChargedAfterGivingUp => "charged, though the client gave up",
    };
    format!("{what}: customer {}", m.customer)
}

/// The title of the keys panel and its button.
pub const KEYS_TITLE: &str = "Keys";

/// The keys panel's list as markup: each key, then what it does.
pub fn key_list_markup() -> String {
    KEY_LIST
        .iter()
        .map(|(keys, what)| {
            format!(
                "<dt><kbd>{}</kbd></dt><dd>{}</dd>",
                crate::shared::markup::escape(keys),
                crate::shared::markup::escape(what)
            )
        })
        .collect()
}

impl Speed {
    /// The next speed down (instant, 10×, 1×, 0.1×, 0.01×), or this one if slowest.
    pub fn slower(self) -> Speed {
        let i = Speed::ALL.iter().position(|&s| s == self).unwrap_or(0);
        Speed::ALL[(i + 1).min(Speed::ALL.len() - 1)]
    }

    /// The next speed up, or this one if instant.
    pub fn faster(self) -> Speed {
        let i = Speed::ALL.iter().position(|&s| s == self).unwrap_or(0);
        Speed::ALL[i.saturating_sub(1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_does_what_the_list_says() {
        assert_eq!(action_for(" ", false), Some(KeyAction::PlayPause));
        assert_eq!(
            action_for("1", false),
            Some(KeyAction::Pick(StrategyName::ALL[0]))
        );
        assert_eq!(
            action_for("6", false),
            Some(KeyAction::Pick(StrategyName::ALL[5]))
        );
        assert_eq!(
            action_for("0", false),
            Some(KeyAction::Pick(StrategyName::ALL[9]))
        );
        assert_eq!(action_for("10", false), None);
        assert_eq!(action_for("x", false), None);
        assert_eq!(
            action_for("ArrowRight", false),
            Some(KeyAction::StepRequest(true))
        );
        assert_eq!(
            action_for("ArrowLeft", true),
            Some(KeyAction::StepHarm(false))
        );
        assert_eq!(action_for(",", false), Some(KeyAction::Slower));
        assert_eq!(action_for(".", false), Some(KeyAction::Faster));
        assert_eq!(action_for("R", true), Some(KeyAction::Rerun));
        assert_eq!(action_for("?", true), Some(KeyAction::Help));
        assert_eq!(action_for("x", false), None);
        assert_eq!(action_for("Enter", false), None);
    }

    #[test]
    fn speeds_step_in_order_and_stop_at_the_ends() {
        assert_eq!(Speed::X10.slower(), Speed::X1);
        assert_eq!(Speed::X1.slower(), Speed::X01);
        assert_eq!(Speed::X001.slower(), Speed::X001);
        assert_eq!(Speed::X001.faster(), Speed::X01);
        assert_eq!(Speed::X10.faster(), Speed::Instant);
        assert_eq!(Speed::Instant.faster(), Speed::Instant);
    }

    #[test]
    fn the_key_list_markup_pairs_each_key_with_what_it_does() {
        let m = key_list_markup();
        assert_eq!(m.matches("<dt><kbd>").count(), KEY_LIST.len());
        assert!(
            m.starts_with("<dt><kbd>Space</kbd></dt><dd>Play, pause or resume</dd>"),
            "{m}"
        );
    }

    #[test]
    fn the_playhead_s_step_buttons_are_read_back_by_their_test_ids() {
        let markup = playhead_markup("margin-left:40px");
        assert!(markup.contains("data-testid=\"playhead\" style=\"margin-left:40px\""));
        assert!(markup.contains(&format!("aria-label=\"{}\"", escape(PLAYHEAD_LABEL))));
        for (id, text, _, harm, forward) in STEP_BUTTONS {
            assert!(markup.contains(&format!("data-testid=\"{id}\"")), "{id}");
            assert!(markup.contains(&escape(text)), "{text}");
            assert_eq!(step_of(id), Some((harm, forward)));
        }
        assert_eq!(step_of("playhead"), None);
    }
}

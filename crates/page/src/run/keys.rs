//! The run page's keys: what each does, and the `?` panel that lists them. The UI only
//! listens and carries out the [`KeyAction`] named here, and opens and closes the panel.

use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use crate::Speed;
use maud::{html, Markup};
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
    ("Space", "Play, pause or resume; on a finished run, play on from the playhead"),
    ("1 – 9, 0", "Pick a strategy (in the order of the buttons) without starting it"),
    ("← / →", "Previous / next request (a playing run pauses first)"),
    ("Shift + ← / →", "Previous / next harm: a storm of 429s or 503s, a double charge, a 409, a charge the client gave up on"),
    (", / .", "Slower / faster"),
    ("R", "Run again"),
    ("?", "Show or hide this list (Escape closes it)"),
    ("← / → in the walk", "Previous / next step of the guided walk, while its card has the focus"),
];

/// The title of the keys panel and its button.
pub const KEYS_TITLE: &str = "Keys";

/// The button that shows or hides the panel.
pub const KEYS_BUTTON: Slot = slot!("keys-button");
/// The panel.
pub const KEYS_PANEL: Slot = slot!("keys-panel");
/// The panel's close button.
pub const KEYS_CLOSE: Slot = slot!("keys-close");

/// The keys panel's list as markup: each key, then what it does.
pub fn key_list_markup() -> Markup {
    html! {
        @for (keys, what) in KEY_LIST {
            dt { kbd { (keys) } } dd { (what) }
        }
    }
}

/// The button and the panel ([`Live`], its state whether the panel is open): drawn
/// once, and then only the button's `aria-expanded` and the panel's `hidden` are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeysPanel;

impl Live for KeysPanel {
    type State = bool;

    fn shape(&self, _: &bool) -> u64 {
        0
    }

    fn draw(&self, open: &bool, fill: &mut Fill) -> Markup {
        let expanded = if *open { "true" } else { "false" };
        html! {
            button.rll-quiet type="button" data-slot=(KEYS_BUTTON) data-testid="keys-button"
                aria-expanded=(fill.attr(KEYS_BUTTON, "aria-expanded", expanded)) {
                (KEYS_TITLE) " (?)"
            }
            div.rll-keys-panel role="dialog" aria-label=(KEYS_TITLE) data-slot=(KEYS_PANEL) data-testid="keys-panel"
                hidden[fill.flag(KEYS_PANEL, "hidden", !*open)] {
                dl { (key_list_markup()) }
                button.rll-quiet type="button" data-slot=(KEYS_CLOSE) { "Close" }
            }
        }
    }
}

/// The button and the panel, closed, as markup.
pub fn keys_markup() -> Markup {
    KeysPanel.markup(&false)
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
        let m = key_list_markup().into_string();
        assert_eq!(m.matches("<dt><kbd>").count(), KEY_LIST.len());
        assert!(
            m.starts_with("<dt><kbd>Space</kbd></dt><dd>Play, pause or resume; on a finished run, play on from the playhead</dd>"),
            "{m}"
        );
    }

    #[test]
    fn the_panel_holds_the_list_and_names_its_three_nodes_once() {
        let m = keys_markup().into_string();
        assert!(m.contains(&key_list_markup().into_string()));
        for slot in [KEYS_BUTTON, KEYS_PANEL, KEYS_CLOSE] {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(m.matches(&attr).count(), 1, "{slot:?}");
        }
        assert!(m.contains(">Keys (?)</button>"), "{m}");
        assert!(m.contains(" hidden><dl>"), "the panel starts closed: {m}");
    }

    #[test]
    fn opening_the_panel_writes_only_its_flag_and_its_button() {
        use crate::shared::live::{check_drawn, Write};
        check_drawn(&KeysPanel, &false).unwrap();
        check_drawn(&KeysPanel, &true).unwrap();
        let (mut shut, mut open) = (Fill::default(), Fill::default());
        KeysPanel.draw(&false, &mut shut);
        let m = KeysPanel.draw(&true, &mut open).into_string();
        assert!(!m.contains(" hidden><dl>"), "{m}");
        assert!(m.contains(r#"aria-expanded="true""#), "{m}");
        let changed: Vec<_> = open.changed_since(&shut).map(|a| a.1.clone()).collect();
        assert_eq!(
            changed,
            [
                Write::Attr("aria-expanded", "true"),
                Write::Flag("hidden", false)
            ]
        );
    }
}

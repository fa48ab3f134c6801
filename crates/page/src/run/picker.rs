//! The strategy picker: one button per strategy, in the article's order, then the next
//! rungs (drawn apart), the one on screen pressed ([`Picker`]). The UI reads a click by
//! the button's slot ([`strategy_slot`]).

use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::shared::titles::strategy_label;
use crate::slot;
use maud::{html, Markup};
use sim::StrategyName;

/// The picker's label for screen readers.
pub const PICKER_LABEL: &str = "Client strategy";

/// What the picker says of its second group: the rungs after the article's six.
pub const RUNGS_NOTE: &str =
    "Then four more rungs (dashed), past where the article stops: each the one before, plus one change.";

/// The button that picks `s`.
pub const fn strategy_slot(s: StrategyName) -> Slot {
    match s {
        StrategyName::Naive => slot!("strategy-naive"),
        StrategyName::Paced => slot!("strategy-paced"),
        StrategyName::Retry => slot!("strategy-retry"),
        StrategyName::TimeoutNoKey => slot!("strategy-timeout-no-key"),
        StrategyName::Keyed => slot!("strategy-keyed"),
        StrategyName::Pool => slot!("strategy-pool"),
        StrategyName::Headers => slot!("strategy-headers"),
        StrategyName::Budget => slot!("strategy-budget"),
        StrategyName::Breaker => slot!("strategy-breaker"),
        StrategyName::Adaptive => slot!("strategy-adaptive"),
    }
}

/// The strategy buttons as markup, numbered, the next rungs marked (`rll-rung`), and the
/// note on the rungs; each button carries its strategy in `data-strategy` for the
/// stylesheet and the tests. None is pressed: [`Picker`] draws the one on screen.
pub fn picker_markup() -> Markup {
    draw(None, &mut Fill::default())
}

/// The strategy buttons ([`Live`]) with the strategy on screen pressed (`aria-pressed`),
/// written in place when it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picker;

impl Live for Picker {
    type State = StrategyName;

    fn shape(&self, _: &StrategyName) -> u64 {
        0
    }

    fn draw(&self, selected: &StrategyName, fill: &mut Fill) -> Markup {
        draw(Some(*selected), fill)
    }
}

/// The buttons with `selected` pressed, recorded in `fill`.
fn draw(selected: Option<StrategyName>, fill: &mut Fill) -> Markup {
    html! {
        @for (i, s) in StrategyName::ALL.into_iter().enumerate() {
            @let pressed = if selected == Some(s) { "true" } else { "false" };
            button.rll-strategy.rll-rung[s.is_next_rung()] type="button" data-slot=(strategy_slot(s))
                data-strategy=(s.as_str()) aria-pressed=(fill.attr(strategy_slot(s), "aria-pressed", pressed)) {
                span.rll-step { (i + 1) }
                span.rll-strategy-name { (strategy_label(s)) }
            }
        }
        span.rll-picker-note { (RUNGS_NOTE) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picker_has_a_numbered_button_per_strategy_with_the_rungs_marked() {
        let markup = picker_markup().into_string();
        let mut names = std::collections::BTreeSet::new();
        for (i, s) in StrategyName::ALL.into_iter().enumerate() {
            let rung = if s.is_next_rung() { " rll-rung" } else { "" };
            assert!(markup.contains(&format!(
                "class=\"rll-strategy{rung}\" type=\"button\" data-slot=\"{}\" data-strategy=\"{}\" aria-pressed=\"false\"><span class=\"rll-step\">{}</span><span class=\"rll-strategy-name\">{}</span>",
                strategy_slot(s).name(),
                s.as_str(),
                i + 1,
                strategy_label(s)
            )), "{s}: {markup}");
            assert!(names.insert(strategy_slot(s).name()), "{s}");
        }
        assert!(markup.ends_with(&format!("{RUNGS_NOTE}</span>")));
    }

    #[test]
    fn the_picker_presses_the_strategy_on_screen_and_a_pick_moves_only_the_press() {
        for s in StrategyName::ALL {
            crate::shared::live::check_drawn(&Picker, &s).unwrap();
        }
        let fill = |s: StrategyName| {
            let mut fill = Fill::default();
            Picker.draw(&s, &mut fill);
            fill
        };
        let changed: Vec<_> = fill(StrategyName::Keyed)
            .changed_since(&fill(StrategyName::Naive))
            .map(|(hole, w)| (hole.slot, w.clone()))
            .collect();
        use crate::shared::live::Write::Attr;
        assert_eq!(
            changed,
            [
                (
                    strategy_slot(StrategyName::Naive),
                    Attr("aria-pressed", "false")
                ),
                (
                    strategy_slot(StrategyName::Keyed),
                    Attr("aria-pressed", "true")
                ),
            ]
        );
    }
}

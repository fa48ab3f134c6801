//! The knobs beside the run: the parameters a reader reaches for, each with a slider's
//! range in the unit the panel writes (ms for times, % for probabilities). A knob's
//! range lies inside its parameter's own, so a knob can never make a value the panel
//! would refuse; typed values keep the whole range. The knobs are a live widget
//! ([`KnobsPanel`]): drawn once, and then only each knob's value and slider, the caption
//! and the ghost's line are written; the UI reads the sliders by their slots.

use crate::shared::format::count;
use crate::shared::live::{Fill, Live};
use crate::shared::params::{param, ParamKind, ParamSpec, PARAMS};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
use sim::rng::Odds;
use sim::Scenario;

/// One knob.
#[derive(Clone, Copy, Debug)]
pub struct Knob {
    /// The parameter's URL key.
    pub key: &'static str,
    /// The slider's lowest value, in the knob's unit.
    pub min: u64,
    /// The slider's highest value.
    pub max: u64,
    /// The slider's step.
    pub step: u64,
}

/// The knobs, in the order the panel lists them.
pub const KNOBS: &[Knob] = &[
    Knob {
        key: "customers",
        min: 100,
        max: 10_000,
        step: 100,
    },
    Knob {
        key: "rateLimit",
        min: 10,
        max: 300,
        step: 10,
    },
    Knob {
        key: "maxInflight",
        min: 1,
        max: 50,
        step: 1,
    },
    Knob {
        key: "errorRate",
        min: 0,
        max: 50,
        step: 1,
    },
    Knob {
        key: "slowRate",
        min: 0,
        max: 50,
        step: 1,
    },
    Knob {
        key: "slowMs",
        min: 100,
        max: 5_000,
        step: 100,
    },
    Knob {
        key: "timeoutMs",
        min: 100,
        max: 5_000,
        step: 100,
    },
    Knob {
        key: "pacer",
        min: 10,
        max: 300,
        step: 10,
    },
    Knob {
        key: "attempts",
        min: 1,
        max: 10,
        step: 1,
    },
    Knob {
        key: "backoffMs",
        min: 0,
        max: 2_000,
        step: 50,
    },
    Knob {
        key: "workers",
        min: 1,
        max: 50,
        step: 1,
    },
];

/// Above this many customers a knob runs only when it is let go, not on every move.
pub const LIVE_MAX_CUSTOMERS: u32 = 10_000;

impl Knob {
    /// The parameter behind the knob.
    pub fn spec(&self) -> &'static ParamSpec {
        param(self.key).expect("every knob names a parameter")
    }

    /// The knob's position for the panel's text of the value (a probability as a whole
    /// percent, rounded; anything unreadable at the knob's lowest).
    pub fn position(&self, text: &str) -> u64 {
        let v = match self.spec().kind() {
            ParamKind::Odds => crate::shared::odds::parse_odds(text).map(|o: Odds| {
                (u64::from(o.num) * 100 + u64::from(o.den) / 2) / u64::from(o.den.max(1))
            }),
            _ => text.trim().parse::<u64>().ok(),
        };
        v.unwrap_or(self.min).clamp(self.min, self.max)
    }

    /// The panel's text for a knob position: the number, or a percentage.
    pub fn text(&self, position: u64) -> String {
        match self.spec().kind() {
            ParamKind::Odds => format!("{position}%"),
            _ => position.to_string(),
        }
    }
}

/// A knob: its label with the value, and its slider.
pub const KNOB: Slot = slot!("knob");
/// A knob's slider, which names its parameter in [`KNOB_KEY`].
pub const KNOB_SLIDER: Slot = slot!("knob-slider");
/// A knob's value, in its label.
pub const KNOB_VALUE: Slot = slot!("knob-value");
/// The attribute of a knob's slider that holds its parameter's URL key.
pub const KNOB_KEY: &str = "data-knob";
/// The caption under the knobs: what a move does.
pub const KNOBS_CAPTION: Slot = slot!("knobs-caption");
/// The ghost's line, hidden while there is no run before.
pub const GHOST: Slot = slot!("ghost");
/// The numbers of the run before, in the ghost's line.
pub const GHOST_VALUES: Slot = slot!("ghost-values");
/// The button that forgets the run before.
pub const GHOST_DISMISS: Slot = slot!("ghost-dismiss");

/// What the knobs show: the panel's text of each knob's value (in [`KNOBS`]' order),
/// whether a move reruns at once, and the ghost's numbers while a run before is kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnobsState {
    /// The panel's text for each knob, in [`KNOBS`]' order.
    pub texts: Vec<String>,
    /// A move reruns at once ([`is_live`]).
    pub live: bool,
    /// The run before's numbers that differ ([`ghost_values`]), while it is kept.
    pub ghost: Option<String>,
}

/// The knobs ([`Live`]): per knob ([`KNOB`]) a label with its value ([`KNOB_VALUE`]) and
/// unit, and a slider ([`KNOB_SLIDER`], its key in `data-knob`); the caption and the
/// ghost's line (hidden while there is none) below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnobsPanel;

impl Live for KnobsPanel {
    type State = KnobsState;

    fn shape(&self, _: &KnobsState) -> u64 {
        0
    }

    fn draw(&self, s: &KnobsState, fill: &mut Fill) -> Markup {
        html! {
            div.rll-knobs-grid {
                @for (i, k) in KNOBS.iter().enumerate() {
                    @let spec = k.spec();
                    @let id = html! { "rll-knob-" (k.key) };
                    @let text = s.texts.get(i).cloned().unwrap_or_default();
                    div.rll-knob data-slot=(KNOB) {
                        label for=(id) {
                            (spec.label) " "
                            span.rll-num data-slot=(KNOB_VALUE) data-knob-value=(k.key) { (fill.text(KNOB_VALUE, text.clone())) }
                            @if !spec.unit.is_empty() { " " (spec.unit) }
                        }
                        input #(id) type="range" data-slot=(KNOB_SLIDER) data-knob=(k.key) min=(k.min) max=(k.max) step=(k.step)
                            value=(fill.value(KNOB_SLIDER, k.position(&text).to_string()));
                    }
                }
            }
            p.rll-caption data-slot=(KNOBS_CAPTION) { (fill.text(KNOBS_CAPTION, caption(s.live))) }
            p.rll-ghost-line data-slot=(GHOST) data-testid="ghost" hidden[fill.flag(GHOST, "hidden", s.ghost.is_none())] {
                "Faint: the run before, with "
                span data-slot=(GHOST_VALUES) data-testid="ghost-values" { (fill.text(GHOST_VALUES, s.ghost.clone().unwrap_or_default())) }
                ". "
                button.rll-link type="button" data-slot=(GHOST_DISMISS) data-testid="ghost-dismiss" { "Forget it" }
            }
        }
    }
}

/// The knobs at the article's numbers, with no ghost.
pub fn knobs_markup() -> Markup {
    let d = Scenario::default();
    let texts = KNOBS.iter().map(|k| k.spec().read(&d)).collect();
    KnobsPanel.markup(&KnobsState {
        texts,
        live: true,
        ghost: None,
    })
}

/// The knob a slider's `data-knob` names.
pub fn knob(key: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.key == key)
}

/// What the caption under the knobs says a move does: `live`, it reruns at once.
pub fn caption(live: bool) -> String {
    if live {
        "Each move reruns this strategy on the same seed.".to_string()
    } else {
        format!(
            "Above {} customers a knob reruns when you let go.",
            count(LIVE_MAX_CUSTOMERS.into())
        )
    }
}

/// True if a knob reruns on every move for `scenario` (not only when let go).
pub fn is_live(scenario: &Scenario) -> bool {
    scenario.customers <= LIVE_MAX_CUSTOMERS
}

/// The ghost's line: each number the run before used that differs from `now`'s.
pub fn ghost_values(before: &Scenario, now: &Scenario) -> String {
    PARAMS
        .iter()
        .filter(|p| p.read(now) != p.read(before))
        .map(|p| format!("{} {}", p.label, p.read(before)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::params::parse_param;

    #[test]
    fn the_markup_has_a_slider_and_a_value_per_knob() {
        let m = knobs_markup().into_string();
        let one = |slot: Slot| m.matches(&format!("data-slot=\"{}\"", slot.name())).count();
        for slot in [KNOB, KNOB_SLIDER, KNOB_VALUE] {
            assert_eq!(one(slot), KNOBS.len(), "{slot:?}");
        }
        for slot in [KNOBS_CAPTION, GHOST, GHOST_VALUES, GHOST_DISMISS] {
            assert_eq!(one(slot), 1, "{slot:?}");
        }
        for k in KNOBS {
            assert_eq!(
                m.matches(&format!("data-knob=\"{}\"", k.key)).count(),
                1,
                "{}",
                k.key
            );
            assert!(
                m.contains(&format!("data-knob-value=\"{}\"", k.key)),
                "{}",
                k.key
            );
            assert!(
                m.contains(&format!("min=\"{}\" max=\"{}\"", k.min, k.max)),
                "{}",
                k.key
            );
            assert_eq!(knob(k.key).map(|f| f.key), Some(k.key));
        }
        assert!(knob("nope").is_none());
        assert!(m.contains(&caption(true)));
    }

    #[test]
    fn a_turn_writes_only_its_knob() {
        use crate::shared::live::{check_drawn, Write};
        let d = Scenario::default();
        let mut s = KnobsState {
            texts: KNOBS.iter().map(|k| k.spec().read(&d)).collect(),
            live: true,
            ghost: None,
        };
        check_drawn(&KnobsPanel, &s).unwrap();
        let mut before = Fill::default();
        KnobsPanel.draw(&s, &mut before);
        s.texts[1] = "40".into();
        s.ghost = Some("Rate limit <100>".into());
        s.live = false;
        check_drawn(&KnobsPanel, &s).unwrap();
        let mut after = Fill::default();
        let m = KnobsPanel.draw(&s, &mut after).into_string();
        assert!(m.contains("Rate limit &lt;100&gt;"), "{m}");
        let changed: Vec<_> = after
            .changed_since(&before)
            .map(|a| (a.0.slot, a.0.index, a.1.clone()))
            .collect();
        assert_eq!(
            changed,
            [
                (KNOB_VALUE, 1, Write::Text("40".into())),
                (KNOB_SLIDER, 1, Write::Value("40".into())),
                (KNOBS_CAPTION, 0, Write::Text(caption(false))),
                (GHOST, 0, Write::Flag("hidden", false)),
                (GHOST_VALUES, 0, Write::Text("Rate limit <100>".into())),
            ]
        );
    }

    #[test]
    fn the_caption_and_the_ghost_follow_the_numbers() {
        let before = Scenario::default();
        assert!(is_live(&before));
        assert_ne!(caption(true), caption(false));
        assert!(caption(false).contains("10,000"));
        let mut now = before.clone();
        assert_eq!(ghost_values(&before, &now), "");
        now.customers = LIVE_MAX_CUSTOMERS + 1;
        assert!(!is_live(&now));
        let customers = param("customers").unwrap();
        assert_eq!(
            ghost_values(&before, &now),
            format!("{} {}", customers.label, customers.read(&before))
        );
    }

    #[test]
    fn every_knob_stays_inside_what_the_panel_accepts() {
        for k in KNOBS {
            for pos in (k.min..=k.max).step_by(k.step as usize) {
                let text = k.text(pos);
                assert!(parse_param(k.key, &text).is_ok(), "{}: {text}", k.key);
                assert_eq!(k.position(&text), pos, "{}: {text}", k.key);
            }
            assert_eq!((k.max - k.min) % k.step, 0, "{}: the top is a step", k.key);
        }
    }

    #[test]
    fn a_probability_reads_as_a_rounded_percentage() {
        let k = KNOBS.iter().find(|k| k.key == "errorRate").unwrap();
        assert_eq!(k.position("1/20"), 5);
        assert_eq!(k.position("1/33"), 3);
        assert_eq!(k.position("0"), 0);
        assert_eq!(k.position("junk"), 0);
        let t = KNOBS.iter().find(|k| k.key == "timeoutMs").unwrap();
        assert_eq!(
            t.position("99999"),
            5_000,
            "a typed value past the knob sits at its end"
        );
    }
}

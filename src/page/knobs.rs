//! The knobs beside the run: the parameters a reader reaches for, each with a slider's
//! range in the unit the panel writes (ms for times, % for probabilities). A knob's
//! range lies inside its parameter's own, so a knob can never make a value the panel
//! would refuse; typed values keep the whole range.

use super::params::{param, ParamKind, ParamSpec};
use crate::sim::rng::Odds;

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
            ParamKind::Odds => super::odds::parse_odds(text).map(|o: Odds| {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::params::parse_param;

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

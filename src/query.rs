//! The page's URL query, read into what the page should show, plus a plain sentence for
//! every value it could not use. Pure: the browser decodes the query string into pairs
//! (`URLSearchParams`), and this module decides what they mean, so it is tested natively.

use crate::sim::StrategyName;
use std::fmt;
use std::str::FromStr;

/// Playback speed: how simulated time maps to wall time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    /// The whole run computed at once.
    Instant,
    /// Ten simulated seconds per wall second: the default, fast enough not to wait
    /// for, slow enough to watch the counters move.
    #[default]
    X10,
    /// Real time: one simulated second per wall second.
    X1,
}

impl Speed {
    /// All speeds, fastest first.
    pub const ALL: [Speed; 3] = [Speed::Instant, Speed::X10, Speed::X1];

    /// The name used in URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            Speed::Instant => "instant",
            Speed::X10 => "10x",
            Speed::X1 => "1x",
        }
    }

    /// A label for buttons.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Instant => "Instant",
            Speed::X10 => "10×",
            Speed::X1 => "1×",
        }
    }

    /// Simulated microseconds per wall millisecond, or `None` for instant.
    pub fn sim_us_per_wall_ms(self) -> Option<f64> {
        match self {
            Speed::Instant => None,
            Speed::X10 => Some(10_000.0),
            Speed::X1 => Some(1_000.0),
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Speed {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("speed '{}' is not one of instant, 10x, 1x", shown(s)))
    }
}

/// What the URL asks the page to do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageQuery {
    /// The strategy to run on load, if the URL names one.
    pub strategy: Option<StrategyName>,
    /// The seed (1 if not given).
    pub seed: u64,
    /// The playback speed.
    pub speed: Speed,
    /// One sentence for each value that could not be used, saying what was used instead.
    pub problems: Vec<String>,
}

impl PageQuery {
    /// True if the page should start a run as soon as it loads.
    pub fn autostart(&self) -> bool {
        self.strategy.is_some()
    }
}

/// The keys this page understands.
const KNOWN_KEYS: [&str; 3] = ["strategy", "seed", "speed"];

/// The default strategy when the URL names one we do not know.
pub const FALLBACK_STRATEGY: StrategyName = StrategyName::Keyed;

/// Reads decoded `(key, value)` pairs, in URL order.
pub fn parse(pairs: &[(String, String)]) -> PageQuery {
    let mut q = PageQuery {
        seed: 1,
        ..PageQuery::default()
    };
    let mut seen: Vec<&str> = Vec::new();
    for (key, value) in pairs {
        let key = key.as_str();
        if !KNOWN_KEYS.contains(&key) {
            q.problems.push(format!(
                "Ignored the unknown parameter '{}'. This page understands {}.",
                shown(key),
                KNOWN_KEYS.join(", ")
            ));
            continue;
        }
        if seen.contains(&key) {
            q.problems.push(format!(
                "'{key}' appears more than once; the first value is used."
            ));
            continue;
        }
        seen.push(key);
        let value = value.trim();
        match key {
            "strategy" => match value.parse::<StrategyName>() {
                Ok(s) => q.strategy = Some(s),
                Err(_) => {
                    q.strategy = Some(FALLBACK_STRATEGY);
                    q.problems.push(format!(
                        "There is no strategy called '{}'; showing {} instead. The strategies are {}.",
                        shown(value),
                        FALLBACK_STRATEGY,
                        StrategyName::ALL.map(|s| s.as_str()).join(", ")
                    ));
                }
            },
            "seed" => match parse_seed(value) {
                Ok(seed) => q.seed = seed,
                Err(why) => q.problems.push(format!("{why} Using seed 1 instead.")),
            },
            "speed" => match value.parse::<Speed>() {
                Ok(speed) => q.speed = speed,
                Err(why) => q
                    .problems
                    .push(format!("The {why}; using {} instead.", Speed::default())),
            },
            _ => unreachable!("every known key is handled"),
        }
    }
    q
}

/// A seed: a whole number from 0 to 18446744073709551615.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("The seed is empty: it must be a whole number.".into());
    }
    t.parse::<u64>().map_err(|_| {
        if t.bytes().all(|b| b.is_ascii_digit()) {
            format!(
                "The seed {} is too large: the largest is {}.",
                shown(t),
                u64::MAX
            )
        } else {
            format!(
                "The seed '{}' is not a whole number from 0 to {}.",
                shown(t),
                u64::MAX
            )
        }
    })
}

/// A user's value, shortened for a message so a huge one cannot flood the page.
pub fn shown(value: &str) -> String {
    const MAX_CHARS: usize = 40;
    let mut out: String = value.chars().take(MAX_CHARS).collect();
    if value.chars().count() > MAX_CHARS {
        out.push('…');
    }
    out
}

/// The query string for a run, e.g. `?strategy=keyed&seed=7&speed=1x`.
pub fn to_query(strategy: StrategyName, seed: u64, speed: Speed) -> String {
    format!("?strategy={strategy}&seed={seed}&speed={speed}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &[(&str, &str)]) -> PageQuery {
        parse(
            &s.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn a_good_query_starts_that_run() {
        let p = q(&[("strategy", "pool"), ("seed", "42"), ("speed", "1x")]);
        assert_eq!(
            (p.strategy, p.seed, p.speed),
            (Some(StrategyName::Pool), 42, Speed::X1)
        );
        assert!(p.problems.is_empty() && p.autostart());
        assert!(!q(&[]).autostart());
        assert_eq!(q(&[("seed", "18446744073709551615")]).seed, u64::MAX);
    }

    #[test]
    fn bad_values_fall_back_with_a_sentence_each() {
        let p = q(&[("strategy", "yolo"), ("seed", "-4"), ("speed", "warp")]);
        assert_eq!(
            (p.strategy, p.seed, p.speed),
            (Some(StrategyName::Keyed), 1, Speed::X10)
        );
        assert_eq!(p.problems.len(), 3);
        assert!(
            p.problems[0].contains("no strategy called 'yolo'"),
            "{:?}",
            p.problems
        );
        assert!(p.problems[1].contains("'-4' is not a whole number"));
        assert!(p.problems[2].contains("speed 'warp'"));
    }

    #[test]
    fn unknown_repeated_and_huge_values_are_reported() {
        let p = q(&[
            ("seed", "5"),
            ("seed", "6"),
            ("colour", "red"),
            ("seed", "99999999999999999999"),
        ]);
        assert_eq!(p.seed, 5);
        assert!(p
            .problems
            .iter()
            .any(|m| m.contains("'seed' appears more than once")));
        assert!(p
            .problems
            .iter()
            .any(|m| m.contains("unknown parameter 'colour'")));
        let p = q(&[("seed", "99999999999999999999")]);
        assert!(p.problems[0].contains("too large"), "{:?}", p.problems);
        let long = "x".repeat(10_000);
        let p = q(&[("strategy", &long)]);
        assert!(
            p.problems[0].len() < 300,
            "a huge value is shortened in the message"
        );
    }

    #[test]
    fn to_query_round_trips() {
        let text = to_query(StrategyName::TimeoutNoKey, 9, Speed::X10);
        let pairs: Vec<(String, String)> = text[1..]
            .split('&')
            .map(|kv| {
                kv.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .unwrap()
            })
            .collect();
        let p = parse(&pairs);
        assert_eq!(
            (p.strategy, p.seed, p.speed),
            (Some(StrategyName::TimeoutNoKey), 9, Speed::X10)
        );
    }
}

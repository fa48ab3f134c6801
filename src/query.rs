//! The page's URL query, read into what the page should show, plus a plain sentence for
//! every value it could not use. Pure: the browser decodes the query string into pairs
//! (`URLSearchParams`), and this module decides what they mean, so it is tested natively.

use crate::sim::lab::ExperimentName;
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

/// The page's two halves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Section {
    /// Calling theirs: the charges and the six client strategies.
    #[default]
    Charges,
    /// Publishing yours: limiters, headers and the experiments.
    Limits,
}

impl Section {
    /// The name used in URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            Section::Charges => "charges",
            Section::Limits => "limits",
        }
    }
}

/// The views of the charges section.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View {
    /// One strategy, played back, with its timeline, customers and code.
    #[default]
    Run,
    /// All six strategies on one seed, side by side.
    Compare,
    /// Many seeds, and each stat's distribution.
    Sweep,
}

impl View {
    /// All views.
    pub const ALL: [View; 3] = [View::Run, View::Compare, View::Sweep];

    /// The name used in URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            View::Run => "run",
            View::Compare => "compare",
            View::Sweep => "sweep",
        }
    }
}

/// Seeds a sweep runs unless the URL says otherwise.
pub const DEFAULT_SWEEP_SEEDS: u64 = 200;

/// What the URL asks the page to do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageQuery {
    /// Which half of the page.
    pub section: Section,
    /// Which view of the charges section.
    pub view: View,
    /// The strategy, if the URL names one.
    pub strategy: Option<StrategyName>,
    /// `strategy=all`: a sweep of every strategy.
    pub all_strategies: bool,
    /// The seed (1 if not given).
    pub seed: u64,
    /// Seeds in a sweep.
    pub seeds: u64,
    /// The playback speed.
    pub speed: Speed,
    /// A customer whose story to open.
    pub customer: Option<u32>,
    /// An experiment of the limits section to run on load.
    pub experiment: Option<ExperimentName>,
    /// One sentence for each value that could not be used, saying what was used instead.
    pub problems: Vec<String>,
}

impl PageQuery {
    /// True if the run view should start a run as soon as the page loads.
    pub fn autostart(&self) -> bool {
        self.view == View::Run && self.strategy.is_some()
    }
}

/// The keys this page understands.
const KNOWN_KEYS: [&str; 8] = [
    "section",
    "view",
    "strategy",
    "seed",
    "seeds",
    "speed",
    "customer",
    "experiment",
];

/// The default strategy when the URL names one we do not know.
pub const FALLBACK_STRATEGY: StrategyName = StrategyName::Keyed;

/// `Some(value)` if `text` names one of `options` (by `as_str`), else a sentence.
fn one_of<T: Copy>(
    key: &str,
    text: &str,
    options: &[T],
    name: impl Fn(T) -> &'static str,
    fallback: T,
) -> Result<T, String> {
    options
        .iter()
        .copied()
        .find(|o| name(*o) == text)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|o| name(*o)).collect();
            format!(
                "The {key} '{}' is not one of {}; using {} instead.",
                shown(text),
                names.join(", "),
                name(fallback)
            )
        })
}

/// Reads decoded `(key, value)` pairs, in URL order.
pub fn parse(pairs: &[(String, String)]) -> PageQuery {
    let mut q = PageQuery {
        seed: 1,
        seeds: DEFAULT_SWEEP_SEEDS,
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
        let problem = match key {
            "section" => one_of(
                key,
                value,
                &[Section::Charges, Section::Limits],
                Section::as_str,
                Section::Charges,
            )
            .map(|v| q.section = v)
            .err(),
            "view" => one_of(key, value, &View::ALL, View::as_str, View::Run)
                .map(|v| q.view = v)
                .err(),
            "strategy" if value == "all" => {
                q.all_strategies = true;
                None
            }
            "strategy" => match value.parse::<StrategyName>() {
                Ok(s) => {
                    q.strategy = Some(s);
                    None
                }
                Err(_) => {
                    q.strategy = Some(FALLBACK_STRATEGY);
                    Some(format!(
                        "There is no strategy called '{}'; showing {} instead. The strategies are {}.",
                        shown(value),
                        FALLBACK_STRATEGY,
                        StrategyName::ALL.map(|s| s.as_str()).join(", ")
                    ))
                }
            },
            "seed" => match parse_seed(value) {
                Ok(seed) => {
                    q.seed = seed;
                    None
                }
                Err(why) => Some(format!("{why} Using seed 1 instead.")),
            },
            "seeds" => match parse_count(value, 1, crate::sim::sweep::MAX_SEEDS) {
                Ok(n) => {
                    q.seeds = n;
                    None
                }
                Err(why) => Some(format!(
                    "The number of seeds {why}; using {DEFAULT_SWEEP_SEEDS} instead."
                )),
            },
            "speed" => match value.parse::<Speed>() {
                Ok(speed) => {
                    q.speed = speed;
                    None
                }
                Err(why) => Some(format!("The {why}; using {} instead.", Speed::default())),
            },
            "customer" => match parse_count(value, 1, u64::from(u32::MAX)) {
                Ok(n) => {
                    q.customer = Some(n as u32);
                    None
                }
                Err(why) => Some(format!("The customer {why}; no story is opened.")),
            },
            "experiment" => match value.parse::<ExperimentName>() {
                Ok(e) => {
                    q.experiment = Some(e);
                    None
                }
                Err(_) => Some(format!(
                    "There is no experiment called '{}'; pick one of {} on the page.",
                    shown(value),
                    ExperimentName::ALL.map(|e| e.as_str()).join(", ")
                )),
            },
            _ => unreachable!("every known key is handled"),
        };
        q.problems.extend(problem);
    }
    q
}

/// A whole number in `lo..=hi`, or what is wrong with it (a phrase: "… must be …").
pub fn parse_count(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let t = text.trim();
    match t.parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} is outside {lo}–{hi}")),
        Err(_) => Err(format!(
            "'{}' is not a whole number from {lo} to {hi}",
            shown(t)
        )),
    }
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
    fn views_sections_sweeps_and_customers() {
        let p = q(&[("view", "sweep"), ("strategy", "all"), ("seeds", "500")]);
        assert_eq!(
            (p.view, p.all_strategies, p.seeds),
            (View::Sweep, true, 500)
        );
        assert!(!p.autostart(), "a sweep is not a playback run");
        let p = q(&[("view", "compare"), ("seed", "9")]);
        assert_eq!((p.view, p.seed), (View::Compare, 9));
        let p = q(&[("strategy", "keyed"), ("customer", "42")]);
        assert_eq!(p.customer, Some(42));
        let p = q(&[("section", "limits"), ("experiment", "burst")]);
        assert_eq!(
            (p.section, p.experiment),
            (Section::Limits, Some(ExperimentName::Burst))
        );
        assert!(q(&[("experiment", "boom")]).problems[0].contains("no experiment called 'boom'"));
        let p = q(&[
            ("view", "graph"),
            ("seeds", "0"),
            ("customer", "-5"),
            ("section", "x"),
        ]);
        assert_eq!(
            (p.view, p.seeds, p.customer, p.section),
            (View::Run, DEFAULT_SWEEP_SEEDS, None, Section::Charges)
        );
        assert_eq!(p.problems.len(), 4, "{:?}", p.problems);
        assert!(
            p.problems[1].contains("0 is outside 1–10000"),
            "{:?}",
            p.problems
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

//! The limiter lab: six small experiments about rate limits, each deterministic in
//! simulated time and fixed by its seed.
//!
//! Each experiment has a parameter struct whose `Default` is the article's setup, a
//! `run(&params, seed)` that returns a serialisable result (camelCase JSON fields), and a
//! flat list of result cells, `("burst.fixedAccepted", "20")`, that the browser page and
//! the command line both print: the page puts each in an element with
//! `data-result="<key>"`, the CLI's `--json` carries the same list under `cells`.

pub mod burst;
pub mod clients;
pub mod herd;
pub mod memory;
pub mod neighbour;
pub mod units;

use super::limiter::Policy;
use super::time::{secs, US_PER_MS, US_PER_S};
use serde::{Deserialize, Serialize};

/// The simulated wall clock's epoch second at simulated instant 0: Sun, 30 Aug 2026
/// 10:40:59 GMT. Headers that name an instant (HTTP-dates, Unix seconds) use it.
pub const LAB_EPOCH_S: u64 = 1_788_086_459;

/// The article's published limit: 10 requests per second.
pub const ARTICLE_POLICY: Policy = Policy {
    limit: 10,
    window_us: secs(1),
};

crate::named_enum! {
    /// The six experiments, in the order the article meets them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum ExperimentName as "experiment" {
        /// A burst on each side of a window boundary, against all three limiters.
        Burst = "burst",
        /// One wait written four ways, read naively and correctly.
        Units = "units",
        /// Blind, obedient and proactive clients against a token bucket.
        Clients = "clients",
        /// One noisy caller and two quiet ones, global bucket against per-key buckets.
        Neighbour = "neighbour",
        /// What each limiter costs to remember for many callers.
        Memory = "memory",
        /// A hundred clients told to wait the same second, with and without jitter.
        Herd = "herd",
    }
}

/// One experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum LabResult {
    /// See [`burst`].
    Burst(burst::BurstResult),
    /// See [`units`].
    Units(units::UnitsResult),
    /// See [`clients`].
    Clients(clients::ClientsResult),
    /// See [`neighbour`].
    Neighbour(neighbour::NeighbourResult),
    /// See [`memory`].
    Memory(memory::MemoryResult),
    /// See [`herd`].
    Herd(herd::HerdResult),
}

impl LabResult {
    /// Which experiment this is.
    pub fn name(&self) -> ExperimentName {
        match self {
            LabResult::Burst(_) => ExperimentName::Burst,
            LabResult::Units(_) => ExperimentName::Units,
            LabResult::Clients(_) => ExperimentName::Clients,
            LabResult::Neighbour(_) => ExperimentName::Neighbour,
            LabResult::Memory(_) => ExperimentName::Memory,
            LabResult::Herd(_) => ExperimentName::Herd,
        }
    }

    /// The result cells, `("<experiment>.<field>", value)`, in display order.
    pub fn cells(&self) -> Vec<(String, String)> {
        match self {
            LabResult::Burst(r) => r.cells(),
            LabResult::Units(r) => r.cells(),
            LabResult::Clients(r) => r.cells(),
            LabResult::Neighbour(r) => r.cells(),
            LabResult::Memory(r) => r.cells(),
            LabResult::Herd(r) => r.cells(),
        }
    }

    /// The result as a plain-text table.
    pub fn text(&self) -> String {
        match self {
            LabResult::Burst(r) => r.text(),
            LabResult::Units(r) => r.text(),
            LabResult::Clients(r) => r.text(),
            LabResult::Neighbour(r) => r.text(),
            LabResult::Memory(r) => r.text(),
            LabResult::Herd(r) => r.text(),
        }
    }
}

/// Runs one experiment with the article's parameters and `seed`.
pub fn run(name: ExperimentName, seed: u64) -> LabResult {
    let bug = "the default parameters are valid";
    match name {
        ExperimentName::Burst => {
            LabResult::Burst(burst::run(&burst::BurstParams::default(), seed).expect(bug))
        }
        ExperimentName::Units => {
            LabResult::Units(units::run(&units::UnitsParams::default()).expect(bug))
        }
        ExperimentName::Clients => {
            LabResult::Clients(clients::run(&clients::ClientsParams::default(), seed).expect(bug))
        }
        ExperimentName::Neighbour => LabResult::Neighbour(
            neighbour::run(&neighbour::NeighbourParams::default(), seed).expect(bug),
        ),
        ExperimentName::Memory => {
            LabResult::Memory(memory::run(&memory::MemoryParams::default()).expect(bug))
        }
        ExperimentName::Herd => {
            LabResult::Herd(herd::run(&herd::HerdParams::default(), seed).expect(bug))
        }
    }
}

/// Result cells of one experiment, keyed `<experiment>.<field>`.
pub struct Cells {
    prefix: &'static str,
    cells: Vec<(String, String)>,
}

impl Cells {
    /// An empty list for `name`.
    pub fn new(name: ExperimentName) -> Self {
        Self {
            prefix: name.as_str(),
            cells: Vec::new(),
        }
    }

    /// Adds `<experiment>.<field>` = `value`.
    pub fn put(&mut self, field: &str, value: impl std::fmt::Display) {
        let key = format!("{}.{field}", self.prefix);
        assert!(
            !self.cells.iter().any(|(k, _)| *k == key),
            "cell {key} is set twice"
        );
        self.cells.push((key, value.to_string()));
    }

    /// The finished list.
    pub fn done(self) -> Vec<(String, String)> {
        self.cells
    }
}

/// Seconds in a Julian year (365.25 days), the unit of the longest waits.
pub const SECONDS_PER_YEAR: u64 = 31_557_600;

/// A wait for people: "no wait at all", "250 ms", "120 s" or "56.7 years". Integer
/// arithmetic only (rounded half up), so every platform prints the same text.
pub fn wait_text(us: u64) -> String {
    let year_us = secs(SECONDS_PER_YEAR);
    if us == 0 {
        "no wait at all".into()
    } else if us < US_PER_S {
        format!("{} ms", (us + US_PER_MS / 2) / US_PER_MS)
    } else if us < year_us {
        format!(
            "{} s",
            crate::page::format::count((us + US_PER_S / 2) / US_PER_S)
        )
    } else {
        let tenths = (u128::from(us) * 10 + u128::from(year_us) / 2) / u128::from(year_us);
        format!("{}.{} years", tenths / 10, tenths % 10)
    }
}

/// Whole milliseconds in `us`, rounded to nearest: how result tables print durations.
pub fn round_ms(us: u64) -> u64 {
    (us + US_PER_MS / 2) / US_PER_MS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::ms;

    #[test]
    fn names_round_trip() {
        for name in ExperimentName::ALL {
            assert_eq!(name.as_str().parse::<ExperimentName>(), Ok(name));
            assert_eq!(run(name, 1).name(), name);
        }
        let e = "bursts".parse::<ExperimentName>().unwrap_err();
        assert_eq!(
            e.names,
            ["burst", "units", "clients", "neighbour", "memory", "herd"]
        );
    }

    #[test]
    fn every_cell_is_prefixed_unique_and_plain() {
        for name in ExperimentName::ALL {
            let cells = run(name, 1).cells();
            assert!(!cells.is_empty(), "{name}");
            for (k, v) in &cells {
                let field = k.strip_prefix(&format!("{name}.")).expect(k);
                assert!(
                    field.chars().all(|c| c.is_ascii_alphanumeric()),
                    "{k}: keys are camelCase words"
                );
                assert!(!v.is_empty() && !v.contains('\n'), "{k} = {v:?}");
            }
        }
    }

    #[test]
    fn results_are_the_same_for_the_same_seed() {
        for name in ExperimentName::ALL {
            let a = serde_json::to_string(&run(name, 9)).unwrap();
            assert_eq!(a, serde_json::to_string(&run(name, 9)).unwrap(), "{name}");
        }
    }

    #[test]
    fn waits_read_well() {
        assert_eq!(wait_text(0), "no wait at all");
        assert_eq!(wait_text(ms(250)), "250 ms");
        assert_eq!(wait_text(secs(120)), "120 s");
        assert_eq!(wait_text(secs(86_400)), "86,400 s");
        assert_eq!(wait_text(secs(SECONDS_PER_YEAR)), "1.0 years");
        assert_eq!(wait_text(secs(1_788_086_579)), "56.7 years");
        assert_eq!(wait_text(u64::MAX), "584542.0 years");
        assert_eq!(crate::page::format::capitalised("acme"), "Acme");
        assert_eq!(crate::page::format::capitalised(""), "");
        assert_eq!(round_ms(1_499), 1);
        assert_eq!(round_ms(1_500), 2);
    }
}

/// A response from the article's token bucket, with the headers it carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SampleResponse {
    /// 200 or 429.
    pub status: u16,
    /// The headers, in the order they are written.
    pub headers: Vec<(&'static str, String)>,
}

/// What our token bucket publishes: the response to the first request into a fresh
/// bucket (a 200), and to the first request it refuses (a 429), all at one instant.
pub fn sample_responses() -> [SampleResponse; 2] {
    use super::headers::response_headers;
    use super::limiter::{Limiter, Scope, TokenBucket};
    let policy = ARTICLE_POLICY;
    let mut bucket = TokenBucket::new(policy.limit, policy, Scope::PerKey)
        .expect("the article's policy is valid");
    let first = bucket.check(0, "caller", 1).expect("cost 1 fits");
    let refused = (1..=policy.limit)
        .map(|_| bucket.check(0, "caller", 1).expect("cost 1 fits"))
        .find(|d| !d.allowed)
        .expect("a bucket of `limit` refuses the request after it is empty");
    [first, refused].map(|d| SampleResponse {
        status: if d.allowed { 200 } else { 429 },
        headers: response_headers(policy, &d),
    })
}

#[cfg(test)]
mod sample_tests {
    use super::*;

    #[test]
    fn a_200_and_a_429_carry_both_header_shapes_and_only_the_429_says_retry_after() {
        let [ok, refused] = sample_responses();
        assert_eq!((ok.status, refused.status), (200, 429));
        let get = |r: &SampleResponse, n: &str| {
            r.headers
                .iter()
                .find(|(k, _)| *k == n)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(get(&ok, "RateLimit-Remaining").as_deref(), Some("9"));
        assert_eq!(
            get(&ok, "RateLimit-Policy").as_deref(),
            Some("\"burst\";q=10;w=1")
        );
        assert_eq!(get(&ok, "Retry-After"), None);
        assert_eq!(get(&refused, "RateLimit-Remaining").as_deref(), Some("0"));
        assert_eq!(get(&refused, "Retry-After").as_deref(), Some("1"));
        assert_eq!(
            get(&refused, "RateLimit").as_deref(),
            Some("\"burst\";r=0;t=1")
        );
    }
}

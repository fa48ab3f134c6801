//! Incidents: the provider has a bad few seconds.
//!
//! An incident is a kind and a span of simulated time, `[start, start + length)`. A
//! request that arrives inside the span meets the incident's rules instead of (or on top
//! of) the usual ones; one that arrives outside meets exactly the usual ones, with the
//! usual dice. The incident's own dice are keyed draws of their own
//! ([`Draw::IncidentError`](super::rng::Draw::IncidentError)), so a run with no incident
//! draws exactly what it drew before incidents existed.

use super::time::{ms, US_PER_S};
use serde::{Deserialize, Serialize};

crate::named_enum! {
    /// What goes wrong during the incident.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Incident as "incident" {
        /// Nothing: the provider behaves as usual all run long.
        None = "none",
        /// Half of the admitted charges fail with 500.
        Errors = "errors",
        /// Every admitted charge takes the slow latency.
        Slow = "slow",
        /// Every admitted request is answered 503 after its usual latency.
        Down = "down",
        /// The provider shrinks: [`CAPACITY_MAX_INFLIGHT`] in flight and
        /// [`CAPACITY_RATE_LIMIT`] per rate window.
        Capacity = "capacity",
    }
}

/// The chance that an admitted charge fails with 500 during an `errors` incident.
pub const ERRORS_ODDS: super::rng::Odds = super::rng::Odds { num: 1, den: 2 };
/// Requests in flight the provider takes during a `capacity` incident.
pub const CAPACITY_MAX_INFLIGHT: u32 = 2;
/// Requests per rate window the provider admits during a `capacity` incident.
pub const CAPACITY_RATE_LIMIT: u32 = 20;
/// The default start of the incident: 4 s into the run, when a paced batch is in full
/// flow.
pub const DEFAULT_START_US: u64 = ms(4_000);
/// The default length of the incident: 3 s.
pub const DEFAULT_LENGTH_US: u64 = ms(3_000);
/// The `Retry-After` a provider that is down gives is the time to the incident's end,
/// rounded up to whole seconds; outside any incident, an overloaded provider asks for
/// this much.
pub const OVERLOADED_RETRY_US: u64 = US_PER_S;

/// The incident of a scenario: its kind and its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IncidentPlan {
    /// What goes wrong.
    pub kind: Incident,
    /// When it starts.
    pub start_us: u64,
    /// How long it lasts.
    pub length_us: u64,
}

impl Default for IncidentPlan {
    fn default() -> Self {
        Self {
            kind: Incident::None,
            start_us: DEFAULT_START_US,
            length_us: DEFAULT_LENGTH_US,
        }
    }
}

impl IncidentPlan {
    /// When it ends (the first instant after it).
    pub fn end_us(&self) -> u64 {
        self.start_us.saturating_add(self.length_us)
    }

    /// The incident in force at `now_us`, if any.
    pub fn at(&self, now_us: u64) -> Option<Incident> {
        (self.kind != Incident::None && (self.start_us..self.end_us()).contains(&now_us))
            .then_some(self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_span_is_half_open_and_none_is_never_in_force() {
        let p = IncidentPlan {
            kind: Incident::Down,
            start_us: 10,
            length_us: 5,
        };
        assert_eq!(p.at(9), None);
        assert_eq!(p.at(10), Some(Incident::Down));
        assert_eq!(p.at(14), Some(Incident::Down));
        assert_eq!(p.at(15), None);
        let calm = IncidentPlan::default();
        assert!((0..20_000_000).step_by(1_000).all(|t| calm.at(t).is_none()));
    }
}

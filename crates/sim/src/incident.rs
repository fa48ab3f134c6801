//! Incidents: the provider has a bad few seconds.
//!
//! An incident is a kind and a span of simulated time, `[start, start + length)`. A
//! request that arrives inside the span meets the incident's rules instead of (or on top
//! of) the usual ones; one that arrives outside meets exactly the usual ones, with the
//! usual dice. The incident's own dice are keyed draws of their own
//! ([`Draw::IncidentError`](super::rng::Draw::IncidentError)), so a run with no incident
//! draws exactly what it drew before incidents existed.

use super::time::{ms, whole_ms, US_PER_S};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

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

crate::named_enum! {
    /// How a provider that is down (a `down` incident) answers a request.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum DownAnswer as "down answer" {
        /// The article's: the request is admitted, queued like any other, and answered
        /// 503 after the usual latency, so each one costs a worker that much.
        #[default]
        Queued = "queued",
        /// Refused with 503 on arrival, before the in-flight rule: it costs no work.
        Fast = "fast",
    }
}

crate::named_enum! {
    /// What `Retry-After` says on a 503 while the provider is down.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum DownHint as "down retry-after" {
        /// The time left until the incident ends, rounded up: a provider that knows the
        /// future (the lab's first model).
        #[default]
        Exact = "exact",
        /// Always [`OVERLOADED_RETRY_US`], as any other 503.
        Fixed = "fixed",
        /// How long the provider has been down so far, at least [`OVERLOADED_RETRY_US`]:
        /// a hint that grows as the outage goes on.
        Growing = "growing",
    }
}

impl DownHint {
    /// The wait it asks for, in microseconds, at `now_us` inside `plan` (a `down`
    /// incident in force).
    pub fn retry_after_us(self, plan: &IncidentPlan, now_us: u64) -> u64 {
        match self {
            DownHint::Exact => plan.end_us().saturating_sub(now_us).max(1),
            DownHint::Fixed => OVERLOADED_RETRY_US,
            DownHint::Growing => now_us
                .saturating_sub(plan.start_us)
                .max(OVERLOADED_RETRY_US),
        }
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

/// The span over which the incident's peak request rate is counted.
pub const PEAK_SPAN_US: u64 = ms(100);
/// The span over which the charge rate is measured, before the incident and after it.
pub const RATE_SPAN_US: u64 = US_PER_S;
/// Charges flow again once they reach this share of their rate before the incident, in
/// percent.
pub const RECOVERED_PERCENT: u64 = 90;

/// What a run did around its incident, fed one request and one charge at a time, in
/// time order. The simulation feeds it as it goes; [`Stats::at`](super::stats::Stats::at)
/// feeds it from the record, so the two agree by construction.
///
/// - **Incident requests**: requests that reached the provider during the incident.
/// - **Peak rate**: the most requests that reached the provider in any span of
///   [`PEAK_SPAN_US`] inside the incident, scaled to a rate per second.
/// - **Recovery**: let R be the charges the provider completed in the
///   [`RATE_SPAN_US`] just before the incident began, and N = ⌈R · 90%⌉. Recovery is the
///   smallest d ≥ 0 such that the span `[end + d, end + d + 1 s)` holds N charge
///   completions (0 if N is 0). If no span after the end ever does, because the batch
///   finished first or every client gave up, recovery is the time from the end to the
///   last charge the client finished (0 if that was before the end): a lower bound.
#[derive(Clone, Debug)]
pub struct IncidentMeter {
    plan: IncidentPlan,
    requests: u64,
    /// Request times inside the incident within the last peak span.
    recent_us: VecDeque<u64>,
    peak_requests: u64,
    charges_before: u64,
    /// The last N charge completions at or after the end.
    after_us: VecDeque<u64>,
    recovered_us: Option<u64>,
}

impl IncidentMeter {
    /// A meter for `plan`; with no incident it counts nothing.
    pub fn new(plan: IncidentPlan) -> Self {
        Self {
            plan,
            requests: 0,
            recent_us: VecDeque::new(),
            peak_requests: 0,
            charges_before: 0,
            after_us: VecDeque::new(),
            recovered_us: None,
        }
    }

    /// A request reached the provider at `at_us` (calls come in time order).
    pub fn on_request(&mut self, at_us: u64) {
        if self.plan.at(at_us).is_none() {
            return;
        }
        self.requests += 1;
        while self
            .recent_us
            .front()
            .is_some_and(|&t| t + PEAK_SPAN_US <= at_us)
        {
            self.recent_us.pop_front();
        }
        self.recent_us.push_back(at_us);
        self.peak_requests = self.peak_requests.max(self.recent_us.len() as u64);
    }

    /// The provider charged at `at_us` (calls come in time order).
    pub fn on_charge(&mut self, at_us: u64) {
        if self.plan.kind == Incident::None || self.recovered_us.is_some() {
            return;
        }
        let (start, end) = (self.plan.start_us, self.plan.end_us());
        if (start.saturating_sub(RATE_SPAN_US)..start).contains(&at_us) {
            self.charges_before += 1;
        }
        if at_us < end {
            return;
        }
        let needed = self.needed();
        if needed == 0 {
            self.recovered_us = Some(0);
            return;
        }
        self.after_us.push_back(at_us);
        if self.after_us.len() as u64 > needed {
            self.after_us.pop_front();
        }
        if self.after_us.len() as u64 == needed {
            let first = self.after_us[0];
            if at_us - first < RATE_SPAN_US {
                self.recovered_us = Some((at_us + 1).saturating_sub(RATE_SPAN_US).max(end) - end);
            }
        }
    }

    /// N: the charges per [`RATE_SPAN_US`] that count as flowing again.
    fn needed(&self) -> u64 {
        (self.charges_before * RECOVERED_PERCENT).div_ceil(100)
    }

    /// Requests that reached the provider during the incident.
    pub fn requests(&self) -> u64 {
        self.requests
    }

    /// The peak request rate during the incident, per second.
    pub fn peak_rate_per_s(&self) -> u64 {
        self.peak_requests * (US_PER_S / PEAK_SPAN_US)
    }

    /// Recovery in whole milliseconds, given when the client last finished a charge.
    pub fn recovery_ms(&self, last_finish_us: u64) -> u64 {
        if self.plan.kind == Incident::None {
            return 0;
        }
        if let Some(us) = self.recovered_us {
            return whole_ms(us);
        }
        if self.needed() == 0 && last_finish_us >= self.plan.end_us() {
            return 0;
        }
        whole_ms(last_finish_us.saturating_sub(self.plan.end_us()))
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

    #[test]
    fn the_meter_counts_the_peak_and_the_recovery_as_documented() {
        let plan = IncidentPlan {
            kind: Incident::Down,
            start_us: ms(2_000),
            length_us: ms(1_000),
        };
        let mut m = IncidentMeter::new(plan);
        // Ten charges in the second before: N = 9.
        for i in 0..10 {
            m.on_charge(ms(1_000) + i * ms(100));
        }
        // Requests inside: 3 within 100 ms, then sparse.
        for t in [2_000, 2_010, 2_099, 2_100, 2_500, 3_000] {
            m.on_request(ms(t));
        }
        assert_eq!(m.requests(), 5, "3 s is past the end");
        assert_eq!(m.peak_rate_per_s(), 30);
        // After the end: charges every 200 ms, then every 100 ms from 4 s.
        for t in (3_000..4_000)
            .step_by(200)
            .chain((4_000..5_000).step_by(100))
        {
            m.on_charge(ms(t));
        }
        // Nine completions less than 1 s apart first: 3.8 s, 4.0 s, 4.1 s … 4.7 s, so
        // the earliest span holding them starts at 4.7 s − 1 s + 1 µs.
        assert_eq!(m.recovered_us, Some(ms(700) + 1));
        assert_eq!(m.recovery_ms(ms(9_000)), 700);
        // Never recovered: the time to the client's last finish.
        let mut lost = IncidentMeter::new(plan);
        lost.on_charge(ms(1_500));
        assert_eq!(lost.recovery_ms(ms(3_250)), 250);
        assert_eq!(lost.recovery_ms(ms(2_500)), 0);
        assert_eq!(
            IncidentMeter::new(IncidentPlan::default()).recovery_ms(ms(9_000)),
            0
        );
    }
}

//! Goodput over time: for each second of a run, the customers who arrived, the requests
//! the client sent and the charges the client learned of (its goodput). Traffic that keeps
//! arriving makes these the figures of a recovery: a provider can be busy, even charging
//! cards, while the client learns of none of it.

use super::incident::IncidentPlan;
use super::time::{whole_ms, US_PER_S};

/// One second of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Second {
    /// Customers who arrived in it.
    pub arrivals: u32,
    /// Requests the client sent in it.
    pub sent: u32,
    /// Charges the client learned of in it: customers whose charge ended with a 200.
    pub goodput: u32,
}

/// The seconds a recovery's goodput is summed over.
pub const RECOVERY_SPAN_S: usize = 3;
/// The seconds each later span is summed over, to tell a recovery that lasts from one
/// that collapses again: every such span to the last arrival must hold too. Longer than
/// [`RECOVERY_SPAN_S`] because a client that never retries its 5% of server errors
/// (naive) dips to 81.7% in three-second spans of a calm run, and to 90.1% over ten, at
/// worst over seeds 1–100 of the outage's traffic (87.9% over ten on seeds 1–2,000);
/// through the outage, naive, paced, retry, pool and adaptive were all judged recovered
/// on seeds 1–2,000 (docs/traffic.md).
pub const HOLD_SPAN_S: usize = 10;
/// A span has recovered when its goodput is at least this share of its arrivals, in
/// percent.
pub const RECOVERED_PERCENT: u64 = 90;

/// A run's seconds, from t = 0 to the last that saw anything (a few bytes a second).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flow {
    seconds: Vec<Second>,
}

impl Flow {
    fn second_mut(&mut self, at_us: u64) -> &mut Second {
        let i = (at_us / US_PER_S) as usize;
        if self.seconds.len() <= i {
            self.seconds.resize(i + 1, Second::default());
        }
        &mut self.seconds[i]
    }

    /// `n` customers arrived at `at_us`.
    pub fn arrive(&mut self, at_us: u64, n: u32) {
        if n > 0 {
            self.second_mut(at_us).arrivals += n;
        }
    }

    /// The client sent a request at `at_us`.
    pub fn send(&mut self, at_us: u64) {
        self.second_mut(at_us).sent += 1;
    }

    /// A customer's charge ended at `at_us`: with a 200 if `charged` (goodput). Every end
    /// is a second of the run, so the seconds reach the last customer's end.
    pub fn end(&mut self, at_us: u64, charged: bool) {
        self.second_mut(at_us).goodput += u32::from(charged);
    }

    /// Charges the client has learned of so far.
    pub fn goodput(&self) -> u64 {
        self.seconds.iter().map(|s| u64::from(s.goodput)).sum()
    }

    /// Every second so far, from the first.
    pub fn seconds(&self) -> &[Second] {
        &self.seconds
    }

    /// Requests sent per customer arrived, in hundredths, rounded (0 with no arrivals):
    /// how much traffic a customer costs, retries included.
    pub fn amplification_hundredths(&self) -> u64 {
        let (sent, arrived) = self.seconds.iter().fold((0u64, 0u64), |(s, a), x| {
            (s + u64::from(x.sent), a + u64::from(x.arrivals))
        });
        (sent * 100 + arrived / 2).checked_div(arrived).unwrap_or(0)
    }

    /// How long after the incident's end goodput came back and stayed, in whole
    /// milliseconds (0 with no incident).
    ///
    /// Goodput is back at the first whole second `s` at or after the end such that the
    /// [`RECOVERY_SPAN_S`] seconds `[s, s + 3)` hold at least [`RECOVERED_PERCENT`] of
    /// their arrivals in goodput (with at least one arrival among them), and so does
    /// every later span of [`HOLD_SPAN_S`] seconds from `s` on that ends by the second of
    /// the last arrival: goodput came back, and did not fall away again before the run's
    /// arrivals ended. The answer is the start of `s` minus the end, or 0 if `s` starts
    /// before it. If no such second comes, the answer is the time from the end to the end
    /// of the last second recorded: a lower bound, reached at the run's end. So a recovery
    /// ends no later than the last customer's end (some charge ended in its first
    /// second), and a run that did not recover ends after it.
    pub fn recovery_ms(&self, incident: &IncidentPlan) -> u64 {
        if incident.kind == super::incident::Incident::None {
            return 0;
        }
        let end_us = incident.end_us();
        let first = end_us.div_ceil(US_PER_S) as usize;
        // The last span of HOLD_SPAN_S seconds that ends by the last arrival's second
        // starts here (none if the arrivals ended sooner).
        let last_hold = self
            .last_arrival_second()
            .and_then(|last| (last + 1).checked_sub(HOLD_SPAN_S));
        let recovered = (first..self.seconds.len()).find(|&s| {
            self.holds(s, RECOVERY_SPAN_S)
                && last_hold.is_none_or(|l| (s..=l).all(|t| self.holds(t, HOLD_SPAN_S)))
        });
        let at_us = match recovered {
            Some(s) => s as u64 * US_PER_S,
            None => self.seconds.len() as u64 * US_PER_S,
        };
        whole_ms(at_us.saturating_sub(end_us))
    }

    /// Of the whole seconds from the incident's end to the last arrival's, the share in
    /// percent (rounded down) at which goodput was up: the [`RECOVERY_SPAN_S`] seconds
    /// from it held at least [`RECOVERED_PERCENT`] of their arrivals. 0 with no incident
    /// or no such second; beside a run that did not recover, how much of the time after
    /// the incident its customers were served all the same.
    pub fn up_percent(&self, incident: &IncidentPlan) -> u64 {
        if incident.kind == super::incident::Incident::None {
            return 0;
        }
        let first = incident.end_us().div_ceil(US_PER_S) as usize;
        let Some(last) = self.last_arrival_second().filter(|&l| l >= first) else {
            return 0;
        };
        let seconds = (last + 1 - first) as u64;
        let up = (first..=last)
            .filter(|&s| self.holds(s, RECOVERY_SPAN_S))
            .count() as u64;
        up * 100 / seconds
    }

    /// The last second in which a customer arrived, if any did.
    fn last_arrival_second(&self) -> Option<usize> {
        self.seconds.iter().rposition(|x| x.arrivals > 0)
    }

    /// True if the `span` seconds from `s` (fewer at the end of the run) hold at least
    /// [`RECOVERED_PERCENT`] of their arrivals in goodput, with at least one arrival.
    fn holds(&self, s: usize, span: usize) -> bool {
        let span = &self.seconds[s.min(self.seconds.len())..(s + span).min(self.seconds.len())];
        let arrivals: u64 = span.iter().map(|x| u64::from(x.arrivals)).sum();
        let goodput: u64 = span.iter().map(|x| u64::from(x.goodput)).sum();
        arrivals > 0 && goodput * 100 >= arrivals * RECOVERED_PERCENT
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::incident::Incident;
    use crate::time::secs;

    fn steady(arrivals: u32, goodput: &[u32]) -> Flow {
        let mut f = Flow::default();
        for (i, &g) in goodput.iter().enumerate() {
            let t = secs(i as u64);
            f.arrive(t, arrivals);
            for _ in 0..g {
                f.end(t, true);
                f.send(t);
            }
        }
        f
    }

    #[test]
    fn recovery_is_the_first_span_whose_goodput_is_back() {
        let outage = IncidentPlan {
            kind: Incident::Down,
            start_us: secs(2),
            length_us: 2_500_000,
        };
        // Down over 2–4.5 s; goodput back from second 7 on.
        let f = steady(10, &[10, 10, 0, 0, 0, 0, 2, 10, 10, 9, 10]);
        assert_eq!(f.recovery_ms(&outage), 2_500);
        // Never back: a lower bound to the end of the last second.
        let f = steady(10, &[10, 10, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(f.recovery_ms(&outage), 5_500);
        // Back at once (the span from second 5 already holds 90%).
        let f = steady(10, &[10, 10, 0, 0, 0, 9, 9, 9]);
        assert_eq!(f.recovery_ms(&outage), 500);
        assert_eq!(f.recovery_ms(&IncidentPlan::default()), 0);
    }

    #[test]
    fn a_recovery_that_falls_away_again_is_no_recovery() {
        let outage = IncidentPlan {
            kind: Incident::Down,
            start_us: secs(2),
            length_us: secs(2),
        };
        // Back over seconds 4–6, then down for good: the first span holds, a later one
        // of ten seconds does not.
        let mut goodput = vec![10, 10, 0, 0, 10, 10, 10];
        goodput.extend([0; 20]);
        let f = steady(10, &goodput);
        assert_eq!(
            f.recovery_ms(&outage),
            23_000,
            "a lower bound to the run's end"
        );
        // One of the 23 seconds after the end was up: the span from second 4 holds, the
        // spans from 5 and 6 reach into the collapse.
        assert_eq!(f.up_percent(&outage), 100 / 23);
        // Back at 4 s and staying back: recovered at once, and up all the time after.
        let f = steady(
            10,
            &[
                10, 10, 0, 0, 10, 10, 10, 9, 10, 10, 9, 10, 10, 10, 10, 10, 10,
            ],
        );
        assert_eq!(f.recovery_ms(&outage), 0);
        // Down for three seconds in the middle: back after it, once every later span of
        // ten holds.
        let mut goodput = vec![10, 10, 0, 0, 10, 10, 10, 0, 0, 0];
        goodput.extend([10; 20]);
        let f = steady(10, &goodput);
        assert_eq!(f.recovery_ms(&outage), 6_000);
        assert!(f.up_percent(&outage) < 100);
        assert_eq!(f.up_percent(&IncidentPlan::default()), 0);
    }

    #[test]
    fn amplification_is_requests_per_arrival() {
        let mut f = Flow::default();
        f.arrive(0, 3);
        for t in [0, 10, 20, 30, secs(5)] {
            f.send(t);
        }
        assert_eq!(f.amplification_hundredths(), 167);
        assert_eq!(f.seconds().len(), 6);
        assert_eq!(Flow::default().amplification_hundredths(), 0);
    }
}

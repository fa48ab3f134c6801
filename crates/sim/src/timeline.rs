//! What a timeline draws, computed from the record: one mark per request, and two
//! series against their limits (the provider's rate window and its in-flight count).

use super::provider::Status;
use super::record::{Admission, ClientView, RequestRecord};
use serde::Serialize;

crate::named_enum! {
    /// How a request turned out, for its mark.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub enum MarkKind as "mark" {
        /// 200.
        Ok = "ok",
        /// 400.
        Declined = "declined",
        /// 409.
        Conflict = "conflict",
        /// 422.
        KeyReused = "key-reused",
        /// 429.
        TooMany = "too-many",
        /// 500.
        ServerError = "server-error",
        /// 503.
        Overloaded = "overloaded",
        /// The client stopped waiting before an answer came.
        TimedOut = "timed-out",
        /// No answer yet.
        Waiting = "waiting",
    }
}

/// One request on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Mark {
    /// When it was sent.
    pub sent_at_us: u64,
    /// Its customer (the row).
    pub customer: u32,
    /// How it turned out, as far as the client knows.
    pub kind: MarkKind,
    /// It took the slow path.
    pub slow: bool,
    /// Money moved for it (possibly after the client stopped waiting).
    pub charged: bool,
}

impl Mark {
    /// The mark for one record.
    pub fn of(r: &RequestRecord) -> Self {
        let kind = match (r.client, r.status) {
            (ClientView::TimedOut { .. }, _) => MarkKind::TimedOut,
            (ClientView::Answered { status, .. }, _) | (ClientView::Waiting, Some(status)) => {
                match status {
                    Status::Ok => MarkKind::Ok,
                    Status::Declined => MarkKind::Declined,
                    Status::InProgress => MarkKind::Conflict,
                    Status::KeyReused => MarkKind::KeyReused,
                    Status::TooManyRequests => MarkKind::TooMany,
                    Status::ServerError => MarkKind::ServerError,
                    Status::Overloaded => MarkKind::Overloaded,
                }
            }
            (ClientView::Waiting, None) => MarkKind::Waiting,
        };
        let slow = matches!(r.admission, Admission::Admitted { slow: true, .. });
        Self {
            sent_at_us: r.sent_at_us,
            customer: r.customer,
            kind,
            slow,
            charged: r.charged,
        }
    }
}

/// The two series under a timeline, each the peak within every bin of `bin_us`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Series {
    /// Bin width.
    pub bin_us: u64,
    /// Peak count in the provider's rate window during each bin.
    pub rate_window: Vec<u32>,
    /// Peak number of admitted requests in flight during each bin.
    pub inflight: Vec<u32>,
}

impl Series {
    /// Computes both series from the record, up to `until_us`. Requests refused with 429
    /// do not count toward the rate window (as in the provider); 503s do, because they
    /// passed the rate check first.
    pub fn of(record: &[RequestRecord], rate_window_us: u64, until_us: u64, bin_us: u64) -> Self {
        assert!(bin_us > 0);
        let bins = (until_us / bin_us + 1) as usize;
        let mut rate_window = vec![0u32; bins];
        let mut inflight = vec![0u32; bins];
        let bin = |t: u64| ((t / bin_us) as usize).min(bins - 1);

        // Rate window: at each counted arrival, how many counted arrivals lie in (t − w, t].
        let counted: Vec<u64> = record
            .iter()
            .filter(|r| {
                r.sent_at_us <= until_us
                    && r.admission != Admission::Refused(Status::TooManyRequests)
            })
            .map(|r| r.sent_at_us)
            .collect();
        let mut oldest = 0;
        for (i, &t) in counted.iter().enumerate() {
            while counted[oldest] + rate_window_us <= t {
                oldest += 1;
            }
            let b = bin(t);
            rate_window[b] = rate_window[b].max((i + 1 - oldest) as u32);
        }
        // A bin with no arrival still has a full window behind it: count the window at
        // each bin's end too, so quiet stretches decay instead of dropping to zero.
        let (mut lo, mut hi) = (0, 0);
        for (b, peak) in rate_window.iter_mut().enumerate() {
            let end_us = ((b as u64 + 1) * bin_us).min(until_us);
            while hi < counted.len() && counted[hi] <= end_us {
                hi += 1;
            }
            while lo < hi && counted[lo] + rate_window_us <= end_us {
                lo += 1;
            }
            *peak = (*peak).max((hi - lo) as u32);
        }

        // In flight: +1 on admission, −1 on completion; completions first at equal times.
        let mut changes: Vec<(u64, i32)> = Vec::new();
        for r in record.iter().filter(|r| r.sent_at_us <= until_us) {
            if let Admission::Admitted { .. } = r.admission {
                changes.push((r.sent_at_us, 1));
                if r.done_at_us <= until_us {
                    changes.push((r.done_at_us, -1));
                }
            }
        }
        changes.sort_unstable();
        let mut level = 0i32;
        let mut last_bin = 0;
        for (t, delta) in changes {
            let b = bin(t);
            // Bins with no change keep the level they started with.
            for carry in inflight.iter_mut().take(b).skip(last_bin + 1) {
                *carry = level as u32;
            }
            level += delta;
            inflight[b] = inflight[b].max(level as u32);
            last_bin = b;
        }
        for carry in inflight.iter_mut().skip(last_bin + 1) {
            *carry = level as u32;
        }
        Self {
            bin_us,
            rate_window,
            inflight,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Simulation, StrategyName};

    #[test]
    fn series_peaks_match_the_stats() {
        for strategy in StrategyName::ALL {
            let mut sim = Simulation::new(&Scenario::article(strategy, 2)).unwrap();
            let stats = sim.run_to_end();
            let record = sim.record().unwrap();
            let s = Series::of(record, 1_000_000, sim.now_us(), 50_000);
            assert_eq!(
                *s.inflight.iter().max().unwrap(),
                stats.max_inflight,
                "{strategy}"
            );
            assert!(*s.rate_window.iter().max().unwrap() <= 100, "{strategy}");
        }
    }

    #[test]
    fn a_quiet_bin_keeps_the_window_behind_it() {
        // Paced at 90/s: after the first second the window always holds about 90, so no
        // bin before the last second of the run may read 0.
        let mut sim = Simulation::new(&Scenario::article(StrategyName::Paced, 1)).unwrap();
        sim.run_to_end();
        let s = Series::of(sim.record().unwrap(), 1_000_000, sim.now_us(), 10_000);
        let steady = &s.rate_window[100..1_000];
        assert!(
            steady.iter().all(|v| (80..=100).contains(v)),
            "{:?}",
            &steady[..20]
        );
    }

    #[test]
    fn naive_fills_the_window_at_once() {
        let mut sim = Simulation::new(&Scenario::article(StrategyName::Naive, 1)).unwrap();
        sim.run_to_end();
        let s = Series::of(sim.record().unwrap(), 1_000_000, sim.now_us(), 50_000);
        assert_eq!(s.rate_window[0], 100);
        assert_eq!(s.inflight[0], 10);
    }

    #[test]
    fn marks_follow_what_the_client_saw() {
        let mut sim = Simulation::new(&Scenario::article(StrategyName::TimeoutNoKey, 1)).unwrap();
        sim.run_to_end();
        let marks: Vec<Mark> = sim.record().unwrap().iter().map(Mark::of).collect();
        let timed_out: Vec<&Mark> = marks
            .iter()
            .filter(|m| m.kind == MarkKind::TimedOut)
            .collect();
        assert!(!timed_out.is_empty());
        // Every timeout here is a slow charge that went through anyway.
        assert!(timed_out.iter().all(|m| m.slow && m.charged));
        assert!(!marks.iter().any(|m| m.kind == MarkKind::Waiting));
    }
}

//! The boundary burst in words: its cells, its table and its errors.

use super::lab::{round_ms, Cells};
use crate::shared::format::count;
use crate::shared::words::Words;
use sim::lab::burst::{BurstError, BurstResult, MAX_GAP_US, MAX_PER_VOLLEY};
use sim::lab::ExperimentName;
use sim::limiter::LimiterKind;
use std::fmt;

/// `burst.fixedBefore`, `burst.fixedAfter`, `burst.fixedAccepted`, … per limiter, then
/// the limit, the window and the span in ms.
pub fn cells(r: &BurstResult) -> Vec<(String, String)> {
    let mut c = Cells::new(ExperimentName::Burst);
    for lane in &r.lanes {
        let name = lane.limiter.as_str();
        c.put_of(name, "Before", lane.before);
        c.put_of(name, "After", lane.after);
        c.put_of(name, "Accepted", lane.accepted);
        c.put_of(name, "Refused", lane.refused);
        if lane.limiter.delays() {
            c.put_of(name, "Delayed", lane.delayed);
            c.put_of(name, "MaxDelayMs", round_ms(lane.max_delay_us));
        }
    }
    c.put("limit", r.limit);
    c.put("windowMs", round_ms(r.window_us));
    c.put("spanMs", round_ms(r.span_us));
    c.done()
}

/// The table.
pub fn text(r: &BurstResult) -> String {
    let mut out = format!(
        "burst: {n} requests {b} ms before a window boundary, {n} more {g} ms after those\n\
         limit: {} per {} ms\n\n{:<10}{:>8}{:>8}{:>10}\n",
        r.limit,
        round_ms(r.window_us),
        "limiter",
        "before",
        "after",
        "accepted",
        n = r.lanes[0].marks.len() / 2,
        b = round_ms(r.boundary_us - r.first_volley_us),
        g = round_ms(r.second_volley_us - r.first_volley_us),
    );
    for lane in &r.lanes {
        out.push_str(&format!(
            "{:<10}{:>8}{:>8}{:>10}\n",
            lane.limiter.as_str(),
            lane.before,
            lane.after,
            lane.accepted
        ));
    }
    out.push_str(&format!(
        "\nall {} requests arrived within {} ms",
        r.lanes[0].marks.len(),
        round_ms(r.span_us),
    ));
    for lane in r.lanes.iter().filter(|l| l.limiter.delays()) {
        out.push_str(&format!(
            "\n{}: {} of its accepted requests waited in the queue, the last {} ms",
            lane.limiter.as_str(),
            lane.delayed,
            round_ms(lane.max_delay_us),
        ));
    }
    out
}

/// One answer of the token bucket, as the page lists it beside the bucket's lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderRow {
    /// When the request arrived, from the first volley: "+0.4 ms".
    pub at: String,
    /// 200 or 429.
    pub status: u16,
    /// True for a 200.
    pub allowed: bool,
    /// `RateLimit: …`.
    pub rate_limit: String,
    /// `Retry-After: …`, on a refusal.
    pub retry_after: Option<String>,
}

/// The token bucket's answers, request by request.
pub fn header_rows(r: &BurstResult) -> Vec<HeaderRow> {
    let Some(lane) = r.lanes.iter().find(|l| l.limiter == LimiterKind::Bucket) else {
        return Vec::new();
    };
    lane.marks
        .iter()
        .map(|m| {
            let since_us = m.at_us - r.first_volley_us;
            HeaderRow {
                at: format!(
                    "+{}.{} ms",
                    count(since_us / 1_000),
                    (since_us % 1_000) / 100
                ),
                status: if m.allowed { 200 } else { 429 },
                allowed: m.allowed,
                rate_limit: format!("RateLimit: {}", m.rate_limit),
                retry_after: m.retry_after.as_ref().map(|v| format!("Retry-After: {v}")),
            }
        })
        .collect()
}

impl Words for BurstError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BurstError::Limiter(why) => why.words(f),
            BurstError::BoundaryOffWindow => {
                f.write_str("the boundary must be a multiple of the window")
            }
            BurstError::FirstVolleyMisplaced => {
                f.write_str("the first volley must start after 0 and finish before the boundary")
            }
            BurstError::Gap => write!(
                f,
                "the gap between the volleys must be longer than a volley's spread and at most \
                 {} s",
                MAX_GAP_US / sim::time::US_PER_S
            ),
            BurstError::VolleySize => write!(
                f,
                "a volley must have 1 to {} requests",
                count(MAX_PER_VOLLEY.into())
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab::burst::{run, BurstParams};
    use sim::time::ms;

    #[test]
    fn cells_and_table_carry_the_lanes() {
        let r = run(&BurstParams::default(), 3).unwrap();
        let cells = cells(&r);
        assert!(cells.contains(&("burst.fixedAccepted".into(), "20".into())));
        assert!(cells.contains(&("burst.slidingAfter".into(), "0".into())));
        assert_eq!(
            cells.last(),
            Some(&("burst.spanMs".to_string(), round_ms(r.span_us).to_string()))
        );
        let t = text(&r);
        assert!(t.starts_with("burst: 10 requests 150 ms before a window boundary"));
        assert!(t.contains("\nbucket"), "{t}");
    }

    #[test]
    fn every_limiter_has_a_row_and_the_queue_says_how_long_it_held() {
        let r = run(&BurstParams::default(), 3).unwrap();
        let t = text(&r);
        for lane in &r.lanes {
            let row = format!("\n{:<10}{:>8}", lane.limiter.as_str(), lane.before);
            assert!(t.contains(&row), "{row} in {t}");
        }
        let queue = r
            .lanes
            .iter()
            .find(|l| l.limiter == LimiterKind::Queue)
            .unwrap();
        let line = format!(
            "\nqueue: {} of its accepted requests waited in the queue, the last {} ms",
            queue.delayed,
            round_ms(queue.max_delay_us)
        );
        assert!(t.ends_with(&line), "{t}");
        let cells = cells(&r);
        assert!(cells.contains(&("burst.queueDelayed".into(), queue.delayed.to_string())));
        assert!(!cells.iter().any(|(k, _)| k == "burst.bucketDelayed"));
        assert!(cells.contains(&("burst.gcraAccepted".into(), "11".into())));
    }

    #[test]
    fn the_buckets_answers_count_down() {
        let r = run(&BurstParams::default(), 1).unwrap();
        let rows = header_rows(&r);
        assert_eq!(rows.len(), 20);
        assert!(rows[0].at.starts_with('+') && rows[0].at.ends_with(" ms"));
        assert_eq!(rows[0].rate_limit, "RateLimit: \"burst\";r=9;t=1");
        assert_eq!(rows[9].rate_limit, "RateLimit: \"burst\";r=0;t=1");
        assert!(rows[..11]
            .iter()
            .all(|row| row.status == 200 && row.retry_after.is_none()));
        assert_eq!(rows[11].retry_after.as_deref(), Some("Retry-After: 1"));
        assert!(rows[10].at.starts_with("+17"), "{}", rows[10].at);
    }

    #[test]
    fn bad_parameters_are_sentences() {
        let p = BurstParams {
            boundary_us: ms(2_500),
            ..BurstParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().sentence(),
            "the boundary must be a multiple of the window"
        );
        let p = BurstParams {
            spread_us: ms(200),
            ..BurstParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().sentence(),
            "the first volley must start after 0 and finish before the boundary"
        );
        assert_eq!(
            BurstError::VolleySize.sentence(),
            "a volley must have 1 to 10,000 requests"
        );
        let p = BurstParams {
            policy: sim::limiter::Policy {
                limit: 0,
                window_us: ms(1_000),
            },
            ..BurstParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().sentence(),
            "a limit of 0 requests is outside the allowed range 1–1000000",
            "the limiter's own sentence"
        );
    }
}

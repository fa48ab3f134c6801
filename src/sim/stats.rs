//! The stats panel: what the provider and the client saw, as one flat object.

use super::provider::{ProviderCounters, Status, Work};
use super::record::{Admission, ClientView, RequestRecord};
use super::time::whole_ms;
use serde::Serialize;
use std::collections::BTreeMap;

/// What the client side has counted so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientCounters {
    /// Requests sent for a customer who had already received a 400.
    pub retried_declined: u64,
    /// Customers whose client ran out of attempts.
    pub gave_up: u64,
    /// Requests awaited right now.
    pub outstanding: u32,
    /// The most requests awaited at once.
    pub max_outstanding: u32,
    /// Charges finished, whatever their outcome.
    pub customers_done: u64,
    /// When the last charge finished.
    pub last_finish_us: u64,
}

/// The stats of a run, with the JSON field names of the article's panel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Every request that reached the provider.
    pub requests: u64,
    /// Charge operations performed: money moved.
    pub charges: u64,
    /// Distinct customers charged.
    pub customers_charged: u64,
    /// Charges beyond the first for the same customer.
    pub duplicates: u64,
    /// Peak number of admitted requests being processed at once.
    pub max_inflight: u32,
    /// 429 answers.
    pub rate_limited: u64,
    /// 503 answers.
    pub overloaded: u64,
    /// 500 answers.
    pub server_errors: u64,
    /// Requests that took the slow latency.
    pub slow: u64,
    /// 409 answers.
    pub in_progress_conflicts: u64,
    /// 400 answers.
    pub declined: u64,
    /// Answers replayed from the idempotency store.
    pub replayed: u64,
    /// Requests sent for a customer who had already received a 400.
    pub retried_declined: u64,
    /// Customers whose client ran out of attempts.
    pub gave_up: u64,
    /// The most requests the client awaited at once.
    pub client_max_outstanding: u32,
    /// Simulated time until the last client finished, in whole milliseconds.
    pub elapsed_ms: u64,
}

impl Stats {
    /// The field names, in panel order (the JSON keys).
    pub const FIELDS: [&'static str; 16] = [
        "requests",
        "charges",
        "customersCharged",
        "duplicates",
        "maxInflight",
        "rateLimited",
        "overloaded",
        "serverErrors",
        "slow",
        "inProgressConflicts",
        "declined",
        "replayed",
        "retriedDeclined",
        "gaveUp",
        "clientMaxOutstanding",
        "elapsedMs",
    ];

    /// Combines the two sides' counters.
    pub fn from_counters(p: &ProviderCounters, c: &ClientCounters) -> Self {
        Self {
            requests: p.requests,
            charges: p.charges,
            customers_charged: p.customers_charged,
            duplicates: p.duplicates,
            max_inflight: p.max_inflight,
            rate_limited: p.rate_limited,
            overloaded: p.overloaded,
            server_errors: p.server_errors,
            slow: p.slow,
            in_progress_conflicts: p.in_progress_conflicts,
            declined: p.declined,
            replayed: p.replayed,
            retried_declined: c.retried_declined,
            gave_up: c.gave_up,
            client_max_outstanding: c.max_outstanding,
            elapsed_ms: whole_ms(c.last_finish_us),
        }
    }

    /// The value of a field by its JSON name.
    pub fn get(&self, field: &str) -> Option<u64> {
        Some(match field {
            "requests" => self.requests,
            "charges" => self.charges,
            "customersCharged" => self.customers_charged,
            "duplicates" => self.duplicates,
            "maxInflight" => u64::from(self.max_inflight),
            "rateLimited" => self.rate_limited,
            "overloaded" => self.overloaded,
            "serverErrors" => self.server_errors,
            "slow" => self.slow,
            "inProgressConflicts" => self.in_progress_conflicts,
            "declined" => self.declined,
            "replayed" => self.replayed,
            "retriedDeclined" => self.retried_declined,
            "gaveUp" => self.gave_up,
            "clientMaxOutstanding" => u64::from(self.client_max_outstanding),
            "elapsedMs" => self.elapsed_ms,
            _ => return None,
        })
    }

    /// Derives the stats of a finished run from its record alone.
    pub fn from_record(record: &[RequestRecord]) -> Self {
        let mut s = Stats {
            requests: record.len() as u64,
            ..Stats::default()
        };
        let mut charges_by_customer: BTreeMap<u32, u64> = BTreeMap::new();
        // Per customer: when the client first received a 400, and how its last request ended.
        let mut declined_at_us: BTreeMap<u32, u64> = BTreeMap::new();
        let mut last: BTreeMap<u32, &RequestRecord> = BTreeMap::new();
        for r in record {
            if let Some(&t) = declined_at_us.get(&r.customer) {
                if r.sent_at_us >= t {
                    s.retried_declined += 1;
                }
            }
            if let ClientView::Answered {
                status: Status::Declined,
                at_us,
            } = r.client
            {
                declined_at_us.entry(r.customer).or_insert(at_us);
            }
            last.insert(r.customer, r);
            s.client_max_outstanding = s.client_max_outstanding.max(r.outstanding);
            match r.admission {
                Admission::Refused(Status::TooManyRequests) => s.rate_limited += 1,
                Admission::Refused(_) => s.overloaded += 1,
                Admission::Admitted {
                    work,
                    slow,
                    inflight,
                } => {
                    s.max_inflight = s.max_inflight.max(inflight);
                    s.slow += u64::from(slow);
                    s.replayed += u64::from(matches!(work, Work::Replay(_)));
                }
            }
            match r.status {
                Some(Status::Declined) => s.declined += 1,
                Some(Status::ServerError) => s.server_errors += 1,
                Some(Status::InProgress) => s.in_progress_conflicts += 1,
                _ => {}
            }
            if r.charged {
                s.charges += 1;
                *charges_by_customer.entry(r.customer).or_default() += 1;
            }
        }
        s.customers_charged = charges_by_customer.len() as u64;
        s.duplicates = s.charges - s.customers_charged;
        for r in last.values() {
            let finished_us = r.client.at_us().expect("a finished run awaits nothing");
            s.elapsed_ms = s.elapsed_ms.max(whole_ms(finished_us));
            let final_answer =
                matches!(r.client, ClientView::Answered { status, .. } if status.is_final());
            s.gave_up += u64::from(!final_answer);
        }
        s
    }

    /// Requests sent per charge made, to two decimals ("—" when nothing was charged):
    /// what each strategy pays in traffic for the money it moves.
    pub fn requests_per_charge(&self) -> String {
        match self.charges {
            0 => "—".to_string(),
            c => {
                let hundredths = (self.requests * 100 + c / 2) / c;
                format!("{}.{:02}", hundredths / 100, hundredths % 100)
            }
        }
    }

    /// The run in one sentence, e.g. "990 of 990 valid customers charged, 0 extra
    /// charges, 1,084 requests in 13.2 s."
    pub fn summary(&self, valid_customers: u32) -> String {
        let gave_up = match self.gave_up {
            0 => String::new(),
            n => format!(", {} given up on", count(n)),
        };
        format!(
            "{} of {} valid customers charged, {} extra {}{gave_up}, {} requests in {}.",
            count(self.customers_charged),
            count(valid_customers.into()),
            count(self.duplicates),
            if self.duplicates == 1 {
                "charge"
            } else {
                "charges"
            },
            count(self.requests),
            duration_ms(self.elapsed_ms),
        )
    }

    /// The panel in the article's shape: `provider stats: { ... } elapsed: N ms`.
    pub fn panel(&self) -> String {
        let mut out = String::from("provider stats: {\n");
        for field in Self::FIELDS.iter().filter(|f| **f != "elapsedMs") {
            let value = self.get(field).unwrap_or_default();
            out.push_str(&format!("  {field}: {value},\n"));
        }
        out.push_str(&format!("}} elapsed: {} ms", self.elapsed_ms));
        out
    }
}

/// `text` with its first letter in upper case. Our texts are ASCII, and an ASCII-only
/// rule keeps Unicode's case tables (several KB) out of the browser build.
pub fn capitalised(text: &str) -> String {
    let mut s = text.to_string();
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    s
}

/// `1084` as "1,084".
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A duration for people: "17 ms" below a second, "13.2 s" above.
pub fn duration_ms(ms: u64) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else {
        format!("{}.{} s", count(ms / 1_000), (ms % 1_000) / 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_durations_read_well() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_084), "1,084");
        assert_eq!(count(1_000_000), "1,000,000");
        assert_eq!(duration_ms(17), "17 ms");
        assert_eq!(duration_ms(13_236), "13.2 s");
        assert_eq!(duration_ms(13_299), "13.2 s");
        assert_eq!(duration_ms(3_600_000), "3,600.0 s");
    }

    #[test]
    fn requests_per_charge_rounds_to_hundredths() {
        let s = Stats {
            requests: 1_084,
            charges: 990,
            ..Stats::default()
        };
        assert_eq!(s.requests_per_charge(), "1.09");
        assert_eq!(
            Stats {
                requests: 1_000,
                charges: 9,
                ..Stats::default()
            }
            .requests_per_charge(),
            "111.11"
        );
        assert_eq!(
            Stats {
                requests: 5,
                ..Stats::default()
            }
            .requests_per_charge(),
            "—"
        );
    }

    #[test]
    fn the_summary_is_one_sentence() {
        let s = Stats {
            customers_charged: 990,
            requests: 1_084,
            elapsed_ms: 13_236,
            ..Stats::default()
        };
        assert_eq!(
            s.summary(990),
            "990 of 990 valid customers charged, 0 extra charges, 1,084 requests in 13.2 s."
        );
        let s = Stats {
            customers_charged: 10,
            gave_up: 990,
            requests: 1_000,
            elapsed_ms: 17,
            duplicates: 1,
            ..Stats::default()
        };
        assert_eq!(s.summary(990), "10 of 990 valid customers charged, 1 extra charge, 990 given up on, 1,000 requests in 17 ms.");
    }
}

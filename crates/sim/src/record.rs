//! What happened to every request: the single source of truth of a run.
//!
//! The live counters in [`crate::stats`] are a fast path; [`Stats::from_record`] and
//! [`Stats::at`], here with the record they read, derive the same numbers from this
//! record alone, and the tests hold the two equal.

use super::flow::Flow;
use super::incident::{IncidentMeter, IncidentPlan};
use super::provider::{IdempotencyKey, Status, Work};
use super::stats::{mean, Stats};
use super::time::whole_ms;
use super::traffic::Arrivals;
use super::waits::Waits;
use serde::Serialize;

/// How the provider took a request in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Admission {
    /// Refused on arrival with this status (429 or 503).
    Refused(Status),
    /// Admitted for processing.
    Admitted {
        /// What completion does.
        work: Work,
        /// Drew the slow latency.
        slow: bool,
        /// Requests in flight at the provider, this one included, right after admission.
        inflight: u32,
    },
}

/// What the client made of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ClientView {
    /// Still waiting.
    Waiting,
    /// Received this answer at this time.
    Answered {
        /// The status received.
        status: Status,
        /// When it was received.
        at_us: u64,
    },
    /// Stopped waiting at this time; any later answer is ignored.
    TimedOut {
        /// When the client's deadline passed.
        at_us: u64,
    },
}

impl ClientView {
    /// When the client stopped waiting, if it has.
    pub fn at_us(&self) -> Option<u64> {
        match *self {
            ClientView::Waiting => None,
            ClientView::Answered { at_us, .. } | ClientView::TimedOut { at_us } => Some(at_us),
        }
    }
}

/// One request, from send to answer, seen from both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestRecord {
    /// Sequence number of the request in the run, from 0.
    pub request: u32,
    /// The customer it charges.
    pub customer: u32,
    /// Which attempt of that customer's charge, from 1.
    pub attempt: u32,
    /// The idempotency key sent, if any.
    pub key: Option<IdempotencyKey>,
    /// When the client sent it (and the provider received it).
    pub sent_at_us: u64,
    /// Requests the client was awaiting right after sending this one, this one included.
    pub outstanding: u32,
    /// How the provider took it in.
    pub admission: Admission,
    /// When the provider answers (or answered): on arrival for a refusal.
    pub done_at_us: u64,
    /// The provider's answer, once given.
    pub status: Option<Status>,
    /// Money moved when the provider finished it.
    pub charged: bool,
    /// What the client saw.
    pub client: ClientView,
    /// The adaptive client's concurrency limit when it sent this (0 for the others).
    pub concurrency: u32,
    /// After this request's answer or timeout, the retry budget refused the retry, and
    /// the charge gave up.
    pub budget_refused: bool,
    /// This request's answer or timeout opened the client's circuit breaker.
    pub opened_breaker: bool,
}

impl RequestRecord {
    /// True if the provider has answered but the client had already stopped waiting.
    pub fn answered_after_client_left(&self) -> bool {
        matches!(self.client, ClientView::TimedOut { .. }) && self.status.is_some()
    }
}
/// The stats a run's record gives: derived from the record alone, so they live with it.
impl Stats {
    /// Derives the stats of a finished run from its record alone (and the incident it
    /// ran under, which the record does not repeat).
    pub fn from_record(
        record: &[RequestRecord],
        incident: &IncidentPlan,
        arrivals: &Arrivals,
    ) -> Self {
        Self::at(record, u64::MAX, incident, arrivals)
    }

    /// The stats as they stood at simulated time `t_us`, derived from a finished run's
    /// record: what the live counters showed once every event up to and including `t_us`
    /// was handled (`Simulation::run_until(t_us)` then `stats()`).
    ///
    /// A request counts once sent; a refusal when sent, an admission's answer (and its
    /// money) when the provider finishes it; a customer's charge ends when the client
    /// has its last request's answer or timeout, and its wait is counted then.
    pub fn at(
        record: &[RequestRecord],
        t_us: u64,
        incident: &IncidentPlan,
        arrivals: &Arrivals,
    ) -> Self {
        let mut s = Stats::default();
        let mut flow = Flow::default();
        let mut meter = IncidentMeter::new(*incident);
        // Paired with a 0 only to be sorted as `(u64, i32)`, as the moments and the
        // timeline sort theirs: the core keeps one sort routine for all three, not a
        // second one for plain `u64`s.
        let mut charged_at_us: Vec<(u64, i32)> = Vec::new();
        let mut last_finish_us = 0;
        let mut waits = Waits::default();
        let (mut concurrency_sum, mut concurrency_sends) = (0, 0);
        // Per customer (index `customer − 1`): charges so far, when the client first
        // received a 400, and its last request.
        let n = record
            .iter()
            .map(|r| r.customer as usize)
            .max()
            .unwrap_or(0);
        let mut charges_by_customer = vec![0u64; n];
        let mut declined_at_us: Vec<Option<u64>> = vec![None; n];
        let mut last: Vec<Option<&RequestRecord>> = vec![None; n];
        for r in record {
            let c = r.customer as usize - 1;
            last[c] = Some(r);
            if r.sent_at_us > t_us {
                continue;
            }
            s.requests += 1;
            meter.on_request(r.sent_at_us);
            if r.concurrency > 0 {
                s.concurrency_peak = s.concurrency_peak.max(r.concurrency);
                concurrency_sum += u64::from(r.concurrency);
                concurrency_sends += 1;
            }
            if r.client.at_us().is_some_and(|at| at <= t_us) {
                s.budget_exhausted += u64::from(r.budget_refused);
                s.breaker_opens += u64::from(r.opened_breaker);
            }
            if declined_at_us[c].is_some_and(|t| r.sent_at_us >= t) {
                s.retried_declined += 1;
            }
            if let ClientView::Answered {
                status: Status::Declined,
                at_us,
            } = r.client
            {
                declined_at_us[c].get_or_insert(at_us);
            }
            s.client_max_outstanding = s.client_max_outstanding.max(r.outstanding);
            let done = r.done_at_us <= t_us;
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
                    s.replayed +=
                        u64::from(done && matches!(work, Work::Replay(_) | Work::Stale(_)));
                }
            }
            if !done {
                continue;
            }
            if matches!(
                r.admission,
                Admission::Admitted {
                    work: Work::Down,
                    ..
                }
            ) {
                s.overloaded += 1;
            }
            match r.status {
                Some(Status::Declined) => s.declined += 1,
                Some(Status::ServerError) => s.server_errors += 1,
                Some(Status::InProgress) => s.in_progress_conflicts += 1,
                Some(Status::KeyReused) => s.key_reused += 1,
                _ => {}
            }
            if r.charged {
                charged_at_us.push((r.done_at_us, 0));
                s.charges += 1;
                charges_by_customer[c] += 1;
            }
        }
        s.customers_charged = charges_by_customer.iter().filter(|&&n| n > 0).count() as u64;
        s.duplicates = s.charges - s.customers_charged;
        for r in last.into_iter().flatten() {
            let Some(finished_us) = r.client.at_us().filter(|&at| at <= t_us) else {
                continue;
            };
            last_finish_us = last_finish_us.max(finished_us);
            waits.add(arrivals.at_us(r.customer), finished_us);
            let charged = matches!(
                r.client,
                ClientView::Answered {
                    status: Status::Ok,
                    ..
                }
            );
            flow.end(finished_us, charged);
            s.elapsed_ms = s.elapsed_ms.max(whole_ms(finished_us));
            let final_answer =
                matches!(r.client, ClientView::Answered { status, .. } if status.is_final());
            s.gave_up += u64::from(!final_answer);
            s.gave_up_charged += u64::from(!final_answer && charges_by_customer[c_of(r)] > 0);
            s.lost_to_reused_key += u64::from(
                charged
                    && matches!(
                        r.admission,
                        Admission::Admitted {
                            work: Work::Stale(_),
                            ..
                        }
                    ),
            );
        }
        s.concurrency_mean = mean(concurrency_sum, concurrency_sends);
        s = s.with_waits(&waits);
        charged_at_us.sort_unstable();
        for (at_us, _) in charged_at_us {
            meter.on_charge(at_us);
        }
        for customer in 1..=arrivals.customers() {
            let at_us = arrivals.at_us(customer);
            if at_us <= t_us {
                flow.arrive(at_us, 1);
            }
        }
        for r in record.iter().take_while(|r| r.sent_at_us <= t_us) {
            flow.send(r.sent_at_us);
        }
        s.with_derived(&meter, last_finish_us)
            .with_flow(&flow, incident)
    }
}

/// A record's customer as an index (`customer − 1`).
fn c_of(r: &RequestRecord) -> usize {
    r.customer as usize - 1
}

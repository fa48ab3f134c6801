//! What happened to every request: the single source of truth of a run.
//!
//! The live counters in [`crate::stats`] are a fast path; [`Stats::from_record`]
//! derives the same numbers from this record alone, and the tests hold the two equal.
//!
//! [`Stats::from_record`]: crate::stats::Stats::from_record

use super::provider::{IdempotencyKey, Status, Work};
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

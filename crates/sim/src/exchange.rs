//! The provider's side of a run: each request taken in at the instant a client sends it,
//! its answer due at once (a refusal) or when its processing completes, and the record
//! of what happened to it on both sides.
//!
//! Two runners drive it: the simulation ([`crate::Simulation`]), whose client is one of
//! the lab's strategies, and a run whose client is not the lab's ([`crate::foreign`]): a
//! reader's own code, stepping on the same simulated clock. Both ask the exchange in the
//! same way, so the same requests at the same instants meet the same provider, the same
//! dice and the same record, whoever sent them.

use super::incident::IncidentMeter;
use super::provider::{Arrival, ChargeRequest, Completion, Provider, Status, Work};
use super::record::{Admission, ClientView, RequestRecord};
use super::rng::KeyedDraws;

/// One request as the client sends it, with what the record notes of the client then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sending {
    /// The request itself.
    pub charge: ChargeRequest,
    /// Which attempt of the customer's charge, from 1.
    pub attempt: u32,
    /// Requests the client awaits right after sending this one, this one included.
    pub outstanding: u32,
    /// The adaptive client's concurrency limit at the send (0 for any other client).
    pub concurrency: u32,
}

/// When a sent request's answer is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// Refused on arrival: the answer is due now.
    Now(Status),
    /// Admitted: its processing completes at `done_at_us`, with `work`.
    At {
        /// When it completes.
        done_at_us: u64,
        /// What completion does.
        work: Work,
    },
}

/// The provider, its dice and its incident's meter, and the record of every request.
pub struct Exchange {
    provider: Provider,
    dice: KeyedDraws,
    meter: IncidentMeter,
    requests_sent: u32,
    record: Option<Vec<RequestRecord>>,
}

impl Exchange {
    /// An exchange in front of `provider`, drawing from `dice`, keeping a record if
    /// `record`.
    pub fn new(provider: Provider, dice: KeyedDraws, record: bool) -> Self {
        Self {
            meter: IncidentMeter::new(provider.config().incident),
            provider,
            dice,
            requests_sent: 0,
            record: record.then(Vec::new),
        }
    }

    /// The provider.
    pub fn provider(&self) -> &Provider {
        &self.provider
    }

    /// The provider, to ask for a refusal's headers.
    pub fn provider_mut(&mut self) -> &mut Provider {
        &mut self.provider
    }

    /// The run's dice.
    pub fn dice(&self) -> &KeyedDraws {
        &self.dice
    }

    /// What the run did around its incident.
    pub fn meter(&self) -> &IncidentMeter {
        &self.meter
    }

    /// Requests sent so far.
    pub fn requests_sent(&self) -> u32 {
        self.requests_sent
    }

    /// Every request so far, if a record is kept.
    pub fn record(&self) -> Option<&[RequestRecord]> {
        self.record.as_deref()
    }

    /// One request of the record, to note the client's decisions on it.
    pub fn record_mut(&mut self, request: u32) -> Option<&mut RequestRecord> {
        self.record.as_mut().map(|r| &mut r[request as usize])
    }

    /// The client sends `s` at `now_us`: the provider takes it in, the record notes it.
    /// Returns the request's number and when its answer is due.
    pub fn send(&mut self, now_us: u64, s: Sending) -> (u32, Due) {
        let request = self.requests_sent;
        self.requests_sent += 1;
        let arrival = self.provider.arrive(now_us, s.charge, &self.dice);
        self.meter.on_request(now_us);
        let (admission, done_at_us, due) = match arrival {
            Arrival::Refused(status) => (Admission::Refused(status), now_us, Due::Now(status)),
            Arrival::Admitted {
                work,
                done_at_us,
                slow,
            } => (
                Admission::Admitted {
                    work,
                    slow,
                    inflight: self.provider.inflight(),
                },
                done_at_us,
                Due::At { done_at_us, work },
            ),
        };
        if let Some(record) = self.record.as_mut() {
            record.push(RequestRecord {
                request,
                customer: s.charge.customer,
                attempt: s.attempt,
                key: s.charge.key,
                sent_at_us: now_us,
                outstanding: s.outstanding,
                admission,
                done_at_us,
                status: match admission {
                    Admission::Refused(status) => Some(status),
                    Admission::Admitted { .. } => None,
                },
                charged: false,
                client: ClientView::Waiting,
                concurrency: s.concurrency,
                budget_refused: false,
                opened_breaker: false,
            });
        }
        (request, due)
    }

    /// Request `request` (sent as `charge`) completes its `work` at `now_us`, its due
    /// time: money moves or not, and it is answered.
    pub fn complete(
        &mut self,
        now_us: u64,
        request: u32,
        charge: ChargeRequest,
        work: Work,
    ) -> Completion {
        let done = self.provider.complete(charge, work);
        if done.charged {
            self.meter.on_charge(now_us);
        }
        if let Some(r) = self.record_mut(request) {
            debug_assert_eq!(r.done_at_us, now_us, "a request completes when it is due");
            r.status = Some(done.status);
            r.charged = done.charged;
        }
        done
    }

    /// The client received `request`'s answer, `status`, at `now_us`.
    pub fn answered(&mut self, request: u32, status: Status, now_us: u64) {
        if let Some(r) = self.record_mut(request) {
            r.client = ClientView::Answered {
                status,
                at_us: now_us,
            };
        }
    }

    /// The client stopped waiting for `request` at `now_us`.
    pub fn timed_out(&mut self, request: u32, now_us: u64) {
        if let Some(r) = self.record_mut(request) {
            r.client = ClientView::TimedOut { at_us: now_us };
        }
    }
}

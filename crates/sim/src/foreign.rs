//! A run whose client is not one of the lab's: a reader's own code, stepping on the
//! simulated clock, sends each request and is told each answer, while the run answers as
//! the simulation's provider does ([`Exchange`]), with the same scenario, dice and record.
//!
//! The runner that drives it keeps the clock: it asks for each customer's arrival, calls
//! [`ForeignRun::send`] at the instant the client sends (an answer due at once for a
//! refusal, or at a completion time for an admitted request), [`ForeignRun::complete`]
//! at that time, and says when the client received an answer, stopped waiting for one,
//! or was done with a customer. Every call takes the time it happens at, never earlier
//! than the last.
//!
//! Whatever the client does, the run stays bounded: at most [`MAX_REQUESTS_PER_CUSTOMER`]
//! requests per customer, and key texts of at most [`MAX_KEY_BYTES`]; past either, the
//! call is refused with a [`ForeignError`] and the runner stops the client.

use super::exchange::{Due, Exchange, Sending};
use super::next_month::{self, ChargeRound};
use super::param::ScenarioError;
use super::provider::{
    BodyPrint, ChargeRequest, Completion, IdempotencyKey, Provider, Status, Work,
};
use super::record::{ClientView, RequestRecord};
use super::rng::KeyedDraws;
use super::scenario::Scenario;
use super::stats::Stats;
use super::traffic::Arrivals;
use super::world::{ClientEnd, Fate};
use std::collections::BTreeMap;
use std::num::NonZeroU32;

/// The most requests a foreign client may send per customer of the run.
pub const MAX_REQUESTS_PER_CUSTOMER: u32 = 100;
/// The longest idempotency key text taken, in bytes (as `ratelab serve` takes them).
pub const MAX_KEY_BYTES: usize = 255;

/// Why a foreign client's call cannot be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForeignError {
    /// A call at an instant before the run's clock.
    TimeWentBack {
        /// The run's clock.
        now_us: u64,
        /// The instant given.
        at_us: u64,
    },
    /// A customer id outside `1..=customers`.
    NoSuchCustomer {
        /// The id given.
        customer: u64,
        /// The run's customers.
        customers: u32,
    },
    /// More requests than [`MAX_REQUESTS_PER_CUSTOMER`] per customer.
    TooManyRequests {
        /// The cap.
        max: u64,
    },
    /// A key text longer than [`MAX_KEY_BYTES`], or empty.
    BadKey {
        /// Its length in bytes.
        bytes: usize,
    },
    /// A request number that was never sent, or completed twice, or at another time
    /// than its due one.
    NotDue {
        /// The request.
        request: u32,
    },
}

crate::error_display!(ForeignError, "foreign client's call refused");

/// Why a run's calls cannot be replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The scenario cannot run.
    Scenario(ScenarioError),
    /// A send names a key number with no text.
    NoSuchKey {
        /// The call's place, from 0.
        at: usize,
        /// The key's number.
        key: u32,
    },
    /// A call the run refuses.
    Refused {
        /// The call's place, from 0.
        at: usize,
        /// Why.
        error: ForeignError,
    },
}

crate::error_display!(ReplayError, "a foreign run's calls could not be replayed");

/// Why one call cannot be taken ([`ForeignRun::apply`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApplyError {
    /// A send names a key number with no text.
    NoSuchKey(u32),
    /// The run refuses the call.
    Refused(ForeignError),
}

crate::error_display!(ApplyError, "a foreign run's call could not be taken");

/// One call a foreign client's runner made, in order. A run is its scenario and its
/// calls: [`ForeignRun::replay`] makes the same run again from them, wherever they were
/// made (the sandbox's worker) and wherever they are replayed (the page that shows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// [`ForeignRun::send`]: the key by its number (the order its text was first sent,
    /// from 1), if any.
    Send {
        /// When.
        at_us: u64,
        /// The customer.
        customer: u32,
        /// The key's number.
        key: Option<u32>,
        /// The body's fingerprint.
        print: BodyPrint,
    },
    /// [`ForeignRun::complete`].
    Complete {
        /// When.
        at_us: u64,
        /// The request.
        request: u32,
    },
    /// [`ForeignRun::delivered`].
    Delivered {
        /// When.
        at_us: u64,
        /// The request.
        request: u32,
        /// The answer.
        status: Status,
    },
    /// [`ForeignRun::abandoned`].
    Abandoned {
        /// When.
        at_us: u64,
        /// The request.
        request: u32,
    },
    /// [`ForeignRun::settled`].
    Settled {
        /// When.
        at_us: u64,
        /// The customer.
        customer: u32,
    },
}

/// A request sent and not yet completed: what completion needs.
#[derive(Clone, Copy, Debug)]
struct Pending {
    charge: ChargeRequest,
    work: Work,
    done_at_us: u64,
}

/// The run: the scenario, the exchange in front of its provider, and what the client
/// has done so far.
pub struct ForeignRun {
    scenario: Scenario,
    exchange: Exchange,
    arrivals: Arrivals,
    now_us: u64,
    pending: BTreeMap<u32, Pending>,
    /// Key texts, numbered in the order first sent.
    keys: BTreeMap<String, IdempotencyKey>,
    /// Each request's attempt number for its customer (index `customer − 1`).
    sent_per_customer: Vec<u32>,
    /// When the client was done with each customer, if it was.
    settled_us: Vec<Option<u64>>,
    /// Requests the client awaits now: sent, neither answered to it nor given up on.
    waiting: u32,
    /// Every call taken, in order.
    ops: Vec<Op>,
}

impl ForeignRun {
    /// A run of `scenario` for a foreign client. Its strategy and client parameters are
    /// not used: the client is the foreign code. Next month's round carries last month's
    /// keys as the simulation does, from the scenario's own strategy's run.
    pub fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        let mut run = Self::start(scenario)?;
        if scenario.round == ChargeRound::NextMonth {
            let mut last = scenario.clone();
            last.round = ChargeRound::First;
            last.record = false;
            let mut month = crate::Simulation::new(&last)?;
            month.run_to_end();
            run.exchange
                .provider_mut()
                .carry_keys(month.provider(), next_month::MONTH_US);
        }
        Ok(run)
    }

    /// [`ForeignRun::new`] for this month's charges only, for a runner that has refused
    /// next month's already: the same run, built without last month's simulation, so a
    /// runner that only ever calls this needs none of it.
    ///
    /// # Panics
    ///
    /// For next month's scenario, whose keys come from last month's run.
    pub fn this_month(scenario: &Scenario) -> Result<Self, ScenarioError> {
        assert!(
            scenario.round == ChargeRound::First,
            "next month's run needs last month's keys: ForeignRun::new"
        );
        Self::start(scenario)
    }

    /// A run with a fresh provider.
    fn start(scenario: &Scenario) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let customers = scenario.customers;
        let provider = Provider::new(scenario.provider.clone(), customers);
        Ok(Self {
            exchange: Exchange::new(provider, KeyedDraws::from_seed(scenario.seed), true),
            arrivals: Arrivals::new(&scenario.traffic, customers, scenario.seed),
            now_us: 0,
            pending: BTreeMap::new(),
            keys: BTreeMap::new(),
            sent_per_customer: vec![0; customers as usize],
            settled_us: vec![None; customers as usize],
            waiting: 0,
            ops: Vec::new(),
            scenario: scenario.clone(),
        })
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// When each customer arrives.
    pub fn arrivals(&self) -> &Arrivals {
        &self.arrivals
    }

    /// The run's clock: the instant of the last call.
    pub fn now_us(&self) -> u64 {
        self.now_us
    }

    /// The provider.
    pub fn provider(&self) -> &Provider {
        self.exchange.provider()
    }

    /// The client's `n`-th random number (from 0), from the run's dice: the stream the
    /// lab's own strategies draw their jitter from.
    pub fn client_random(&self, n: u32) -> f64 {
        self.exchange.dice().client_random(n)
    }

    fn tick(&mut self, at_us: u64) -> Result<(), ForeignError> {
        if at_us < self.now_us {
            return Err(ForeignError::TimeWentBack {
                now_us: self.now_us,
                at_us,
            });
        }
        self.now_us = at_us;
        Ok(())
    }

    /// The number of key text `text`, numbering it if it is new.
    fn key(&mut self, text: &str) -> Result<IdempotencyKey, ForeignError> {
        if text.is_empty() || text.len() > MAX_KEY_BYTES {
            return Err(ForeignError::BadKey { bytes: text.len() });
        }
        if let Some(&key) = self.keys.get(text) {
            return Ok(key);
        }
        let n = u32::try_from(self.keys.len() + 1).unwrap_or(IdempotencyKey::MAX_NUMBER);
        let key = IdempotencyKey::numbered(
            NonZeroU32::new(n.min(IdempotencyKey::MAX_NUMBER)).unwrap_or(NonZeroU32::MIN),
        );
        self.keys.insert(text.to_string(), key);
        Ok(key)
    }

    /// The key text of a key this run numbered.
    pub fn key_text(&self, key: IdempotencyKey) -> Option<&str> {
        self.keys
            .iter()
            .find(|(_, &k)| k == key)
            .map(|(text, _)| text.as_str())
    }

    /// The client sends a charge for `customer` at `at_us`, with the key text `key` (if
    /// any) and a body of fingerprint `print`. Returns the request's number and when its
    /// answer is due.
    pub fn send(
        &mut self,
        at_us: u64,
        customer: u64,
        key: Option<&str>,
        print: BodyPrint,
    ) -> Result<(u32, Due), ForeignError> {
        let customers = self.scenario.customers;
        let id = u32::try_from(customer)
            .ok()
            .filter(|c| (1..=customers).contains(c))
            .ok_or(ForeignError::NoSuchCustomer {
                customer,
                customers,
            })?;
        let max = u64::from(customers) * u64::from(MAX_REQUESTS_PER_CUSTOMER);
        if u64::from(self.exchange.requests_sent()) >= max {
            return Err(ForeignError::TooManyRequests { max });
        }
        self.tick(at_us)?;
        let key = key.map(|k| self.key(k)).transpose()?;
        let attempt = &mut self.sent_per_customer[id as usize - 1];
        *attempt += 1;
        let charge = ChargeRequest {
            customer: id,
            key,
            print,
        };
        let attempt = *attempt;
        self.waiting += 1;
        self.ops.push(Op::Send {
            at_us,
            customer: id,
            key: key.map(|k| k.number()),
            print,
        });
        let (request, due) = self.exchange.send(
            at_us,
            Sending {
                charge,
                attempt,
                outstanding: self.waiting,
                concurrency: 0,
            },
        );
        if let Due::At { done_at_us, work } = due {
            self.pending.insert(
                request,
                Pending {
                    charge,
                    work,
                    done_at_us,
                },
            );
        }
        Ok((request, due))
    }

    /// Request `request` completes at `at_us`, its due time: returns its answer, and
    /// whether money moved.
    pub fn complete(&mut self, at_us: u64, request: u32) -> Result<Completion, ForeignError> {
        let p = match self.pending.get(&request) {
            Some(p) if p.done_at_us == at_us => *p,
            _ => return Err(ForeignError::NotDue { request }),
        };
        self.tick(at_us)?;
        self.pending.remove(&request);
        self.ops.push(Op::Complete { at_us, request });
        Ok(self.exchange.complete(at_us, request, p.charge, p.work))
    }

    /// The headers of a 429 or a 503 answered at `at_us` (none for any other answer).
    pub fn refusal_headers(&mut self, at_us: u64, status: Status) -> Vec<(&'static str, String)> {
        match status {
            Status::TooManyRequests | Status::Overloaded => {
                self.exchange.provider_mut().refusal_headers(at_us, status)
            }
            _ => Vec::new(),
        }
    }

    /// The client received `request`'s answer, `status`, at `at_us`.
    pub fn delivered(
        &mut self,
        at_us: u64,
        request: u32,
        status: Status,
    ) -> Result<(), ForeignError> {
        self.stop_waiting(at_us, request)?;
        self.ops.push(Op::Delivered {
            at_us,
            request,
            status,
        });
        self.exchange.answered(request, status, at_us);
        Ok(())
    }

    /// The client stopped waiting for `request` at `at_us`.
    pub fn abandoned(&mut self, at_us: u64, request: u32) -> Result<(), ForeignError> {
        self.stop_waiting(at_us, request)?;
        self.ops.push(Op::Abandoned { at_us, request });
        self.exchange.timed_out(request, at_us);
        Ok(())
    }

    /// `request` is no longer awaited from `at_us`: it must be one the client awaits.
    fn stop_waiting(&mut self, at_us: u64, request: u32) -> Result<(), ForeignError> {
        let waiting = self
            .record()
            .get(request as usize)
            .is_some_and(|r| r.client == ClientView::Waiting);
        if !waiting {
            return Err(ForeignError::NotDue { request });
        }
        self.tick(at_us)?;
        self.waiting -= 1;
        Ok(())
    }

    /// The client was done with `customer` at `at_us`.
    pub fn settled(&mut self, at_us: u64, customer: u32) -> Result<(), ForeignError> {
        let customers = self.scenario.customers;
        let slot = self
            .settled_us
            .get_mut((customer as usize).wrapping_sub(1))
            .ok_or(ForeignError::NoSuchCustomer {
                customer: customer.into(),
                customers,
            })?;
        if at_us < self.now_us {
            return Err(ForeignError::TimeWentBack {
                now_us: self.now_us,
                at_us,
            });
        }
        if slot.is_none() {
            *slot = Some(at_us);
            self.ops.push(Op::Settled { at_us, customer });
        }
        self.now_us = at_us;
        Ok(())
    }

    /// Every call taken so far, in order.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// The key texts sent, by number (index `number − 1`).
    pub fn key_texts(&self) -> Vec<&str> {
        let mut texts = vec![""; self.keys.len()];
        for (text, key) in &self.keys {
            texts[key.number() as usize - 1] = text.as_str();
        }
        texts
    }

    /// Takes one call of another run's, `op`, whose key texts are `keys` (by number,
    /// from 1): what [`ForeignRun::replay`] does for each call, for a runner that replays
    /// a long run a slice at a time.
    pub fn apply(&mut self, op: &Op, keys: &[String]) -> Result<(), ApplyError> {
        match *op {
            Op::Send {
                at_us,
                customer,
                key,
                print,
            } => {
                let text = match key {
                    None => None,
                    Some(n) => Some(
                        keys.get((n as usize).wrapping_sub(1))
                            .ok_or(ApplyError::NoSuchKey(n))?
                            .as_str(),
                    ),
                };
                self.send(at_us, customer.into(), text, print).map(|_| ())
            }
            Op::Complete { at_us, request } => self.complete(at_us, request).map(|_| ()),
            Op::Delivered {
                at_us,
                request,
                status,
            } => self.delivered(at_us, request, status),
            Op::Abandoned { at_us, request } => self.abandoned(at_us, request),
            Op::Settled { at_us, customer } => self.settled(at_us, customer),
        }
        .map_err(ApplyError::Refused)
    }

    /// The run of `scenario` that `ops` make, with the key texts `keys` (by number, from
    /// 1): the same run, call for call, or the first call it cannot take.
    pub fn replay(scenario: &Scenario, ops: &[Op], keys: &[String]) -> Result<Self, ReplayError> {
        let mut run = Self::new(scenario).map_err(ReplayError::Scenario)?;
        for (at, op) in ops.iter().enumerate() {
            run.apply(op, keys).map_err(|e| match e {
                ApplyError::NoSuchKey(key) => ReplayError::NoSuchKey { at, key },
                ApplyError::Refused(error) => ReplayError::Refused { at, error },
            })?;
        }
        Ok(run)
    }

    /// True once the provider has no request left to complete.
    pub fn is_idle(&self) -> bool {
        self.pending.is_empty()
    }

    /// Every request so far.
    pub fn record(&self) -> &[RequestRecord] {
        self.exchange.record().unwrap_or_default()
    }

    /// The stats so far, from the record.
    pub fn stats(&self) -> Stats {
        Stats::at(
            self.record(),
            u64::MAX,
            &self.scenario.provider.incident,
            &self.arrivals,
        )
    }

    /// Every customer's fate so far (index `customer − 1`): a customer the client has not
    /// settled is not done yet, whatever its requests heard.
    pub fn fates(&self) -> Vec<Fate> {
        let mut last: Vec<Option<&RequestRecord>> = vec![None; self.settled_us.len()];
        for r in self.record() {
            last[r.customer as usize - 1] = Some(r);
        }
        (1..=self.scenario.customers)
            .map(|c| {
                let i = c as usize - 1;
                let end = match (self.settled_us[i], last[i].map(|r| r.client)) {
                    (None, _) => ClientEnd::NotYet,
                    (Some(_), Some(ClientView::Answered { status, .. })) if status.is_final() => {
                        ClientEnd::Final(status)
                    }
                    (Some(_), _) => ClientEnd::GaveUp,
                };
                Fate::of(self.exchange.provider().charges_of(c), end)
            })
            .collect()
    }
}

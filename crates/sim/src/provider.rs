//! The imperfect payment API.
//!
//! A request that arrives goes through the provider's rules in a fixed order: the rate
//! limit, the in-flight limit, the idempotency store, the card check, a random server
//! error, then the latency draw. Refusals (429, 503) are answered on arrival; everything
//! admitted is processed for a while, and the charge, if any, happens when processing
//! completes, whether or not the client is still waiting for the answer.
//!
//! The provider's dice are keyed by the customer and how many requests of that customer
//! it has seen ([`DrawKey`]), so a customer's n-th request meets the same luck whatever
//! the client did before it and whoever else was calling.
//!
//! [`Provider`] is the one implementation of these rules. It never reads a clock: every
//! call is given the time in microseconds. The simulation's event loop gives it simulated
//! time; `ratelab serve` gives it the microseconds elapsed since the server started, and
//! sleeps until `done_at_us` itself before calling [`Provider::complete`]. A server does
//! not know its customers in advance, so it asks [`Provider::know_customer`] first.

use super::headers::response_headers;
use super::incident::{
    DownAnswer, DownHint, Incident, IncidentPlan, CAPACITY_MAX_INFLIGHT, CAPACITY_RATE_LIMIT,
    ERRORS_ODDS, OVERLOADED_RETRY_US,
};
use super::limiter::{Decision, Policy, Scope, SlidingLog};
use super::rng::{Draw, DrawKey, KeyedDraws, Odds};
use super::stats::Stats;
use super::time::{ms, secs};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};
use std::fmt;
use std::num::NonZeroU32;

/// Every number the provider's behaviour depends on. The defaults are the article's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderConfig {
    /// Admitted requests processed at once; above this the answer is 503.
    pub max_inflight: u32,
    /// Requests admitted per rate window; above this the answer is 429.
    pub rate_limit: u32,
    /// Length of the sliding rate window.
    pub rate_window_us: u64,
    /// Chance that an admitted charge fails with 500 (nothing charged, key released).
    pub server_error: Odds,
    /// Chance that a charge is slow.
    pub slow: Odds,
    /// How long a slow charge takes.
    pub slow_latency_us: u64,
    /// Typical processing time of an admitted request.
    pub latency_us: u64,
    /// Processing time varies uniformly by up to this much either side of `latency_us`.
    pub latency_jitter_us: u64,
    /// Every customer whose id is a multiple of this has a declined card (0: none).
    pub decline_every: u32,
    /// A bad few seconds, if any (none by default).
    pub incident: IncidentPlan,
    /// Requests that may wait for a busy provider (0, the article's: none). With a queue,
    /// `max_inflight` is how many requests the provider works on at once, and a request
    /// that finds them all busy waits its turn in order (first come, first served), so its
    /// answer takes its wait plus its processing; only a request that finds the queue full
    /// is answered 503. A request the client has given up on keeps its place and is
    /// processed all the same.
    #[serde(default)]
    pub queue_limit: u32,
    /// Where a request's idempotency key is looked up: by the worker, after the request
    /// waited its turn (the article's), or at the door, on arrival.
    #[serde(default)]
    pub key_check: KeyCheck,
    /// With the key looked up by the worker: how long a 409 or a replayed answer takes
    /// it, varying by `latency_jitter_us` either side as a charge does (never below 0).
    /// The default is a charge's own `latency_us`, so either costs as much as a charge.
    #[serde(default = "default_key_work_us")]
    pub key_work_us: u64,
    /// How a provider that is down answers.
    #[serde(default)]
    pub down_answer: DownAnswer,
    /// What `Retry-After` says on a 503 while it is down.
    #[serde(default)]
    pub down_hint: DownHint,
    /// How long a key is kept from the instant its request was admitted (0, the
    /// article's: for as long as the provider runs). A key whose request is still being
    /// processed when its time is up is kept again for as long, as `ratelab serve` keeps
    /// it; an answered one is forgotten, and a later request with it is a new charge.
    #[serde(default)]
    pub key_ttl_us: u64,
}

/// The article's latency, which is also what a 409 or a replay costs a worker.
const DEFAULT_LATENCY_US: u64 = ms(15);

fn default_key_work_us() -> u64 {
    DEFAULT_LATENCY_US
}

crate::named_enum! {
    /// Where the provider looks up an idempotency key.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum KeyCheck as "key check" {
        /// The article's: a request waits for a worker (and its turn in any queue), and
        /// the worker looks the key up, so a 409 or a replayed answer takes a worker
        /// `key_work_us`, as a charge takes it `latency_us`.
        #[default]
        Worker = "worker",
        /// On arrival, after the rate rule and before the in-flight rule: a key in
        /// progress (409) or already answered (a replay) is answered at once, taking no
        /// worker, no place in the queue and no time, as an idempotency layer in front of
        /// the service does.
        Door = "door",
    }
}

impl Default for ProviderConfig {
    fn default() -> Self {
        Self {
            max_inflight: 10,
            rate_limit: 100,
            rate_window_us: secs(1),
            server_error: Odds::one_in(20),
            slow: Odds::one_in(33),
            slow_latency_us: ms(1_500),
            latency_us: DEFAULT_LATENCY_US,
            latency_jitter_us: ms(3),
            decline_every: 97,
            incident: IncidentPlan::default(),
            queue_limit: 0,
            key_check: KeyCheck::Worker,
            key_work_us: DEFAULT_LATENCY_US,
            down_answer: DownAnswer::Queued,
            down_hint: DownHint::Exact,
            key_ttl_us: 0,
        }
    }
}

impl ProviderConfig {
    /// True if this customer's card is always declined.
    pub fn is_declined(&self, customer: u32) -> bool {
        self.decline_every != 0 && customer.is_multiple_of(self.decline_every)
    }

    /// Customers in `1..=customers` whose cards can be charged.
    pub fn valid_customers(&self, customers: u32) -> u32 {
        match self.decline_every {
            0 => customers,
            n => customers - customers / n,
        }
    }
}

/// An HTTP status the provider answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Status {
    /// 200: charged (or the stored answer of a charge).
    Ok,
    /// 400: card declined. Final: sending it again changes nothing.
    Declined,
    /// 409: a request with this idempotency key is still being processed.
    InProgress,
    /// 422: this idempotency key was sent before with a different body. Final: the
    /// key names another operation, and sending it again changes nothing.
    KeyReused,
    /// 429: over the rate limit.
    TooManyRequests,
    /// 500: the provider failed; nothing was charged.
    ServerError,
    /// 503: too many requests in flight.
    Overloaded,
}

impl Status {
    /// All statuses, in code order.
    pub const ALL: [Status; 7] = [
        Status::Ok,
        Status::Declined,
        Status::InProgress,
        Status::KeyReused,
        Status::TooManyRequests,
        Status::ServerError,
        Status::Overloaded,
    ];

    /// The numeric HTTP code.
    pub fn code(self) -> u16 {
        match self {
            Status::Ok => 200,
            Status::Declined => 400,
            Status::InProgress => 409,
            Status::KeyReused => 422,
            Status::TooManyRequests => 429,
            Status::ServerError => 500,
            Status::Overloaded => 503,
        }
    }

    /// A final answer ends a charge; anything else is worth another attempt.
    pub fn is_final(self) -> bool {
        matches!(self, Status::Ok | Status::Declined | Status::KeyReused)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.code())
    }
}

/// An idempotency key. It names one charge operation, not a customer: charging the
/// same customer again next month needs a new key ([`IdempotencyKey::for_next_charge`]);
/// a client that sends the customer's own id as its key sends last month's key again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct IdempotencyKey(NonZeroU32);

/// The bit that marks a key of a customer's next charge, above every customer id
/// (`scenario.rs` holds its customers below [`IdempotencyKey::MAX_NUMBER`]).
const NEXT_CHARGE_BIT: u32 = 1 << 31;

impl IdempotencyKey {
    /// The key of the charge for `customer` (ids start at 1): also the key of a client
    /// that names its keys after the customer, whichever charge it sends.
    pub fn for_charge(customer: u32) -> Self {
        Self(NonZeroU32::new(customer).expect("customer ids start at 1"))
    }

    /// The key of `customer`'s next charge (next month's), new for that operation.
    pub fn for_next_charge(customer: u32) -> Self {
        assert!(customer < NEXT_CHARGE_BIT, "customer ids stay below 2^31");
        Self(NonZeroU32::new(customer | NEXT_CHARGE_BIT).expect("the bit is set"))
    }

    /// The largest number a key known only by its number may have: above it, numbers
    /// name next month's charges.
    pub const MAX_NUMBER: u32 = NEXT_CHARGE_BIT - 1;

    /// The key's number.
    pub fn number(self) -> u32 {
        self.0.get()
    }

    /// A key known only by a number, at most [`IdempotencyKey::MAX_NUMBER`]: a server
    /// numbers the key texts it is sent in the order it first sees them, since a caller
    /// may choose any text.
    pub fn numbered(n: NonZeroU32) -> Self {
        assert!(n.get() <= Self::MAX_NUMBER, "key numbers stay below 2^31");
        Self(n)
    }
}

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.get() {
            n if n & NEXT_CHARGE_BIT != 0 => write!(f, "ck-{}-next", n & !NEXT_CHARGE_BIT),
            n => write!(f, "ck-{n}"),
        }
    }
}

/// A fingerprint of a charge request's body, stored with its idempotency key: a key sent
/// again with another body names another operation, and is refused (422), as the IETF
/// idempotency-key draft asks (draft-ietf-httpapi-idempotency-key-header, section 2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BodyPrint(u32);

impl BodyPrint {
    /// The fingerprint of a charge of `amount_cents` (or of no stated amount) to
    /// `customer`: SplitMix64's mixer over the two, cut to 32 bits.
    pub fn of_charge(customer: u64, amount_cents: Option<u64>) -> Self {
        let amount = amount_cents.map_or(u64::MAX, |a| a.min(u64::MAX - 1));
        let mixed = super::rng::mix64(super::rng::mix64(customer) ^ amount);
        Self((mixed >> 32) as u32)
    }

    /// The fingerprint's 32 bits, to carry it elsewhere ([`BodyPrint::from_bits`]).
    pub fn bits(self) -> u32 {
        self.0
    }

    /// The fingerprint carried as [`BodyPrint::bits`].
    pub fn from_bits(bits: u32) -> Self {
        Self(bits)
    }
}

/// A charge request as the provider sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChargeRequest {
    /// The customer to charge.
    pub customer: u32,
    /// The idempotency key, if the client sends one.
    pub key: Option<IdempotencyKey>,
    /// Its body's fingerprint, stored with a new key and checked against a known one.
    pub print: BodyPrint,
}

/// What an admitted request will do when its processing completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Work {
    /// Move the money and answer 200.
    Charge,
    /// Answer 400: the card is declined.
    Decline,
    /// Answer 500: nothing charged, the key released.
    Fail,
    /// Answer 409: the key's first request is still being processed.
    Conflict,
    /// Answer the stored status of the key's finished request; charge nothing.
    Replay(Status),
    /// Answer the stored status of a request finished before this run began (last
    /// month's charge, under a key sent again); charge nothing.
    Stale(Status),
    /// Answer 422: the key was stored with another body.
    Mismatch,
    /// Answer 503: the provider is down (an incident); nothing charged, no key stored.
    Down,
}

impl Work {
    /// True if the work is answering from the idempotency store: a 409, a replay (of
    /// this run's answer or an earlier one) or a 422.
    pub fn is_key_answer(self) -> bool {
        matches!(
            self,
            Work::Conflict | Work::Replay(_) | Work::Stale(_) | Work::Mismatch
        )
    }
}

/// How the provider took in a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Refused on arrival, answered at once.
    Refused(Status),
    /// Admitted: processing completes at `done_at_us`.
    Admitted {
        /// What completion will do.
        work: Work,
        /// When processing completes.
        done_at_us: u64,
        /// True if this request drew the slow latency.
        slow: bool,
    },
}

/// The provider's answer when processing completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The HTTP status answered.
    pub status: Status,
    /// True if money moved.
    pub charged: bool,
}

/// What the idempotency store knows about a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KeyState {
    /// Its first admitted request is still being processed.
    InProgress,
    /// Its request finished with this final answer.
    Answered(Status),
    /// A request finished with this final answer before this run began.
    Earlier(Status),
}

/// One key in the idempotency store: what it knows, and the body it was stored with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KeyEntry {
    state: KeyState,
    print: BodyPrint,
}

impl KeyState {
    /// True if a key may go from this state to `next`: only forward, from in progress to
    /// answered. A key is dropped (expired, forgotten, or released by a failure) rather
    /// than moved back, and last month's keys come in before this month's first request.
    fn may_become(self, next: KeyState) -> bool {
        matches!((self, next), (KeyState::InProgress, KeyState::Answered(_)))
    }
}

impl KeyEntry {
    /// What a request with this entry's key and a body of fingerprint `print` gets.
    fn answer(self, print: BodyPrint) -> Work {
        if print != self.print {
            return Work::Mismatch;
        }
        match self.state {
            KeyState::InProgress => Work::Conflict,
            KeyState::Answered(status) => Work::Replay(status),
            KeyState::Earlier(status) => Work::Stale(status),
        }
    }
}

/// What the provider knows of one customer.
#[derive(Clone, Copy, Debug, Default)]
struct CustomerLedger {
    /// Requests that reached the provider: the next one's dice are keyed by this plus 1.
    requests: u32,
    /// Times money moved.
    charges: u32,
    /// The provider has answered 400 for this customer: any later request is a retry of
    /// a declined card.
    declined_answered: bool,
}

/// A customer id a provider cannot take: 0, or above the largest its caller allows (which
/// bounds what one request can make the ledger grow to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownCustomer {
    /// The id given.
    pub customer: u64,
}

/// Of `inflight` requests admitted and not yet answered by a provider with
/// `max_inflight` workers, how many are being processed and how many wait in its queue.
/// The queue hands each request to the worker free first, so no worker is idle while a
/// request waits: the first `max_inflight` are processed (without a queue, that is all).
pub fn split_inflight(inflight: u32, max_inflight: u32) -> (u32, u32) {
    let busy = inflight.min(max_inflight);
    (busy, inflight - busy)
}

/// The rate rule is global, so every request files under the same (ignored) key.
const RATE_KEY: &str = "";

/// The provider's state: its rate window, in-flight count, idempotency store and ledger.
pub struct Provider {
    config: ProviderConfig,
    /// The rate rule: the same sliding log the limits page demonstrates, one for everyone.
    rate: SlidingLog,
    inflight: u32,
    /// With a queue: when each of the `max_inflight` workers is next free, earliest
    /// first (empty without a queue: every admitted request starts at once).
    free_at_us: BinaryHeap<Reverse<u64>>,
    keys: BTreeMap<IdempotencyKey, KeyEntry>,
    /// With a key time to live: when each stored key expires, soonest first (the clock
    /// never steps back, so keys are stored in the order they expire). Empty without one.
    expiry: VecDeque<(u64, IdempotencyKey)>,
    /// Per customer id; index 0 is unused.
    ledger: Vec<CustomerLedger>,
    /// The provider's side of the run's stats; the client's fields stay 0 here.
    counters: Stats,
}

impl Provider {
    /// A provider that knows customers `1..=customers`.
    ///
    /// Panics if the rate limit or window is outside what a limiter accepts (see
    /// [`Policy::check`]); [`Scenario::validate`](super::scenario::Scenario::validate)
    /// keeps both inside it.
    pub fn new(config: ProviderConfig, customers: u32) -> Self {
        let policy = Policy {
            limit: config.rate_limit,
            window_us: config.rate_window_us,
        };
        Self {
            // The scenario's ranges keep the limit and the window inside the limiter's
            // own (a panic here is a bug, and no sentence is needed for it).
            rate: match SlidingLog::new(policy, Scope::Global) {
                Ok(log) => log,
                Err(_) => unreachable!("the scenario's rate limit is a valid policy"),
            },
            free_at_us: if config.queue_limit > 0 {
                (0..config.max_inflight).map(|_| Reverse(0)).collect()
            } else {
                BinaryHeap::new()
            },
            config,
            inflight: 0,
            keys: BTreeMap::new(),
            expiry: VecDeque::new(),
            ledger: vec![CustomerLedger::default(); customers as usize + 1],
            counters: Stats::default(),
        }
    }

    /// The configuration this provider runs with.
    pub fn config(&self) -> &ProviderConfig {
        &self.config
    }

    /// Counters so far.
    pub fn counters(&self) -> &Stats {
        &self.counters
    }

    /// Admitted requests being processed right now.
    pub fn inflight(&self) -> u32 {
        self.inflight
    }

    /// Requests counted in the rate window ending at `now_us`.
    pub fn window_count(&mut self, now_us: u64) -> u32 {
        self.rate.in_window(now_us, RATE_KEY)
    }

    /// How many times `customer` has been charged.
    pub fn charges_of(&self, customer: u32) -> u32 {
        self.ledger[customer as usize].charges
    }

    /// Makes room in the ledger for `customer` (ids `1..=max`, `max` the caller's bound on
    /// what one request can make the ledger grow to), for a caller
    /// that learns its customers as they arrive (the HTTP server). The simulation's
    /// provider knows all of them from the start and never needs this.
    pub fn know_customer(&mut self, customer: u64, max: u32) -> Result<u32, UnknownCustomer> {
        let id = u32::try_from(customer)
            .ok()
            .filter(|c| (1..=max).contains(c))
            .ok_or(UnknownCustomer { customer })?;
        if id as usize >= self.ledger.len() {
            self.ledger
                .resize(id as usize + 1, CustomerLedger::default());
        }
        Ok(id)
    }

    /// True if the idempotency store holds `key`, in progress or answered.
    pub fn holds_key(&self, key: IdempotencyKey) -> bool {
        self.keys.contains_key(&key)
    }

    /// Forgets an answered key, as a store that expires its keys does: a later request
    /// with it is a new charge. A key whose first request is still being processed is
    /// kept, and the answer is false. For a caller that keeps its own clock on keys (the
    /// HTTP server); a provider with a key time to live keeps its own.
    pub fn forget_key(&mut self, key: IdempotencyKey) -> bool {
        debug_assert_eq!(self.config.key_ttl_us, 0, "one clock on keys, not two");
        match self.keys.get(&key).map(|e| e.state) {
            Some(KeyState::InProgress) => false,
            Some(KeyState::Answered(_) | KeyState::Earlier(_)) => {
                self.keys.remove(&key);
                true
            }
            None => true,
        }
    }

    /// Takes in the answered keys `earlier` held at the end of its run, as if stored
    /// `age_us` before this run begins (last month's charges, for next month's run):
    /// sent again, each answers its stored status and charges nothing ([`Work::Stale`]),
    /// or 422 with another body. With a key time to live, keys already that old are
    /// forgotten, and the rest expire when their time is up.
    pub fn carry_keys(&mut self, earlier: &Provider, age_us: u64) {
        let ttl_us = self.config.key_ttl_us;
        if ttl_us != 0 && age_us >= ttl_us {
            return;
        }
        for (&key, entry) in &earlier.keys {
            let (KeyState::Answered(status) | KeyState::Earlier(status)) = entry.state else {
                continue;
            };
            let held = self.keys.insert(
                key,
                KeyEntry {
                    state: KeyState::Earlier(status),
                    print: entry.print,
                },
            );
            debug_assert!(
                held.is_none_or(|e| matches!(e.state, KeyState::Earlier(_))),
                "a key of this month's run taken back to last month's"
            );
            if ttl_us != 0 {
                self.expiry.push_back((ttl_us - age_us, key));
            }
        }
    }

    /// Forgets the keys whose time is up at `now_us`; one whose request is still being
    /// processed is kept for another time to live.
    fn expire_keys(&mut self, now_us: u64) {
        while let Some(&(at_us, key)) = self.expiry.front() {
            if at_us > now_us {
                break;
            }
            self.expiry.pop_front();
            match self.keys.get(&key).map(|e| e.state) {
                Some(KeyState::InProgress) => {
                    self.expiry
                        .push_back((now_us + self.config.key_ttl_us, key));
                }
                Some(_) => {
                    self.keys.remove(&key);
                }
                None => {}
            }
        }
    }

    /// Keys held by the idempotency store right now.
    pub fn keys_held(&self) -> usize {
        self.keys.len()
    }

    /// How many requests of `customer` have reached the provider, refused ones included.
    pub fn requests_of(&self, customer: u32) -> u32 {
        self.ledger[customer as usize].requests
    }

    /// A request arrives at `now_us`. Applies the rules in order and says how it was taken
    /// in. Its random draws come from `dice`, keyed by the customer's request count.
    pub fn arrive(&mut self, now_us: u64, request: ChargeRequest, dice: &KeyedDraws) -> Arrival {
        match self.take_in(now_us, request, dice) {
            Arrival::Admitted {
                work,
                done_at_us,
                slow,
            } if self.config.queue_limit > 0 && !self.answers_at_door(work) => {
                // The request waits for the worker that is free first, then takes its
                // processing time: first come, first served on `max_inflight` workers.
                let Some(Reverse(free_us)) = self.free_at_us.pop() else {
                    unreachable!("a queue keeps one entry per worker")
                };
                let done_at_us = free_us.max(now_us) + (done_at_us - now_us);
                self.free_at_us.push(Reverse(done_at_us));
                Arrival::Admitted {
                    work,
                    done_at_us,
                    slow,
                }
            }
            arrival => arrival,
        }
    }

    /// The rules of [`Provider::arrive`], with processing that starts at once.
    fn take_in(&mut self, now_us: u64, request: ChargeRequest, dice: &KeyedDraws) -> Arrival {
        assert!(
            (1..self.ledger.len()).contains(&(request.customer as usize)),
            "customer {} is not one of this provider's customers",
            request.customer
        );
        self.counters.requests += 1;
        let ledger = &mut self.ledger[request.customer as usize];
        ledger.requests += 1;
        let nth = ledger.requests;
        // The provider's own count; a run's stats take the client's (which counts what
        // it sent after it received a 400) instead.
        self.counters.retried_declined += u64::from(ledger.declined_answered);
        let dice_for = |draw| {
            dice.stream(DrawKey {
                customer: request.customer,
                nth,
                draw,
            })
        };

        let incident = self.config.incident.at(now_us);
        self.expire_keys(now_us);

        // 1. Rate: a request refused here does not count toward the window; one admitted
        // here counts even if the in-flight rule refuses it next. A shrunken provider
        // (capacity incident) refuses once its window holds its smaller limit.
        let shrunk = incident == Some(Incident::Capacity)
            && self.rate.in_window(now_us, RATE_KEY) >= CAPACITY_RATE_LIMIT;
        if shrunk || !self.rate.admit_one(now_us, RATE_KEY) {
            self.counters.rate_limited += 1;
            return Arrival::Refused(Status::TooManyRequests);
        }

        // 1½. At the door, if the provider looks keys up there: a key it holds is
        // answered at once, with no worker and no wait.
        if let (KeyCheck::Door, Some(key)) = (self.config.key_check, request.key) {
            if let Some(entry) = self.keys.get(&key) {
                return Arrival::Admitted {
                    work: entry.answer(request.print),
                    done_at_us: now_us,
                    slow: false,
                };
            }
        }
        // A provider that is down and fails fast refuses at the door too.
        if incident == Some(Incident::Down) && self.config.down_answer == DownAnswer::Fast {
            self.counters.overloaded += 1;
            return Arrival::Refused(Status::Overloaded);
        }

        // 2. In flight (with a queue: being processed or waiting for it).
        if self.inflight >= self.max_inflight_at(now_us) + self.config.queue_limit {
            self.counters.overloaded += 1;
            return Arrival::Refused(Status::Overloaded);
        }
        self.inflight += 1;
        self.counters.max_inflight = self.counters.max_inflight.max(self.inflight);
        assert!(self.inflight <= self.config.max_inflight + self.config.queue_limit);
        debug_assert!(
            self.inflight <= self.max_inflight_at(now_us) + self.config.queue_limit,
            "admitted above the in-flight limit in force"
        );

        let c = &self.config;
        let normal_us = dice_for(Draw::Latency).between(
            c.latency_us.saturating_sub(c.latency_jitter_us),
            c.latency_us + c.latency_jitter_us,
        );
        let admitted = |work| Arrival::Admitted {
            work,
            done_at_us: now_us + normal_us,
            slow: false,
        };

        // A provider that is down answers 503 after the usual latency, before it looks
        // at the key or the card.
        if incident == Some(Incident::Down) {
            return admitted(Work::Down);
        }

        // 3. Idempotency key (a key the door answers never gets here). Looking it up
        // takes the worker `key_work_us`, drawn as a charge's latency is: with the
        // defaults, the very same draw.
        if let Some(key) = request.key {
            let looked_up = |work| Arrival::Admitted {
                work,
                done_at_us: now_us
                    + dice_for(Draw::Latency).between(
                        c.key_work_us.saturating_sub(c.latency_jitter_us),
                        c.key_work_us + c.latency_jitter_us,
                    ),
                slow: false,
            };
            match self.keys.entry(key) {
                Entry::Occupied(e) => return looked_up(e.get().answer(request.print)),
                Entry::Vacant(e) => {
                    e.insert(KeyEntry {
                        state: KeyState::InProgress,
                        print: request.print,
                    });
                    if c.key_ttl_us != 0 {
                        self.expiry.push_back((now_us + c.key_ttl_us, key));
                    }
                }
            }
        }

        // 4. Declined card.
        if c.is_declined(request.customer) {
            return admitted(Work::Decline);
        }

        // 5. Server error.
        // The usual draw comes first, so the incident's own draw never shifts it.
        if dice_for(Draw::ServerError).chance(c.server_error)
            || (incident == Some(Incident::Errors)
                && dice_for(Draw::IncidentError).chance(ERRORS_ODDS))
        {
            return admitted(Work::Fail);
        }

        // 6. Latency: the charge itself, sometimes slow (always, in a `slow` incident).
        if incident == Some(Incident::Slow) || dice_for(Draw::Slow).chance(c.slow) {
            self.counters.slow += 1;
            return Arrival::Admitted {
                work: Work::Charge,
                done_at_us: now_us + c.slow_latency_us,
                slow: true,
            };
        }
        admitted(Work::Charge)
    }

    /// True if `work` was answered at the door ([`KeyCheck::Door`]): it took no worker,
    /// no place in the queue and no place in flight.
    fn answers_at_door(&self, work: Work) -> bool {
        self.config.key_check == KeyCheck::Door && work.is_key_answer()
    }

    /// The in-flight limit in force at `now_us` (smaller during a capacity incident).
    pub fn max_inflight_at(&self, now_us: u64) -> u32 {
        match self.config.incident.at(now_us) {
            Some(Incident::Capacity) => CAPACITY_MAX_INFLIGHT.min(self.config.max_inflight),
            _ => self.config.max_inflight,
        }
    }

    /// The rate limit in force at `now_us` (smaller during a capacity incident).
    pub fn rate_limit_at(&self, now_us: u64) -> u32 {
        match self.config.incident.at(now_us) {
            Some(Incident::Capacity) => CAPACITY_RATE_LIMIT.min(self.config.rate_limit),
            _ => self.config.rate_limit,
        }
    }

    /// The headers of a 429 or a 503 answered at `now_us`, written by the project's one
    /// header writer ([`response_headers`]): the RateLimit fields of the rate window as it
    /// stands, and a `Retry-After`. For a 429 it is the time until the window has room;
    /// for a 503 of a provider that is down, the time to the incident's end; for any
    /// other 503, [`OVERLOADED_RETRY_US`]. Only a client that reads headers asks for
    /// them, so a run whose client ignores them does no work for them.
    pub fn refusal_headers(&mut self, now_us: u64, status: Status) -> Vec<(&'static str, String)> {
        let policy = Policy {
            limit: self.rate_limit_at(now_us),
            window_us: self.config.rate_window_us,
        };
        let window = self.rate.standing(now_us, RATE_KEY, policy.limit);
        let retry_after_us = match (status, self.config.incident.at(now_us)) {
            (Status::TooManyRequests, _) => window.retry_after_us.max(1),
            (_, Some(Incident::Down)) => self
                .config
                .down_hint
                .retry_after_us(&self.config.incident, now_us),
            _ => OVERLOADED_RETRY_US,
        };
        let decision = Decision {
            allowed: false,
            retry_after_us,
            ..window
        };
        response_headers(policy, &decision)
    }

    /// Processing of an admitted request completes: money moves (or not) and it is answered.
    pub fn complete(&mut self, request: ChargeRequest, work: Work) -> Completion {
        if !self.answers_at_door(work) {
            assert!(
                self.inflight > 0,
                "a completion without a request in flight"
            );
            self.inflight -= 1;
        }
        let (status, charged) = match work {
            Work::Charge => {
                assert!(
                    !self.config.is_declined(request.customer),
                    "a declined card must never be charged"
                );
                let n = &mut self.ledger[request.customer as usize].charges;
                *n += 1;
                self.counters.charges += 1;
                if *n == 1 {
                    self.counters.customers_charged += 1;
                } else {
                    self.counters.duplicates += 1;
                }
                // The ledger: every charge is a customer's first or a duplicate, and no
                // more customers are charged than there are cards that can be.
                debug_assert_eq!(
                    self.counters.customers_charged + self.counters.duplicates,
                    self.counters.charges,
                    "charges that are neither a first nor a duplicate"
                );
                debug_assert!(
                    self.counters.customers_charged
                        <= u64::from(self.config.valid_customers(self.ledger.len() as u32 - 1)),
                    "more customers charged than can be"
                );
                (Status::Ok, true)
            }
            Work::Decline => (Status::Declined, false),
            Work::Fail => (Status::ServerError, false),
            Work::Conflict => (Status::InProgress, false),
            Work::Replay(status) | Work::Stale(status) => {
                self.counters.replayed += 1;
                (status, false)
            }
            Work::Mismatch => (Status::KeyReused, false),
            Work::Down => {
                self.counters.overloaded += 1;
                (Status::Overloaded, false)
            }
        };
        match status {
            Status::Declined => {
                self.counters.declined += 1;
                self.ledger[request.customer as usize].declined_answered = true;
            }
            Status::ServerError => self.counters.server_errors += 1,
            Status::InProgress => self.counters.in_progress_conflicts += 1,
            Status::KeyReused => self.counters.key_reused += 1,
            _ => {}
        }
        // The store remembers final answers of first requests; a failure releases the key.
        if let (Some(key), Work::Charge | Work::Decline | Work::Fail) = (request.key, work) {
            let Entry::Occupied(mut e) = self.keys.entry(key) else {
                panic!("{key} finished without being in progress");
            };
            debug_assert_eq!(e.get().state, KeyState::InProgress);
            if status.is_final() {
                debug_assert!(e.get().state.may_become(KeyState::Answered(status)));
                e.get_mut().state = KeyState::Answered(status);
            } else {
                e.remove();
            }
        }
        Completion { status, charged }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    const ALWAYS: Odds = Odds { num: 1, den: 1 };

    /// A provider whose random rules never fire, so each test turns on only its own.
    fn calm() -> ProviderConfig {
        ProviderConfig {
            server_error: Odds::NEVER,
            slow: Odds::NEVER,
            latency_jitter_us: 0,
            ..ProviderConfig::default()
        }
    }

    fn req(customer: u32) -> ChargeRequest {
        ChargeRequest {
            customer,
            key: None,
            print: BodyPrint::of_charge(customer.into(), Some(1_000)),
        }
    }

    fn keyed(customer: u32) -> ChargeRequest {
        ChargeRequest {
            key: Some(IdempotencyKey::for_charge(customer)),
            ..req(customer)
        }
    }

    /// `keyed(customer)` with another amount: another body under the same key.
    fn keyed_for(customer: u32, amount_cents: u64) -> ChargeRequest {
        ChargeRequest {
            print: BodyPrint::of_charge(customer.into(), Some(amount_cents)),
            ..keyed(customer)
        }
    }

    fn done_at(a: Arrival) -> u64 {
        match a {
            Arrival::Admitted { done_at_us, .. } => done_at_us,
            Arrival::Refused(s) => panic!("refused with {s}"),
        }
    }

    #[test]
    fn a_key_looked_up_by_the_worker_costs_it_key_work_and_at_the_door_costs_nothing() {
        let dice = KeyedDraws::from_seed(1);
        let one_worker = ProviderConfig {
            max_inflight: 1,
            queue_limit: 10,
            decline_every: 0,
            ..calm()
        };
        // By the worker (the article's): the 409 waits behind the charge, then takes
        // the key work.
        let mut p = Provider::new(
            ProviderConfig {
                key_work_us: ms(4),
                ..one_worker.clone()
            },
            10,
        );
        let first = p.arrive(0, keyed(1), &dice);
        let second = p.arrive(ms(1), keyed(1), &dice);
        assert_eq!(done_at(first), ms(15));
        assert_eq!(done_at(second), ms(19));
        assert_eq!(work(second), Work::Conflict);
        assert_eq!(p.inflight(), 2);
        // With the defaults a 409 costs a charge's own latency, drawn as a charge's is.
        assert_eq!(
            ProviderConfig::default().key_work_us,
            ProviderConfig::default().latency_us
        );
        // At the door: answered on arrival, with no worker and no place in the queue.
        let mut p = Provider::new(
            ProviderConfig {
                key_check: KeyCheck::Door,
                ..one_worker
            },
            10,
        );
        let first = p.arrive(0, keyed(1), &dice);
        let second = p.arrive(ms(1), keyed(1), &dice);
        assert_eq!(
            second,
            Arrival::Admitted {
                work: Work::Conflict,
                done_at_us: ms(1),
                slow: false
            }
        );
        assert_eq!(p.inflight(), 1, "the 409 took no place in flight");
        assert_eq!(
            p.complete(keyed(1), work(second)).status,
            Status::InProgress
        );
        assert_eq!(p.inflight(), 1);
        assert!(p.complete(keyed(1), work(first)).charged);
        let third = p.arrive(ms(20), keyed(1), &dice);
        assert_eq!(
            third,
            Arrival::Admitted {
                work: Work::Replay(Status::Ok),
                done_at_us: ms(20),
                slow: false
            }
        );
        assert_eq!(p.inflight(), 0);
        // A new key still waits its turn.
        assert_eq!(done_at(p.arrive(ms(20), keyed(2), &dice)), ms(35));
    }

    #[test]
    fn a_key_sent_again_with_another_body_is_refused_with_422_wherever_it_is_looked_up() {
        let dice = KeyedDraws::from_seed(1);
        for key_check in KeyCheck::ALL {
            let mut p = Provider::new(
                ProviderConfig {
                    key_check,
                    ..calm()
                },
                10,
            );
            let first = work(p.arrive(0, keyed(3), &dice));
            // In progress or answered, another body is another operation.
            let clash = work(p.arrive(1, keyed_for(3, 2_500), &dice));
            assert_eq!(clash, Work::Mismatch, "{key_check}");
            assert_eq!(
                p.complete(keyed_for(3, 2_500), clash),
                Completion {
                    status: Status::KeyReused,
                    charged: false
                }
            );
            assert!(p.complete(keyed(3), first).charged);
            let again = work(p.arrive(ms(50), keyed_for(3, 2_500), &dice));
            assert_eq!(again, Work::Mismatch, "{key_check}");
            p.complete(keyed_for(3, 2_500), again);
            assert_eq!(p.counters().key_reused, 2);
            assert_eq!(p.charges_of(3), 1);
            assert!(Status::KeyReused.is_final());
            assert_eq!(Status::KeyReused.code(), 422);
        }
    }

    #[test]
    fn a_key_is_kept_for_its_time_to_live_and_one_in_progress_for_another() {
        let dice = KeyedDraws::from_seed(1);
        let mut p = Provider::new(
            ProviderConfig {
                key_ttl_us: secs(2),
                slow: ALWAYS,
                slow_latency_us: secs(3),
                ..calm()
            },
            10,
        );
        let first = work(p.arrive(0, keyed(4), &dice));
        // At 2 s the first request is still being processed: the key is kept.
        assert_eq!(work(p.arrive(secs(2), keyed(4), &dice)), Work::Conflict);
        assert!(p.complete(keyed(4), first).charged);
        assert_eq!(
            work(p.arrive(ms(3_500), keyed(4), &dice)),
            Work::Replay(Status::Ok)
        );
        // Kept again from 2 s, so gone at 4 s: the same key is a new charge.
        assert_eq!(work(p.arrive(secs(4), keyed(4), &dice)), Work::Charge);
        assert_eq!(p.keys_held(), 1);
    }

    #[test]
    fn last_months_keys_answer_their_stored_status_until_their_time_is_up() {
        let dice = KeyedDraws::from_seed(1);
        let month = secs(30 * 24 * 3_600);
        let mut last = Provider::new(calm(), 10);
        for c in [5, 7] {
            let w = work(last.arrive(0, keyed(c), &dice));
            last.complete(keyed(c), w);
        }
        // Kept for ever: the key answers last month's 200 and moves no money.
        let mut p = Provider::new(calm(), 10);
        p.carry_keys(&last, month);
        let w = work(p.arrive(0, keyed(5), &dice));
        assert_eq!(w, Work::Stale(Status::Ok));
        assert_eq!(
            p.complete(keyed(5), w),
            Completion {
                status: Status::Ok,
                charged: false
            }
        );
        assert_eq!(
            work(p.arrive(0, keyed_for(7, 1_500), &dice)),
            Work::Mismatch
        );
        // Kept a day: last month's keys are long gone.
        let day = ProviderConfig {
            key_ttl_us: secs(86_400),
            ..calm()
        };
        let mut p = Provider::new(day.clone(), 10);
        p.carry_keys(&last, month);
        assert_eq!(p.keys_held(), 0);
        assert_eq!(work(p.arrive(0, keyed(5), &dice)), Work::Charge);
        // Kept 31 days: they expire a day into this month.
        let mut p = Provider::new(
            ProviderConfig {
                key_ttl_us: month + secs(86_400),
                ..calm()
            },
            10,
        );
        p.carry_keys(&last, month);
        assert_eq!(
            work(p.arrive(secs(86_399), keyed(5), &dice)),
            Work::Stale(Status::Ok)
        );
        assert_eq!(work(p.arrive(secs(86_400), keyed(7), &dice)), Work::Charge);
    }

    #[test]
    fn a_down_provider_that_fails_fast_refuses_at_the_door_and_its_hint_is_chosen() {
        let dice = KeyedDraws::from_seed(1);
        let down = IncidentPlan {
            kind: Incident::Down,
            start_us: secs(10),
            length_us: secs(3),
        };
        let mut queued = Provider::new(
            ProviderConfig {
                incident: down,
                ..calm()
            },
            10,
        );
        assert_eq!(work(queued.arrive(secs(11), req(1), &dice)), Work::Down);
        assert_eq!(queued.inflight(), 1);
        let mut fast = Provider::new(
            ProviderConfig {
                incident: down,
                down_answer: DownAnswer::Fast,
                ..calm()
            },
            10,
        );
        assert_eq!(
            fast.arrive(secs(11), req(1), &dice),
            Arrival::Refused(Status::Overloaded)
        );
        assert_eq!(fast.inflight(), 0);
        assert_eq!(fast.counters().overloaded, 1);
        let retry_after = |hint, at_us| {
            let mut p = Provider::new(
                ProviderConfig {
                    incident: down,
                    down_hint: hint,
                    ..calm()
                },
                10,
            );
            p.refusal_headers(at_us, Status::Overloaded)
                .into_iter()
                .find(|(name, _)| *name == "Retry-After")
                .map(|(_, v)| v)
                .unwrap()
        };
        assert_eq!(retry_after(DownHint::Exact, ms(10_500)), "3");
        assert_eq!(retry_after(DownHint::Fixed, ms(10_500)), "1");
        assert_eq!(retry_after(DownHint::Growing, ms(10_500)), "1");
        assert_eq!(retry_after(DownHint::Growing, ms(12_200)), "3");
    }

    #[test]
    fn a_queue_serves_in_arrival_order_on_its_workers_and_refuses_only_when_full() {
        let dice = KeyedDraws::from_seed(1);
        let mut p = Provider::new(
            ProviderConfig {
                max_inflight: 2,
                queue_limit: 3,
                decline_every: 0,
                ..calm()
            },
            10,
        );
        // Five requests at t = 0 on two workers of 15 ms: two start at once, the next
        // three wait their turn; the sixth finds the queue full.
        let done: Vec<Arrival> = (1..=6).map(|c| p.arrive(0, req(c), &dice)).collect();
        let at = |a: &Arrival| match *a {
            Arrival::Admitted { done_at_us, .. } => Some(done_at_us),
            Arrival::Refused(_) => None,
        };
        let times: Vec<Option<u64>> = done.iter().map(at).collect();
        assert_eq!(
            times,
            [
                Some(ms(15)),
                Some(ms(15)),
                Some(ms(30)),
                Some(ms(30)),
                Some(ms(45)),
                None
            ]
        );
        assert_eq!(done[5], Arrival::Refused(Status::Overloaded));
        // Both workers are busy (each is free only after t = 0) and three wait.
        let busy = p.free_at_us.iter().filter(|Reverse(t)| *t > 0).count() as u32;
        assert_eq!(split_inflight(p.inflight(), 2), (busy, 3));
        assert_eq!(split_inflight(1, 2), (1, 0));
        // A request that comes once a worker is free again starts when it arrives.
        for c in 1..=5 {
            p.complete(req(c), Work::Charge);
        }
        let later = p.arrive(ms(100), req(7), &dice);
        assert_eq!(at(&later), Some(ms(115)));
        // Without a queue the same provider refuses the third at once.
        let mut p = Provider::new(
            ProviderConfig {
                max_inflight: 2,
                decline_every: 0,
                ..calm()
            },
            10,
        );
        let refused = (1..=3).map(|c| p.arrive(0, req(c), &dice)).last();
        assert_eq!(refused, Some(Arrival::Refused(Status::Overloaded)));
    }

    fn work(a: Arrival) -> Work {
        match a {
            Arrival::Admitted { work, .. } => work,
            Arrival::Refused(s) => panic!("refused with {s}"),
        }
    }

    #[test]
    fn rate_limit_refuses_the_101st_in_a_window_and_refusals_do_not_count() {
        let mut p = Provider::new(
            ProviderConfig {
                max_inflight: 1_000,
                ..calm()
            },
            1_000,
        );
        let dice = KeyedDraws::from_seed(1);
        for i in 0..100 {
            assert!(matches!(
                p.arrive(i * 1_000, req(1), &dice),
                Arrival::Admitted { .. }
            ));
        }
        // Many refusals inside the window: none of them extends it.
        for t in [100_000, 500_000, 999_999] {
            assert_eq!(
                p.arrive(t, req(1), &dice),
                Arrival::Refused(Status::TooManyRequests)
            );
        }
        // The first admission (t = 0) leaves the window at t = 1 s: one slot frees.
        assert!(matches!(
            p.arrive(1_000_000, req(1), &dice),
            Arrival::Admitted { .. }
        ));
        assert_eq!(
            p.arrive(1_000_000, req(1), &dice),
            Arrival::Refused(Status::TooManyRequests)
        );
        assert_eq!(p.counters().rate_limited, 4);
        assert_eq!(p.counters().requests, 105);
    }

    #[test]
    fn in_flight_limit_answers_503_until_one_completes() {
        let mut p = Provider::new(calm(), 100);
        let dice = KeyedDraws::from_seed(1);
        let admitted: Vec<Work> = (1..=10).map(|c| work(p.arrive(0, req(c), &dice))).collect();
        assert_eq!(p.inflight(), 10);
        assert_eq!(
            p.arrive(0, req(11), &dice),
            Arrival::Refused(Status::Overloaded)
        );
        p.complete(req(1), admitted[0]);
        assert!(matches!(
            p.arrive(1, req(11), &dice),
            Arrival::Admitted { .. }
        ));
        assert_eq!(p.counters().overloaded, 1);
        assert_eq!(p.counters().max_inflight, 10);
        // A 503 passed the rate check, so it counts toward the rate window.
        assert_eq!(p.window_count(1), 12);
    }

    #[test]
    fn the_rate_rule_comes_before_the_in_flight_rule() {
        let mut p = Provider::new(
            ProviderConfig {
                max_inflight: 1,
                rate_limit: 1,
                ..calm()
            },
            10,
        );
        let dice = KeyedDraws::from_seed(1);
        let _ = p.arrive(0, req(1), &dice);
        // Both limits are reached; the answer is the rate limit's.
        assert_eq!(
            p.arrive(0, req(2), &dice),
            Arrival::Refused(Status::TooManyRequests)
        );
    }

    #[test]
    fn a_key_in_progress_gets_409_and_a_finished_key_gets_its_answer_again() {
        let mut p = Provider::new(calm(), 100);
        let dice = KeyedDraws::from_seed(1);
        let first = work(p.arrive(0, keyed(5), &dice));
        assert_eq!(first, Work::Charge);
        let second = work(p.arrive(10, keyed(5), &dice));
        assert_eq!(second, Work::Conflict);
        assert_eq!(p.complete(keyed(5), second).status, Status::InProgress);
        assert_eq!(
            p.complete(keyed(5), first),
            Completion {
                status: Status::Ok,
                charged: true
            }
        );
        let third = work(p.arrive(20, keyed(5), &dice));
        assert_eq!(third, Work::Replay(Status::Ok));
        assert_eq!(
            p.complete(keyed(5), third),
            Completion {
                status: Status::Ok,
                charged: false
            }
        );
        assert_eq!(p.charges_of(5), 1);
        assert_eq!(p.counters().in_progress_conflicts, 1);
        assert_eq!(p.counters().replayed, 1);
        // Without a key, the same customer is simply charged again.
        let again = work(p.arrive(30, req(5), &dice));
        p.complete(req(5), again);
        assert_eq!(p.charges_of(5), 2);
        assert_eq!(p.counters().duplicates, 1);
    }

    #[test]
    fn a_forgotten_key_charges_again_and_a_key_in_progress_is_not_forgotten() {
        let mut p = Provider::new(calm(), 10);
        let dice = KeyedDraws::from_seed(1);
        let first = work(p.arrive(0, keyed(5), &dice));
        assert!(p.holds_key(IdempotencyKey::for_charge(5)));
        assert!(!p.forget_key(IdempotencyKey::for_charge(5)), "in progress");
        assert!(p.complete(keyed(5), first).charged);
        assert_eq!(p.keys_held(), 1);
        assert!(p.forget_key(IdempotencyKey::for_charge(5)));
        assert_eq!(p.keys_held(), 0);
        let again = work(p.arrive(ms(20), keyed(5), &dice));
        assert_eq!(again, Work::Charge, "a new charge, not a replay");
        assert!(p.complete(keyed(5), again).charged);
        assert_eq!(p.charges_of(5), 2);
    }

    #[test]
    fn every_97th_card_is_declined_and_the_400_is_stored_against_the_key() {
        let mut p = Provider::new(calm(), 1000);
        let dice = KeyedDraws::from_seed(1);
        let w = work(p.arrive(0, keyed(194), &dice));
        assert_eq!(w, Work::Decline);
        assert_eq!(
            p.complete(keyed(194), w),
            Completion {
                status: Status::Declined,
                charged: false
            }
        );
        let again = work(p.arrive(1, keyed(194), &dice));
        assert_eq!(again, Work::Replay(Status::Declined));
        p.complete(keyed(194), again);
        assert_eq!(p.counters().declined, 2);
        assert_eq!(p.charges_of(194), 0);
        assert!(!p.config().is_declined(195));
        assert_eq!(p.config().valid_customers(1000), 990);
    }

    #[test]
    fn a_server_error_charges_nothing_and_releases_the_key() {
        let mut p = Provider::new(
            ProviderConfig {
                server_error: ALWAYS,
                ..calm()
            },
            10,
        );
        let dice = KeyedDraws::from_seed(1);
        let w = work(p.arrive(0, keyed(3), &dice));
        assert_eq!(w, Work::Fail);
        assert_eq!(
            p.complete(keyed(3), w),
            Completion {
                status: Status::ServerError,
                charged: false
            }
        );
        assert_eq!(p.counters().server_errors, 1);
        // The key was not recorded: the next attempt is processed afresh, not replayed.
        p.config.server_error = Odds::NEVER;
        let retry = work(p.arrive(1, keyed(3), &dice));
        assert_eq!(retry, Work::Charge);
        assert!(p.complete(keyed(3), retry).charged);
    }

    #[test]
    fn server_errors_come_at_their_odds() {
        let mut p = Provider::new(
            ProviderConfig {
                max_inflight: 1,
                rate_limit: 1_000_000,
                ..ProviderConfig::default()
            },
            1,
        );
        let dice = KeyedDraws::from_seed(9);
        let mut fails = 0;
        for t in 0..20_000 {
            let w = work(p.arrive(t, req(1), &dice));
            fails += u32::from(w == Work::Fail);
            p.complete(req(1), w);
        }
        // 1 in 20 of 20,000 is 1,000 (standard deviation about 31).
        assert!((900..=1_100).contains(&fails), "{fails}");
    }

    #[test]
    fn slow_charges_take_the_slow_latency_and_others_the_normal_one() {
        let mut p = Provider::new(
            ProviderConfig {
                slow: ALWAYS,
                ..calm()
            },
            10,
        );
        let dice = KeyedDraws::from_seed(1);
        assert_eq!(
            p.arrive(100, req(1), &dice),
            Arrival::Admitted {
                work: Work::Charge,
                done_at_us: 100 + ms(1_500),
                slow: true
            }
        );
        assert_eq!(p.counters().slow, 1);
        let mut p = Provider::new(
            ProviderConfig {
                latency_jitter_us: ms(3),
                ..calm()
            },
            10,
        );
        let mut normal_us = Vec::new();
        for t in (0..2_000).map(|i| i * ms(20)) {
            let Arrival::Admitted {
                work,
                done_at_us,
                slow: false,
            } = p.arrive(t, req(1), &dice)
            else {
                panic!("a calm provider admits and is never slow");
            };
            normal_us.push(done_at_us - t);
            p.complete(req(1), work);
        }
        // Uniform over 12..=18 ms: all inside, and both ends approached.
        assert!(normal_us.iter().all(|d| (ms(12)..=ms(18)).contains(d)));
        assert!(*normal_us.iter().min().unwrap() < ms(12) + 100);
        assert!(*normal_us.iter().max().unwrap() > ms(18) - 100);
    }

    /// Customer 5's requests as (work, processing time, slow), sent one at a time, with
    /// `others` requests from other customers (some refused) arriving before each.
    fn luck_of_customer_5(others: u32) -> Vec<(Work, u64, bool)> {
        let config = ProviderConfig {
            max_inflight: 3,
            server_error: Odds::one_in(3),
            slow: Odds::one_in(3),
            ..ProviderConfig::default()
        };
        let mut p = Provider::new(config, 100);
        let dice = KeyedDraws::from_seed(4);
        let mut luck = Vec::new();
        for i in 0..60 {
            let t = i * secs(2);
            let mut busy = Vec::new();
            for other in 0..others {
                let r = req(10 + other);
                if let Arrival::Admitted { work, .. } = p.arrive(t, r, &dice) {
                    busy.push((r, work));
                }
            }
            for (r, w) in busy {
                p.complete(r, w);
            }
            match p.arrive(t, req(5), &dice) {
                Arrival::Admitted {
                    work,
                    done_at_us,
                    slow,
                } => {
                    luck.push((work, done_at_us - t, slow));
                    p.complete(req(5), work);
                }
                Arrival::Refused(s) => panic!("customer 5 was refused with {s}"),
            }
        }
        assert_eq!(p.requests_of(5), 60);
        luck
    }

    #[test]
    fn a_customers_nth_request_meets_the_same_dice_whoever_else_calls() {
        let alone = luck_of_customer_5(0);
        // Five others before each: three admitted, two refused with 503.
        assert_eq!(luck_of_customer_5(5), alone);
        let works: BTreeSet<_> = alone.iter().map(|l| format!("{:?}", l.0)).collect();
        let slow = alone.iter().filter(|l| l.2).count();
        assert_eq!(
            works.len(),
            2,
            "both charges and failures happen: {alone:?}"
        );
        assert!((5..=35).contains(&slow), "{slow} of 60 slow");
    }

    #[test]
    fn refused_requests_count_toward_a_customers_request_number() {
        let mut p = Provider::new(
            ProviderConfig {
                rate_limit: 1,
                ..ProviderConfig::default()
            },
            10,
        );
        let dice = KeyedDraws::from_seed(2);
        let first = work(p.arrive(0, req(3), &dice));
        p.complete(req(3), first);
        assert_eq!(
            p.arrive(1, req(3), &dice),
            Arrival::Refused(Status::TooManyRequests)
        );
        let Arrival::Admitted {
            done_at_us, slow, ..
        } = p.arrive(secs(1), req(3), &dice)
        else {
            panic!("the window has moved on");
        };
        assert_eq!(p.requests_of(3), 3);
        let latency = |nth| {
            dice.stream(DrawKey {
                customer: 3,
                nth,
                draw: Draw::Latency,
            })
            .between(ms(12), ms(18))
        };
        assert!(!slow);
        assert_ne!(latency(2), latency(3), "seed 2 tells the two apart");
        assert_eq!(done_at_us - secs(1), latency(3));
    }

    #[test]
    fn the_charge_happens_at_completion_whoever_is_listening() {
        // The provider has no idea whether the client still waits: completing a request
        // charges regardless, which is how a timed-out slow charge still takes the money.
        let mut p = Provider::new(
            ProviderConfig {
                slow: ALWAYS,
                ..calm()
            },
            10,
        );
        let dice = KeyedDraws::from_seed(1);
        let w = work(p.arrive(0, req(2), &dice));
        assert_eq!(p.charges_of(2), 0, "nothing moves on arrival");
        assert!(p.complete(req(2), w).charged);
        assert_eq!(p.counters().charges, 1);
    }

    #[test]
    fn a_server_learns_its_customers_as_they_call_within_the_bound() {
        let mut p = Provider::new(calm(), 0);
        let dice = KeyedDraws::from_seed(1);
        const MAX: u32 = 1_000;
        assert_eq!(
            p.know_customer(0, MAX),
            Err(UnknownCustomer { customer: 0 })
        );
        let too_many = u64::from(MAX) + 1;
        assert_eq!(
            p.know_customer(too_many, MAX),
            Err(UnknownCustomer { customer: too_many })
        );
        assert_eq!(p.know_customer(500, MAX), Ok(500));
        let w = work(p.arrive(0, req(500), &dice));
        p.complete(req(500), w);
        // Knowing a smaller id keeps what the ledger already holds.
        assert_eq!(p.know_customer(3, MAX), Ok(3));
        assert_eq!(p.charges_of(500), 1);
        assert_eq!(p.requests_of(3), 0);
    }

    #[test]
    fn the_provider_counts_requests_that_follow_its_own_400() {
        let mut p = Provider::new(calm(), 200);
        let dice = KeyedDraws::from_seed(1);
        let first = work(p.arrive(0, req(97), &dice));
        // In progress: the 400 is not answered yet, so this is not a retried decline.
        let second = work(p.arrive(1, req(97), &dice));
        p.complete(req(97), first);
        p.complete(req(97), second);
        assert_eq!(p.counters().retried_declined, 0);
        let third = work(p.arrive(2, req(97), &dice));
        p.complete(req(97), third);
        assert_eq!(p.counters().retried_declined, 1);
        assert_eq!(p.counters().declined, 3);
    }
}

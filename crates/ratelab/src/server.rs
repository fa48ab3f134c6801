//! `ratelab serve`: the simulated provider and the limiter lab's limiters as one real
//! local HTTP service.
//!
//! - `POST /charge` goes through [`Provider::arrive`] at the microsecond it arrives; a
//!   refusal is answered at once, an admitted request is answered when the server has
//!   slept until `done_at_us` and called [`Provider::complete`]. The completion runs in
//!   its own task, so the charge happens even if the client has gone away. A 429 or a
//!   503 carries the `Retry-After` and `RateLimit` headers the model's provider writes
//!   for it ([`Provider::refusal_headers`]) at the instant it is answered.
//! - `GET /stats` and `POST /reset[?seed=N]` read and clear the provider. The stats
//!   carry the incident's figures, measured by the simulation's [`IncidentMeter`] fed
//!   the events the simulated world feeds it, on the provider's clock: each request that
//!   reaches the provider's rules at its arrival, each charge at its completion. The
//!   recovery's "last finish" is the provider's last answer to a charge request (a
//!   refusal at its arrival, an admitted request at its completion): the server cannot
//!   see a client give up on a timeout, so that is as near as it can know the model's
//!   "the client's last finished charge".
//! - `GET /fixed`, `/sliding`, `/bucket`, `/counter`, `/queue`, `/nodelay`, `/gcra`,
//!   `/inflight` (one allowance per `x-api-key`, `anonymous` without one) and `/global`
//!   (one token bucket for everyone) answer `ok` or `slow down` with the headers of
//!   [`response_headers`]. `/queue` answers an admitted request once its turn in the
//!   queue has come (the delay the limiter gives it); `/inflight` answers once the
//!   request's service time ([`DEFAULT_HOLD_US`]) is over, so its slot is really held.
//! - `GET /report[?customers=N][&format=json|html]` gives the report card of every
//!   customer since the last reset ([`Service::report`]): what the provider's ledger
//!   holds against what each customer's client last heard, beside the best the ten
//!   built-in strategies did in the simulation on the same scenario
//!   ([`super::report`]). What a client heard is the answer its request's handler
//!   returned, or, when hyper dropped the handler first because the client closed the
//!   connection, that the client stopped waiting ([`Hearing`]).
//! - With `--dist`, every other GET is a file of the built app ([`super::dist`]).
//!
//! Every store a client can grow is bounded ([`Bounds`]): idempotency keys are kept for
//! admitted requests only, for a day, up to a cap ([`super::keys`]); a limiter forgets a
//! caller once its window has passed, and refuses a new caller at its cap. Connections
//! are capped and timed ([`super::doors`]). `/reset` swaps the whole state in one step
//! under one lock: a charge admitted before it completes on the provider it arrived at,
//! and each charge's answer says which run (since the server started, counted by the
//! resets) it belongs to.
//!
//! The time the limiters are given is the microseconds since the server's origin, which
//! is set to the last wall-clock instant that was a whole number of rate windows since
//! the Unix epoch: the fixed window's boundaries then fall on the wall clock's whole
//! seconds, where a client that aims at them (the second article's burst script) expects
//! them. The provider's clock starts there too, and again at each `/reset`: a run that
//! resets first (as `charges --http` does) meets the provider's incident at the
//! scenario's `incidentStartMs` from its own start, as in the simulation.

use super::dist::{self, Dist};
use super::doors::{self, Bounds};
use super::keys::KeyStore;
use super::report::{best_of, built_in_cards, Best, Report, COMPARE_MAX_CUSTOMERS};
use super::store::redis::{RedisStore, StoreError};
use super::store::{StoreConfig, StoreFail};
use page::shared::door::{may_be_json, read_charge, result_word, NOT_JSON_TYPE};
use page::shared::report::Note;
use page::shared::words::Words;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::{Deserialize, Serialize};
use sim::headers::response_headers;
use sim::incident::IncidentMeter;
use sim::limiter::concurrency::DEFAULT_HOLD_US;
use sim::limiter::Decision;
use sim::limiter::{
    ConcurrencyLimit, FixedWindow, Gcra, LeakyQueue, Limiter, LimiterKind, Policy, Scope,
    SlidingCounter, SlidingLog, TokenBucket,
};
use sim::provider::{Arrival, BodyPrint, ChargeRequest, Provider, ProviderConfig, Status, Work};
use sim::report::ReportCard;
use sim::rng::KeyedDraws;
use sim::waits::Waits;
use sim::world::{ClientEnd, Fate};
use sim::Stats;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The largest request body the server reads; a larger one gets 413.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The most customers the server keeps a ledger for: ids 1 to this. A rule of the
/// server's own, for its memory: beside the ledger it keeps 12 bytes of what a client
/// last heard for each customer it knows, so at most 12 MB. A million, as many as the run
/// page plays on its own thread.
pub const MAX_CUSTOMERS: u32 = 1_000_000;

/// The longest idempotency key the server stores.
pub const MAX_KEY_BYTES: usize = 255;

/// The most one caller of a per-caller limiter costs in memory, in bytes: its
/// `x-api-key` (up to [`MAX_KEY_BYTES`]) and its state in the limiter's map, allocator
/// rounding included; the sliding log adds up to 16 B per request inside its window
/// (`tests/store_bytes.rs` measures it).
pub const CALLER_BYTES_MAX: usize = 512;

/// The endpoints, as the server lists them when it starts.
pub const ENDPOINTS: [(&str, &str); 13] = [
    (
        "POST /charge",
        "a JSON body {\"id\": customer, \"amount\": cents}, an optional idempotency-key header",
    ),
    (
        "GET  /stats",
        "the provider's counters and the incident's figures as JSON",
    ),
    (
        "POST /reset",
        "clear the counters, the ledger, the keys and the limiters, restart the provider's clock [?seed=N]",
    ),
    (
        "GET  /report",
        "the report card since the last reset, beside the best built-in [?customers=N&format=json|html]",
    ),
    ("GET  /fixed", "fixed window, one per x-api-key"),
    ("GET  /sliding", "sliding log, one per x-api-key"),
    ("GET  /bucket", "token bucket, one per x-api-key"),
    ("GET  /counter", "sliding-window counter, one per x-api-key"),
    ("GET  /queue", "leaky bucket as a queue (nginx burst): answers when its turn comes"),
    ("GET  /nodelay", "leaky bucket with nodelay: the queue's answers, at once"),
    ("GET  /gcra", "GCRA (governor, redis-cell), one per x-api-key"),
    ("GET  /inflight", "at most the limit in flight, each held 15 ms"),
    ("GET  /global", "one token bucket for everyone"),
];

/// What the server runs with.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The provider's rules (the scenario's provider parameters).
    pub provider: ProviderConfig,
    /// The seed of the provider's dice (until a `/reset?seed=N`).
    pub seed: u64,
    /// What each limiter endpoint allows: the second article's 10 per 1000 ms by default.
    pub limit: Policy,
    /// What any one client can make the server hold, and for how long.
    pub bounds: Bounds,
    /// The built app, served beside the endpoints, if given.
    pub dist: Option<Dist>,
    /// Where the limiters' state lives: here, or in a Redis shared with other servers.
    pub store: StoreConfig,
}

impl Default for ServeConfig {
    fn default() -> Self {
        Self {
            provider: ProviderConfig::default(),
            seed: 1,
            limit: Policy {
                limit: 10,
                window_us: 1_000_000,
            },
            bounds: Bounds::default(),
            dist: None,
            store: StoreConfig::Memory,
        }
    }
}

/// The provider's counters as `/stats` answers them: the first article's names, plus
/// `customersCharged`, `overloaded`, `replayed` and the bad requests (counted apart:
/// they never reached the provider's rules).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderStats {
    /// Charge requests that reached the provider's rules.
    pub requests: u64,
    /// Times money moved.
    pub charges: u64,
    /// Distinct customers charged.
    pub customers_charged: u64,
    /// Charges beyond the first for the same customer.
    pub duplicates: u64,
    /// Peak admitted requests processed at once.
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
    /// 400 answers for a declined card.
    pub declined: u64,
    /// Answers replayed from the idempotency store.
    pub replayed: u64,
    /// Requests for a customer the provider had already answered 400.
    pub retried_declined: u64,
    /// Requests that reached the provider's rules during the incident.
    pub incident_requests: u64,
    /// The most requests that reached the provider in any 100 ms of the incident, per
    /// second.
    pub incident_peak_rate: u64,
    /// From the incident's end until charges flow at 90% of their rate before it, in
    /// whole milliseconds; if they never do, until the provider's last answer (see the
    /// module's doc).
    pub recovery_ms: u64,
    /// Requests refused before the provider's rules: bad JSON, a bad id or key (400).
    pub bad_requests: u64,
    /// Admitted charges still being processed now (not a counter: 0 once settled).
    pub inflight: u32,
    /// Idempotency keys held now (not a counter).
    pub keys_held: u64,
    /// Requests with a new idempotency key refused because the store held its cap
    /// (503, counted apart: they never reached the provider's rules).
    pub keys_refused: u64,
    /// Which run these are: 0 from the server's start, one more at each `/reset`. Each
    /// charge's answer carries the run it was admitted in.
    pub run: u64,
}

impl ProviderStats {
    fn of(desk: &Desk, run: u64) -> Self {
        let s = desk.provider.counters();
        Self {
            requests: s.requests,
            charges: s.charges,
            customers_charged: s.customers_charged,
            duplicates: s.duplicates,
            max_inflight: s.max_inflight,
            rate_limited: s.rate_limited,
            overloaded: s.overloaded,
            server_errors: s.server_errors,
            slow: s.slow,
            in_progress_conflicts: s.in_progress_conflicts,
            declined: s.declined,
            replayed: s.replayed,
            retried_declined: s.retried_declined,
            incident_requests: desk.meter.requests(),
            incident_peak_rate: desk.meter.peak_rate_per_s(),
            recovery_ms: desk.meter.recovery_ms(desk.last_answer_us),
            bad_requests: desk.bad_requests,
            inflight: desk.provider.inflight(),
            keys_held: desk.keys.len() as u64,
            keys_refused: desk.keys_refused,
            run,
        }
    }

    /// The provider's side of a run's [`Stats`] (the client's fields are 0).
    pub fn to_stats(&self) -> Stats {
        Stats {
            requests: self.requests,
            charges: self.charges,
            customers_charged: self.customers_charged,
            duplicates: self.duplicates,
            max_inflight: self.max_inflight,
            rate_limited: self.rate_limited,
            overloaded: self.overloaded,
            server_errors: self.server_errors,
            slow: self.slow,
            in_progress_conflicts: self.in_progress_conflicts,
            declined: self.declined,
            replayed: self.replayed,
            retried_declined: self.retried_declined,
            incident_requests: self.incident_requests,
            incident_peak_rate: self.incident_peak_rate,
            recovery_ms: self.recovery_ms,
            ..Stats::default()
        }
    }
}

/// What a client last heard for one customer, and when: 12 bytes a customer, kept for
/// each customer the ledger knows (ids up to [`MAX_CUSTOMERS`], so at
/// most 12 MB). Times are the provider's, in whole milliseconds since the run's start,
/// held at `u32::MAX` (49 days) for a run older than that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Heard {
    /// When the customer's first request arrived.
    first_ms: u32,
    /// When `last` happened.
    last_ms: u32,
    /// What the client last heard.
    last: Last,
}

/// What a client last heard for a customer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Last {
    /// No request yet.
    #[default]
    Nothing,
    /// A request is being answered.
    Waiting,
    /// A final answer (200, 400 or 422).
    Final(Status),
    /// An answer that is not final (409, 429, 500, 503): unless the client sends again,
    /// it left without a final answer.
    NotFinal,
    /// The client stopped waiting before its answer was given.
    Abandoned,
}

impl Last {
    /// What an answer with `status` tells the client.
    fn of(status: Status) -> Self {
        if status.is_final() {
            Last::Final(status)
        } else {
            Last::NotFinal
        }
    }

    /// Where the client stands with the customer, as the core's rule of fates reads it.
    fn end(self) -> ClientEnd {
        match self {
            Last::Nothing | Last::Waiting => ClientEnd::NotYet,
            Last::Final(status) => ClientEnd::Final(status),
            Last::NotFinal | Last::Abandoned => ClientEnd::GaveUp,
        }
    }
}

/// The provider with its dice, its clock's origin, and the key texts it has numbered.
struct Desk {
    provider: Provider,
    /// The instant the provider's time is counted from.
    origin: Instant,
    /// The seed of the dice (this run's).
    seed: u64,
    dice: KeyedDraws,
    /// What each customer's client last heard, by customer id (index 0 unused); as long
    /// as the provider's ledger.
    heard: Vec<Heard>,
    /// Admitted requests whose handler has neither returned its answer nor been dropped.
    answering: u32,
    keys: KeyStore,
    keys_refused: u64,
    bad_requests: u64,
    /// The incident's figures, fed as the simulated world feeds its meter.
    meter: IncidentMeter,
    /// The provider's time of the last charge fed to the meter, which takes them in time
    /// order: two completions due a few microseconds apart may wake in either order.
    last_charge_us: u64,
    /// The provider's time of its last answer to a charge request.
    last_answer_us: u64,
}

impl Desk {
    fn new(config: &ServeConfig, seed: u64, origin: Instant) -> Self {
        let config_bounds = config.bounds;
        let config = &config.provider;
        Self {
            // The key store below keeps the clock on keys (`--key-ttl-s`), so the
            // provider keeps its keys until the store lets them go.
            provider: Provider::new(
                ProviderConfig {
                    key_ttl_us: 0,
                    ..config.clone()
                },
                0,
            ),
            origin,
            seed,
            dice: KeyedDraws::from_seed(seed),
            heard: vec![Heard::default()],
            answering: 0,
            keys: KeyStore::new(
                u64::try_from(config_bounds.key_ttl.as_micros()).unwrap_or(u64::MAX),
                config_bounds.max_keys,
            ),
            keys_refused: 0,
            bad_requests: 0,
            meter: IncidentMeter::new(config.incident),
            last_charge_us: 0,
            last_answer_us: 0,
        }
    }

    /// A request reached the provider's rules at `at_us`; `refused` if it was answered
    /// there and then.
    fn arrived(&mut self, at_us: u64, refused: bool) {
        self.meter.on_request(at_us);
        if refused {
            self.last_answer_us = self.last_answer_us.max(at_us);
        }
    }

    /// An admitted request completed at `at_us` (its `done_at_us`), `charged` or not.
    fn completed(&mut self, at_us: u64, charged: bool) {
        self.last_answer_us = self.last_answer_us.max(at_us);
        if charged {
            self.last_charge_us = self.last_charge_us.max(at_us);
            self.meter.on_charge(self.last_charge_us);
        }
    }

    /// Notes that the client of `customer` heard `last` at `at_us` (or, for
    /// [`Last::Waiting`], that a request of it arrived then). The ledger knows the
    /// customer: [`Desk::know`] came first.
    fn hear(&mut self, customer: u32, last: Last, at_us: u64) {
        let Some(h) = self.heard.get_mut(customer as usize) else {
            return;
        };
        let at_ms = u32::try_from(at_us / 1_000).unwrap_or(u32::MAX);
        if h.last == Last::Nothing {
            h.first_ms = at_ms;
        }
        h.last = last;
        h.last_ms = at_ms;
    }

    /// Makes room for customer `id` in the ledger and beside it, within the bound on ids.
    fn know(&mut self, id: u64) -> Result<u32, String> {
        let c = self
            .provider
            .know_customer(id, MAX_CUSTOMERS)
            .map_err(|_| format!("id must be a customer from 1 to {MAX_CUSTOMERS}, not {id}"))?;
        if self.heard.len() <= c as usize {
            self.heard.resize(c as usize + 1, Heard::default());
        }
        Ok(c)
    }

    /// The highest customer id that has reached the provider since the run began.
    fn highest_customer(&self) -> u32 {
        u32::try_from(self.heard.len() - 1).unwrap_or(u32::MAX)
    }

    /// The card of customers `1..=customers` now: each one's fate from the ledger and
    /// what its client last heard (never seen: not yet finished), the run's counts, the
    /// elapsed time to the last answer heard, and the waits from each customer's first
    /// request to its last answer heard.
    fn card(&self, customers: u32, run: u64) -> ReportCard {
        let mut waits = Waits::default();
        let mut elapsed_ms = 0;
        let fates: Vec<Fate> = (1..=customers)
            .map(|c| {
                let Some(h) = self.heard.get(c as usize) else {
                    return Fate::of(0, ClientEnd::NotYet);
                };
                let end = h.last.end();
                if end != ClientEnd::NotYet {
                    waits.add_ms(u64::from(h.last_ms.saturating_sub(h.first_ms)));
                    elapsed_ms = elapsed_ms.max(u64::from(h.last_ms));
                }
                Fate::of(self.provider.charges_of(c), end)
            })
            .collect();
        let stats = Stats {
            elapsed_ms,
            ..ProviderStats::of(self, run).to_stats()
        }
        .with_waits(&waits);
        let config = self.provider.config();
        ReportCard::of(&stats, &fates, |c| !config.is_declined(c))
    }

    /// The provider's time now.
    fn now_us(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_micros()).unwrap_or(u64::MAX)
    }

    /// The real instant of the provider's time `t_us`.
    fn at(&self, t_us: u64) -> tokio::time::Instant {
        tokio::time::Instant::from_std(self.origin + Duration::from_micros(t_us))
    }

    /// Lets go of the keys that have outlived their time at `now_us`.
    fn expire_keys(&mut self, now_us: u64) {
        let provider = &mut self.provider;
        self.keys.expire(now_us, |key| provider.forget_key(key));
    }
}

/// The limiter endpoints' limiters.
struct Limiters {
    fixed: FixedWindow,
    sliding: SlidingLog,
    bucket: TokenBucket,
    counter: SlidingCounter,
    queue: LeakyQueue,
    nodelay: LeakyQueue,
    gcra: Gcra,
    inflight: ConcurrencyLimit,
    global: TokenBucket,
    /// When spent callers were last forgotten, in the server's time.
    swept_us: u64,
}

impl Limiters {
    fn new(policy: Policy, now_us: u64) -> Result<Self, String> {
        let e = |e: sim::limiter::LimiterError| e.sentence();
        Ok(Self {
            fixed: FixedWindow::new(policy, Scope::PerKey).map_err(e)?,
            sliding: SlidingLog::new(policy, Scope::PerKey).map_err(e)?,
            bucket: TokenBucket::new(policy.limit, policy, Scope::PerKey).map_err(e)?,
            // Built as `LimiterKind::build` builds them, so the lab and the server agree.
            counter: SlidingCounter::new(policy, Scope::PerKey).map_err(e)?,
            queue: LeakyQueue::new(policy, policy.limit - 1, false, Scope::PerKey).map_err(e)?,
            nodelay: LeakyQueue::new(policy, policy.limit - 1, true, Scope::PerKey).map_err(e)?,
            gcra: Gcra::new(policy, policy.limit, Scope::PerKey).map_err(e)?,
            inflight: ConcurrencyLimit::new(policy, DEFAULT_HOLD_US, Scope::PerKey).map_err(e)?,
            global: TokenBucket::new(policy.limit, policy, Scope::Global).map_err(e)?,
            swept_us: now_us,
        })
    }

    /// Once a window has passed since the last time, forgets the callers whose state is
    /// spent, so a caller who has gone costs nothing after at most two windows. A sweep
    /// reads every remembered caller once, so it runs at most once a window.
    fn sweep_if_due(&mut self, now_us: u64, window_us: u64) {
        if now_us.saturating_sub(self.swept_us) < window_us {
            return;
        }
        self.swept_us = now_us;
        self.fixed.forget_spent(now_us);
        self.sliding.forget_spent(now_us);
        self.bucket.forget_spent(now_us);
        self.counter.forget_spent(now_us);
        self.queue.forget_spent(now_us);
        self.nodelay.forget_spent(now_us);
        self.gcra.forget_spent(now_us);
        self.inflight.forget_spent(now_us);
    }

    fn get(&mut self, which: Which) -> &mut dyn Limiter {
        match which {
            Which::Fixed => &mut self.fixed,
            Which::Sliding => &mut self.sliding,
            Which::Bucket => &mut self.bucket,
            Which::Counter => &mut self.counter,
            Which::Queue => &mut self.queue,
            Which::Nodelay => &mut self.nodelay,
            Which::Gcra => &mut self.gcra,
            Which::Inflight => &mut self.inflight,
            Which::Global => &mut self.global,
        }
    }
}

/// Everything `/reset` replaces, in one place under one lock.
struct Current {
    /// Resets so far.
    run: u64,
    /// The provider of this run. A charge holds its own handle, so one admitted before a
    /// reset completes on the provider it arrived at, never on its successor.
    desk: Arc<Mutex<Desk>>,
    limiters: Limiters,
}

struct Shared {
    config: ServeConfig,
    origin: Instant,
    /// The wall clock's microseconds since the Unix epoch at `origin` (a whole number of
    /// windows): the limiters in Redis count on the wall clock, so that every server
    /// sharing them counts on the same one.
    origin_epoch_us: u64,
    /// The limiters' state in Redis, if `--store redis://…`.
    store: Option<RedisStore>,
    state: Mutex<Current>,
    /// The last comparison with the built-in strategies, by seed and customers: one at
    /// a time is simulated (the lock is held while it runs), and only the last is kept.
    compared: tokio::sync::Mutex<Option<Compared>>,
}

/// A comparison with the built-in strategies: for which seed and customers, and the
/// best they did (or the simulation's sentence).
type Compared = ((u64, u32), Result<Best, String>);

/// One running service: its state, and the router that answers for it.
#[derive(Clone)]
pub struct Service(Arc<Shared>);

/// A lock that a panic elsewhere does not poison for every later request.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Service {
    /// A service whose clock starts now (aligned to the wall clock's windows, see the
    /// module's doc). An impossible limit gets a sentence.
    pub fn new(config: ServeConfig) -> Result<Self, String> {
        let window_us = u128::from(config.limit.window_us.max(1));
        let since_epoch_us = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_micros())
            .unwrap_or(0);
        let into_window =
            Duration::from_micros(u64::try_from(since_epoch_us % window_us).unwrap_or(0));
        let now = Instant::now();
        let origin = now.checked_sub(into_window).unwrap_or(now);
        let origin_epoch_us =
            u64::try_from(since_epoch_us.saturating_sub(now.duration_since(origin).as_micros()))
                .unwrap_or(0);
        let desk = Desk::new(&config, config.seed, origin);
        let limiters = Limiters::new(config.limit, 0)?;
        let store = match &config.store {
            StoreConfig::Memory => None,
            StoreConfig::Redis(redis) => Some(RedisStore::new(redis.clone(), config.limit)?),
        };
        Ok(Self(Arc::new(Shared {
            origin_epoch_us,
            store,
            state: Mutex::new(Current {
                run: 0,
                desk: Arc::new(Mutex::new(desk)),
                limiters,
            }),
            config,
            origin,
            compared: tokio::sync::Mutex::new(None),
        })))
    }

    /// The routes, and with `--dist` the app's files.
    pub fn router(&self) -> Router {
        Router::new()
            .route("/charge", post(charge))
            .route("/stats", get(stats))
            .route("/reset", post(reset))
            .route("/report", get(report))
            .route("/fixed", get(fixed))
            .route("/sliding", get(sliding))
            .route("/bucket", get(bucket))
            .route("/counter", get(counter))
            .route("/queue", get(queue))
            .route("/nodelay", get(nodelay))
            .route("/gcra", get(gcra))
            .route("/inflight", get(inflight))
            .route("/global", get(global))
            .fallback(elsewhere)
            .method_not_allowed_fallback(wrong_method)
            .layer(middleware::from_fn(plain_transfer_coding))
            .with_state(self.clone())
    }

    /// The current run's desk and its number.
    fn desk(&self) -> (Arc<Mutex<Desk>>, u64) {
        let state = lock(&self.0.state);
        (state.desk.clone(), state.run)
    }

    /// The provider's counters now.
    pub fn stats(&self) -> ProviderStats {
        let (desk, run) = self.desk();
        let desk = lock(&desk);
        ProviderStats::of(&desk, run)
    }

    /// Callers each per-caller limiter endpoint remembers now: fixed, sliding, bucket.
    pub fn callers(&self) -> [usize; 3] {
        let l = &lock(&self.0.state).limiters;
        [l.fixed.callers(), l.sliding.callers(), l.bucket.callers()]
    }

    /// Waits until no admitted charge is still being processed (the ones whose clients
    /// went away included), so the counters are final.
    pub async fn settle(&self) {
        while lock(&self.desk().0).provider.inflight() > 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Waits, for at most `limit`, until no admitted charge is being processed and
    /// every admitted request's answer has been given or walked away from, so the card
    /// is final. Returns the requests still being worked on then (0: settled).
    pub async fn settle_within(&self, limit: Duration) -> u32 {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let busy = {
                let desk = self.desk().0;
                let desk = lock(&desk);
                desk.provider.inflight().max(desk.answering)
            };
            if busy == 0 || tokio::time::Instant::now() >= deadline {
                return busy;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Starts a new run with `seed`, as `POST /reset?seed=N` does, and returns its
    /// number: the provider, its keys, the limiters and what the clients heard are
    /// replaced in one step under one lock, and the provider's clock starts now.
    pub fn reset(&self, seed: u64) -> Result<u64, String> {
        let limiters = Limiters::new(self.0.config.limit, self.now_us())?;
        let desk = Desk::new(&self.0.config, seed, Instant::now());
        // One step under one lock: the next request meets the new provider and the new
        // limiters together. A charge admitted before completes on its own run's desk.
        let mut state = lock(&self.0.state);
        state.run += 1;
        state.desk = Arc::new(Mutex::new(desk));
        state.limiters = limiters;
        Ok(state.run)
    }

    /// The report card of customers `1..=customers` (the highest id seen if `None`)
    /// since the last reset, beside the best the built-in strategies did on the same
    /// provider, seed and customers (up to [`COMPARE_MAX_CUSTOMERS`]).
    pub async fn report(&self, customers: Option<u32>) -> Report {
        let (desk, run) = self.desk();
        let (card, seed, customers, inflight, highest) = {
            let desk = lock(&desk);
            let highest = desk.highest_customer();
            let customers = customers.unwrap_or(highest);
            (
                desk.card(customers, run),
                desk.seed,
                customers,
                desk.provider.inflight().max(desk.answering),
                highest,
            )
        };
        let mut notes = Vec::new();
        if highest == 0 {
            notes.push(Note::NoCustomers);
        } else if highest > customers {
            notes.push(Note::Beyond { customers, highest });
        }
        let best = match customers {
            0 => None,
            n if n > COMPARE_MAX_CUSTOMERS => {
                notes.push(Note::NotCompared {
                    customers: n,
                    cap: COMPARE_MAX_CUSTOMERS,
                });
                None
            }
            n => match self.compared(seed, n).await {
                Ok(best) => {
                    if !best.passed {
                        notes.push(Note::NonePassed);
                    }
                    Some(best)
                }
                Err(sentence) => {
                    notes.push(Note::NotSimulated(sentence));
                    None
                }
            },
        };
        if inflight > 0 {
            notes.push(Note::Answering { requests: inflight });
        }
        Report::new(run, seed, card, best, inflight, highest, notes)
    }

    /// The best of the built-in strategies on this provider with `seed` and
    /// `customers`: the last one asked for again, or simulated now on a blocking thread.
    async fn compared(&self, seed: u64, customers: u32) -> Result<Best, String> {
        let mut last = self.0.compared.lock().await;
        if let Some((key, best)) = last.as_ref() {
            if *key == (seed, customers) {
                return best.clone();
            }
        }
        let provider = self.0.config.provider.clone();
        let best = tokio::task::spawn_blocking(move || {
            built_in_cards(&provider, seed, customers)
                .and_then(|cards| best_of(&cards).ok_or_else(|| "no strategy ran".to_string()))
        })
        .await
        .unwrap_or_else(|e| Err(format!("the simulation stopped: {e}")));
        *last = Some(((seed, customers), best.clone()));
        best
    }

    fn now_us(&self) -> u64 {
        u64::try_from(self.0.origin.elapsed().as_micros()).unwrap_or(u64::MAX)
    }

    /// The limiters' store in Redis, if the server was given one.
    pub fn store(&self) -> Option<&RedisStore> {
        self.0.store.as_ref()
    }
}

/// Serves `service` on `listener` until `shutdown` completes; then lets the requests in
/// flight finish, waits for every admitted charge to complete, and returns the counters.
/// Connections are capped and timed by the service's [`Bounds`] ([`doors::run`]).
pub async fn serve(
    listener: tokio::net::TcpListener,
    service: Service,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<ProviderStats> {
    doors::run(
        listener,
        service.router(),
        service.0.config.bounds,
        shutdown,
    )
    .await?;
    service.settle().await;
    Ok(service.stats())
}

/// A JSON body with a status.
fn json(status: StatusCode, value: &impl Serialize) -> Response {
    let body = serde_json::to_string(value).expect("plain values serialise");
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body + "\n",
    )
        .into_response()
}

/// A 4xx or 5xx with `{"error": "<sentence>"}`.
pub(super) fn error(status: StatusCode, sentence: impl Into<String>) -> Response {
    #[derive(Serialize)]
    struct Error {
        error: String,
    }
    json(
        status,
        &Error {
            error: sentence.into(),
        },
    )
}

fn endpoint_list() -> String {
    ENDPOINTS
        .iter()
        .map(|(e, _)| e.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Anything that is not an endpoint: a file of the app with `--dist`, else a 404.
async fn elsewhere(State(service): State<Service>, request: Request) -> Response {
    let path = request.uri().path().to_string();
    if let Some(dist) = &service.0.config.dist {
        if let Some(res) = dist::file(dist, request).await {
            return res;
        }
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "there is nothing at {}: no file of the app has that name, and the endpoints are {}",
                page::shown(&path),
                endpoint_list()
            ),
        );
    }
    error(
        StatusCode::NOT_FOUND,
        format!(
            "there is nothing at {}; the endpoints are {}",
            page::shown(&path),
            endpoint_list()
        ),
    )
}

/// Refuses a body sent in any transfer coding but chunked (501, as RFC 9112 §6.1
/// allows): `gzip, chunked` would otherwise be read as if it were plain chunks.
async fn plain_transfer_coding(request: Request, next: Next) -> Response {
    let codings: Vec<&[u8]> = request
        .headers()
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .map(<[u8]>::trim_ascii)
        .collect();
    if codings.is_empty() || codings == [b"chunked".as_slice()] {
        return next.run(request).await;
    }
    let mut res = error(
        StatusCode::NOT_IMPLEMENTED,
        "this server takes a body as it is or in plain chunks (Transfer-Encoding: chunked), no other transfer coding",
    );
    res.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    res
}

async fn wrong_method(uri: Uri) -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{} does not take this method; the endpoints are {}",
            page::shown(uri.path()),
            endpoint_list()
        ),
    )
}

/// How the provider takes a charge request: answered at once, or after its work.
enum Answer {
    /// Refused at arrival, with the refusal's headers.
    Now(Status, Vec<(&'static str, String)>),
    /// Admitted: the work completes at the provider's `done_at_us`, the real `done_at`.
    Later {
        work: Work,
        done_at: tokio::time::Instant,
        done_at_us: u64,
    },
}

/// What a charge answer says, beside its status.
#[derive(Serialize)]
struct ChargeAnswer {
    id: u32,
    result: &'static str,
    /// The run it was admitted in ([`ProviderStats::run`]).
    run: u64,
}

fn http_status(status: Status) -> StatusCode {
    StatusCode::from_u16(status.code()).expect("the provider's codes are HTTP codes")
}

/// Reads the whole body within the body timeout and the size limit.
async fn read_body(body: Body, timeout: Duration) -> Result<axum::body::Bytes, Response> {
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY_BYTES)).await {
        Err(_) => {
            let mut res = error(
                StatusCode::REQUEST_TIMEOUT,
                format!("the body did not arrive within {} ms", timeout.as_millis()),
            );
            res.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            Err(res)
        }
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) => {
            let over = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            Err(if over {
                error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the body is over {} KB", MAX_BODY_BYTES / 1024),
                )
            } else {
                error(
                    StatusCode::BAD_REQUEST,
                    format!("the body could not be read: {e}"),
                )
            })
        }
    }
}

async fn charge(State(service): State<Service>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let (desk_handle, run) = service.desk();
    let refuse = |res: Response| {
        lock(&desk_handle).bad_requests += 1;
        res
    };
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap_or("\u{0}"));
    if !may_be_json(content_type) {
        return refuse(error(StatusCode::UNSUPPORTED_MEDIA_TYPE, NOT_JSON_TYPE));
    }
    let body = match read_body(body, service.0.config.bounds.body_timeout).await {
        Ok(b) => b,
        Err(res) => return refuse(res),
    };
    let key_text = match parts
        .headers
        .get("idempotency-key")
        .map(HeaderValue::to_str)
    {
        None => None,
        Some(Ok(k)) if !k.is_empty() && k.len() <= MAX_KEY_BYTES => Some(k.to_string()),
        Some(_) => {
            return refuse(error(
                StatusCode::BAD_REQUEST,
                format!("the idempotency-key header must be 1 to {MAX_KEY_BYTES} visible ASCII characters"),
            ));
        }
    };
    let parsed = read_charge(&body);
    let (request, answer) = {
        let mut guard = lock(&desk_handle);
        let desk = &mut *guard;
        let (customer, print) = match parsed.and_then(|b| {
            let print = BodyPrint::of_charge(b.id, b.amount);
            desk.know(b.id).map(|c| (c, print))
        }) {
            Ok(c) => c,
            Err(sentence) => {
                desk.bad_requests += 1;
                return error(StatusCode::BAD_REQUEST, sentence);
            }
        };
        let now_us = desk.now_us();
        desk.expire_keys(now_us);
        // A key already held is its number; a new one gets a number, stored only if the
        // provider takes the request in and keeps the key.
        let (key, new_text) = match key_text {
            None => (None, None),
            Some(text) => match desk.keys.find(&text) {
                Some(key) => (Some(key), None),
                None if desk.keys.is_full() => {
                    desk.keys_refused += 1;
                    desk.hear(customer, Last::NotFinal, now_us);
                    let wait_us = desk.keys.room_in_us(now_us);
                    let mut res = error(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!(
                            "the idempotency store holds its most keys ({}), each kept {} s; a new key can be stored in {} s",
                            service.0.config.bounds.max_keys,
                            service.0.config.bounds.key_ttl.as_secs(),
                            sim::limiter::ceil_secs(wait_us)
                        ),
                    );
                    put_headers(
                        &mut res,
                        vec![(
                            "retry-after",
                            sim::limiter::ceil_secs(wait_us).max(1).to_string(),
                        )],
                    );
                    return res;
                }
                None => {
                    let provider = &desk.provider;
                    let key = desk.keys.fresh(|k| provider.holds_key(k));
                    (Some(key), Some(text))
                }
            },
        };
        let request = ChargeRequest {
            customer,
            key,
            print,
        };
        let answer = match desk.provider.arrive(now_us, request, &desk.dice) {
            // A refusal is answered at the instant it arrived, with the provider's
            // headers as they stand at that instant.
            Arrival::Refused(status) => {
                desk.arrived(now_us, true);
                // Answered here and now: nothing can stop this answer from being sent.
                desk.hear(customer, Last::of(status), now_us);
                Answer::Now(status, refusal_headers(desk, now_us, status))
            }
            Arrival::Admitted {
                work, done_at_us, ..
            } => {
                desk.arrived(now_us, false);
                desk.hear(customer, Last::Waiting, now_us);
                desk.answering += 1;
                Answer::Later {
                    work,
                    done_at: desk.at(done_at_us),
                    done_at_us,
                }
            }
        };
        if let (Some(text), Some(key)) = (new_text, key) {
            if desk.provider.holds_key(key) {
                desk.keys.store(&text, key, now_us);
            }
        }
        (request, answer)
    };
    let (status, charged, headers) = match answer {
        Answer::Now(status, headers) => (status, false, headers),
        Answer::Later {
            work,
            done_at,
            done_at_us,
        } => {
            // Made before the first await: if the handler is dropped there, the client
            // stopped waiting; if it returns, it heard the answer.
            let mut hearing = Hearing {
                desk: desk_handle.clone(),
                customer: request.customer,
                answer: None,
            };
            // Its own task: the charge completes even if this handler is dropped because
            // the client went away. A 503 of a provider that is down is answered at the
            // completion's instant in the model's time, and its headers with it. The
            // task completes on this run's desk even if a reset has replaced it since.
            let desk_handle = desk_handle.clone();
            let done = tokio::spawn(async move {
                tokio::time::sleep_until(done_at).await;
                let mut desk = lock(&desk_handle);
                let c = desk.provider.complete(request, work);
                desk.completed(done_at_us, c.charged);
                let headers = refusal_headers(&mut desk, done_at_us, c.status);
                (c, headers)
            });
            let answer = match done.await {
                Ok((c, headers)) => (c.status, c.charged, headers),
                Err(_) => (Status::ServerError, false, Vec::new()),
            };
            hearing.answer = Some(answer.0);
            answer
        }
    };
    let mut response = json(
        http_status(status),
        &ChargeAnswer {
            id: request.customer,
            result: result_word(status, charged),
            run,
        },
    );
    put_headers(&mut response, headers);
    response
}

/// What the client of one admitted request heard, noted when this is dropped: the
/// answer, once the handler has it and returns it; or, if hyper drops the handler first
/// (the client closed its connection, e.g. on its own timeout), that the client stopped
/// waiting then.
struct Hearing {
    /// The run's desk the request was admitted at.
    desk: Arc<Mutex<Desk>>,
    customer: u32,
    /// The answer, once the handler has it.
    answer: Option<Status>,
}

impl Drop for Hearing {
    fn drop(&mut self) {
        let mut desk = lock(&self.desk);
        let now_us = desk.now_us();
        desk.answering = desk.answering.saturating_sub(1);
        let last = self.answer.map_or(Last::Abandoned, Last::of);
        desk.hear(self.customer, last, now_us);
    }
}

/// The headers the model's provider writes on a 429 or a 503 answered at `t_us`
/// ([`Provider::refusal_headers`]); none on any other answer, as in the model.
fn refusal_headers(desk: &mut Desk, t_us: u64, status: Status) -> Vec<(&'static str, String)> {
    match status {
        Status::TooManyRequests | Status::Overloaded => desk.provider.refusal_headers(t_us, status),
        _ => Vec::new(),
    }
}

/// Adds the header writer's headers to a response.
fn put_headers(response: &mut Response, headers: Vec<(&'static str, String)>) {
    let h = response.headers_mut();
    for (name, value) in headers {
        h.insert(
            HeaderName::from_bytes(name.as_bytes()).expect("the header writer's names are tokens"),
            HeaderValue::from_str(&value).expect("the header writer writes ASCII"),
        );
    }
}

async fn stats(State(service): State<Service>) -> Response {
    json(StatusCode::OK, &service.stats())
}

/// How `/report` answers: JSON, or a page for a browser.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Html,
}

async fn report(State(service): State<Service>, headers: HeaderMap, uri: Uri) -> Response {
    let mut customers = None;
    let mut format = None;
    for (k, v) in page::pairs_of(uri.query().unwrap_or("")) {
        match k.as_str() {
            "customers" if customers.is_some() => {
                return error(StatusCode::BAD_REQUEST, "give customers once");
            }
            "format" if format.is_some() => {
                return error(StatusCode::BAD_REQUEST, "give format once");
            }
            "customers" => match page::parse_count(&v, 1, u64::from(MAX_CUSTOMERS)) {
                Ok(n) => customers = Some(u32::try_from(n).unwrap_or(u32::MAX)),
                Err(e) => {
                    return error(
                        StatusCode::BAD_REQUEST,
                        format!("customers is how many customers the card is for: {e}"),
                    )
                }
            },
            "format" => match v.as_str() {
                "json" => format = Some(Format::Json),
                "html" => format = Some(Format::Html),
                other => {
                    return error(
                        StatusCode::BAD_REQUEST,
                        format!("format is json or html, not {}", page::shown(other)),
                    )
                }
            },
            other => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "/report takes only ?customers=N and ?format=json|html, not {}",
                        page::shown(other)
                    ),
                )
            }
        }
    }
    let format = format.unwrap_or(if prefers_html(&headers) {
        Format::Html
    } else {
        Format::Json
    });
    let report = service.report(customers).await;
    let mut response = match format {
        Format::Json => json(StatusCode::OK, &report),
        Format::Html => (
            StatusCode::OK,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            )],
            page::shared::report::report_markup(&report.view()).into_string(),
        )
            .into_response(),
    };
    // The same address answers JSON or a page by the Accept header.
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept"));
    response
}

/// True if the request's `Accept` prefers `text/html` to `application/json`: a
/// browser's does (`text/html,…,*/*;q=0.8`); none, `*/*` (curl, fetch) or a tie does
/// not. Each type's weight is the `q` of the most specific range that matches it.
fn prefers_html(headers: &HeaderMap) -> bool {
    let ranges: Vec<&str> = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    // The weight in thousandths, as RFC 9110 §12.4.2 writes it (three decimals).
    let weight = |kind: &str, sub: &str| -> u32 {
        let mut best: Option<(u8, u32)> = None;
        for range in &ranges {
            let mut parts = range.split(';');
            let media = parts.next().unwrap_or("").trim();
            let Some((k, s)) = media.split_once('/') else {
                continue;
            };
            let specific = match (k.trim(), s.trim()) {
                (k, s) if k.eq_ignore_ascii_case(kind) && s.eq_ignore_ascii_case(sub) => 2,
                (k, "*") if k.eq_ignore_ascii_case(kind) => 1,
                ("*", "*") => 0,
                _ => continue,
            };
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
                .map(thousandths)
                .next()
                .unwrap_or(1_000);
            if best.is_none_or(|(b, _)| specific > b) {
                best = Some((specific, q));
            }
        }
        best.map_or(0, |(_, q)| q)
    };
    weight("text", "html") > weight("application", "json")
}

/// A `q` value (`0`, `0.8`, `1.000`) in thousandths; anything else weighs 0.
fn thousandths(q: &str) -> u32 {
    let (whole, frac) = q.split_once('.').unwrap_or((q, ""));
    let digits = frac.len() <= 3 && frac.bytes().all(|b| b.is_ascii_digit());
    match (whole, digits) {
        ("0", true) => format!("{frac:0<3}").parse().unwrap_or(0),
        ("1", true) if frac.bytes().all(|b| b == b'0') => 1_000,
        _ => 0,
    }
}

async fn reset(State(service): State<Service>, uri: Uri) -> Response {
    let mut seed = service.0.config.seed;
    for (k, v) in page::pairs_of(uri.query().unwrap_or("")) {
        match k.as_str() {
            "seed" => match page::parse_seed(&v) {
                Ok(s) => seed = s,
                Err(sentence) => return error(StatusCode::BAD_REQUEST, sentence),
            },
            other => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!("/reset takes only ?seed=N, not {}", page::shown(other)),
                )
            }
        }
    }
    let run = match service.reset(seed) {
        Ok(run) => run,
        Err(sentence) => return error(StatusCode::INTERNAL_SERVER_ERROR, sentence),
    };
    if let Some(store) = service.store() {
        if let Err(e) = store.clear().await {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "run {run} started, but the limiters' state in Redis is not cleared: the store at {} {e}",
                    page::shown(&store.config().url)
                ),
            );
        }
    }
    #[derive(Serialize)]
    struct Reset {
        reset: bool,
        seed: u64,
        run: u64,
    }
    json(
        StatusCode::OK,
        &Reset {
            reset: true,
            seed,
            run,
        },
    )
}

/// Which limiter an endpoint asks.
#[derive(Clone, Copy)]
enum Which {
    Fixed,
    Sliding,
    Bucket,
    Counter,
    Queue,
    Nodelay,
    Gcra,
    Inflight,
    Global,
}

/// Answers a limiter endpoint, after the request's wait in the queue (`/queue`) or its
/// service time (`/inflight`, when admitted).
async fn limited(service: &Service, headers: &HeaderMap, which: Which) -> Response {
    let (response, hold_us) = match service.store() {
        None => decided(service, headers, which),
        Some(store) => decided_in(store, service, headers, which).await,
    };
    if hold_us > 0 {
        tokio::time::sleep(Duration::from_micros(hold_us)).await;
    }
    response
}

/// The caller a limiter request counts against: its `x-api-key`, or `anonymous`; none
/// for a key that is too long or not visible ASCII ([`bad_key`] answers it).
fn caller(headers: &HeaderMap) -> Option<&str> {
    match headers.get("x-api-key").map(HeaderValue::to_str) {
        None => Some("anonymous"),
        Some(Ok(k)) if k.len() <= MAX_KEY_BYTES => Some(k),
        Some(_) => None,
    }
}

/// The answer to an `x-api-key` that [`caller`] refuses.
fn bad_key() -> (Response, u64) {
    let sentence =
        format!("the x-api-key header must be at most {MAX_KEY_BYTES} visible ASCII characters");
    (error(StatusCode::BAD_REQUEST, sentence), 0)
}

impl Which {
    /// The core's limiter this endpoint asks, and whose requests share it.
    fn limiter(self) -> (LimiterKind, Scope) {
        match self {
            Which::Fixed => (LimiterKind::Fixed, Scope::PerKey),
            Which::Sliding => (LimiterKind::Sliding, Scope::PerKey),
            Which::Bucket => (LimiterKind::Bucket, Scope::PerKey),
            Which::Counter => (LimiterKind::Counter, Scope::PerKey),
            Which::Queue => (LimiterKind::Queue, Scope::PerKey),
            Which::Nodelay => (LimiterKind::Nodelay, Scope::PerKey),
            Which::Gcra => (LimiterKind::Gcra, Scope::PerKey),
            Which::Inflight => (LimiterKind::Inflight, Scope::PerKey),
            Which::Global => (LimiterKind::Bucket, Scope::Global),
        }
    }
}

/// The answer of a limiter endpoint decided in Redis, and how long to hold it: as
/// [`decided`] answers, or by `--store-fail` when Redis cannot decide.
async fn decided_in(
    store: &RedisStore,
    service: &Service,
    headers: &HeaderMap,
    which: Which,
) -> (Response, u64) {
    let Some(key) = caller(headers) else {
        return bad_key();
    };
    let (kind, scope) = which.limiter();
    let now_us = service.0.origin_epoch_us + service.now_us();
    match store.decide(kind, scope, key, now_us).await {
        Ok((decision, delay_us)) => answered(service.0.config.limit, which, decision, delay_us),
        Err(e) => (store_failed(store, &e), 0),
    }
}

/// The answer when Redis could not decide: a 503 with the reason (`--store-fail
/// closed`), or the request admitted with a warning (`open`).
fn store_failed(store: &RedisStore, e: &StoreError) -> Response {
    let url = page::shown(&store.config().url);
    match store.config().fail {
        StoreFail::Closed => {
            let mut res = error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the limiters' store at {url} {e}; this server refuses rather than admit without a limit (--store-fail closed)"
                ),
            );
            put_headers(&mut res, vec![("retry-after", "1".to_string())]);
            res
        }
        StoreFail::Open => {
            let mut res = (StatusCode::OK, "ok\n").into_response();
            put_headers(
                &mut res,
                vec![(
                    "ratelab-store",
                    "unavailable; admitted without a limit (--store-fail open)".to_string(),
                )],
            );
            res
        }
    }
}

/// The answer of a limiter endpoint, and how long to hold it before sending it.
fn decided(service: &Service, headers: &HeaderMap, which: Which) -> (Response, u64) {
    let now_us = service.now_us();
    let Some(key) = caller(headers) else {
        return bad_key();
    };
    let policy = service.0.config.limit;
    let max_callers = service.0.config.bounds.max_callers;
    let decision = {
        let mut state = lock(&service.0.state);
        let limiters = &mut state.limiters;
        limiters.sweep_if_due(now_us, policy.window_us);
        let next_sweep_us = (limiters.swept_us + policy.window_us).saturating_sub(now_us);
        let limiter = limiters.get(which);
        if !limiter.knows(key) && limiter.callers() >= max_callers {
            let wait_s = sim::limiter::ceil_secs(next_sweep_us).max(1);
            let mut res = error(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "this limiter remembers at most {max_callers} callers and all of them are inside their window; callers who have gone are forgotten in {wait_s} s"
                ),
            );
            put_headers(&mut res, vec![("retry-after", wait_s.to_string())]);
            return (res, 0);
        }
        limiter.check_delayed(now_us, key, 1)
    };
    let Ok((decision, delay_us)) = decision else {
        unreachable!("a cost of 1 is always within a limiter's capacity")
    };
    answered(policy, which, decision, delay_us)
}

/// The answer to a decided limiter request, and how long to hold it.
fn answered(policy: Policy, which: Which, decision: Decision, delay_us: u64) -> (Response, u64) {
    let mut response = if decision.allowed {
        (StatusCode::OK, "ok\n").into_response()
    } else {
        (StatusCode::TOO_MANY_REQUESTS, "slow down\n").into_response()
    };
    put_headers(&mut response, response_headers(policy, &decision));
    let hold_us = match which {
        Which::Inflight if decision.allowed => DEFAULT_HOLD_US,
        _ => delay_us,
    };
    (response, hold_us)
}

async fn fixed(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Fixed).await
}

async fn sliding(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Sliding).await
}

async fn bucket(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Bucket).await
}

async fn global(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Global).await
}

async fn counter(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Counter).await
}

async fn queue(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Queue).await
}

async fn nodelay(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Nodelay).await
}

async fn gcra(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Gcra).await
}

async fn inflight(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Inflight).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_client_heard_costs_12_bytes_a_customer() {
        assert_eq!(std::mem::size_of::<Heard>(), 12);
    }

    #[test]
    fn a_browser_prefers_the_page_and_fetch_and_curl_get_json() {
        let prefers = |accept: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ACCEPT, HeaderValue::from_str(accept).unwrap());
            prefers_html(&h)
        };
        assert!(prefers(
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
        ));
        assert!(!prefers("*/*"));
        assert!(!prefers("application/json"));
        assert!(!prefers("text/html;q=0.5, application/json"));
        assert!(prefers("text/html, application/json;q=0.999"));
        assert!(!prefers("text/html;q=0, */*"));
        assert!(!prefers("text/html;q=oops"));
        assert!(!prefers_html(&HeaderMap::new()));
        assert_eq!(
            [thousandths("1"), thousandths("0.8"), thousandths("0.125")],
            [1_000, 800, 125]
        );
        assert_eq!([thousandths("2"), thousandths("0.1234")], [0, 0]);
    }
}

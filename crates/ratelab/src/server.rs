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
use sim::limiter::{
    ConcurrencyLimit, FixedWindow, Gcra, LeakyQueue, Limiter, Policy, Scope, SlidingCounter,
    SlidingLog, TokenBucket,
};
use sim::provider::{Arrival, BodyPrint, ChargeRequest, Provider, ProviderConfig, Status, Work};
use sim::rng::KeyedDraws;
use sim::Stats;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The largest request body the server reads; a larger one gets 413.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The longest idempotency key the server stores.
pub const MAX_KEY_BYTES: usize = 255;

/// The most one caller of a per-caller limiter costs in memory, in bytes: its
/// `x-api-key` (up to [`MAX_KEY_BYTES`]) and its state in the limiter's map, allocator
/// rounding included; the sliding log adds up to 16 B per request inside its window
/// (`tests/store_bytes.rs` measures it).
pub const CALLER_BYTES_MAX: usize = 512;

/// The endpoints, as the server lists them when it starts.
pub const ENDPOINTS: [(&str, &str); 12] = [
    (
        "POST /charge",
        "{\"id\": <customer>, \"amount\": <cents>}, optional idempotency-key header",
    ),
    (
        "GET  /stats",
        "the provider's counters and the incident's figures as JSON",
    ),
    (
        "POST /reset",
        "clear the counters, the ledger, the keys and the limiters, restart the provider's clock [?seed=N]",
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

/// The provider with its dice, its clock's origin, and the key texts it has numbered.
struct Desk {
    provider: Provider,
    /// The instant the provider's time is counted from.
    origin: Instant,
    dice: KeyedDraws,
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
            dice: KeyedDraws::from_seed(seed),
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
    state: Mutex<Current>,
}

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
        let desk = Desk::new(&config, config.seed, origin);
        let limiters = Limiters::new(config.limit, 0)?;
        Ok(Self(Arc::new(Shared {
            state: Mutex::new(Current {
                run: 0,
                desk: Arc::new(Mutex::new(desk)),
                limiters,
            }),
            config,
            origin,
        })))
    }

    /// The routes, and with `--dist` the app's files.
    pub fn router(&self) -> Router {
        Router::new()
            .route("/charge", post(charge))
            .route("/stats", get(stats))
            .route("/reset", post(reset))
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

    fn now_us(&self) -> u64 {
        u64::try_from(self.0.origin.elapsed().as_micros()).unwrap_or(u64::MAX)
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

/// A charge request's body, once read.
struct ChargeBody {
    id: u64,
    /// The amount in cents, if given.
    amount: Option<u64>,
}

/// The fields of a charge body that are read, each at most once.
#[derive(Deserialize)]
struct ChargeFields {
    id: Option<serde_json::Value>,
    amount: Option<serde_json::Value>,
}

/// Reads `{"id": <customer>, "amount": <cents>}`: the id is required, the amount may be
/// left out but must be a whole number of cents when given, and neither may be given
/// twice (`{"id": 3, "id": 4}` names two customers).
fn read_charge(body: &[u8]) -> Result<ChargeBody, String> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        if body.iter().all(u8::is_ascii_whitespace) {
            "the body is empty; send {\"id\": <customer>, \"amount\": <cents>}".to_string()
        } else {
            format!("the body is not JSON ({e}); send {{\"id\": <customer>, \"amount\": <cents>}}")
        }
    })?;
    if !value.is_object() {
        return Err(format!(
            "the body must be a JSON object like {{\"id\": 1, \"amount\": 1000}}, not {}",
            page::shown(&value.to_string())
        ));
    }
    // The value above keeps only the last of a repeated field; reading the fields
    // themselves refuses a repeat.
    let fields: ChargeFields = serde_json::from_slice(body).map_err(|e| {
        let said = e.to_string();
        match said.split('`').nth(1) {
            Some(field) if said.starts_with("duplicate field") => {
                format!("the body gives {field} twice; give each field once")
            }
            _ => format!("the body is not a charge ({said})"),
        }
    })?;
    let id = match fields.id.as_ref() {
        None => return Err("the body has no id: which customer?".to_string()),
        Some(v) => v.as_u64().ok_or_else(|| {
            format!(
                "id must be a whole number from 1, not {}",
                page::shown(&v.to_string())
            )
        })?,
    };
    let amount = match fields.amount.as_ref() {
        None => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| {
            format!(
                "amount must be a whole number of cents, not {}",
                page::shown(&v.to_string())
            )
        })?),
    };
    Ok(ChargeBody { id, amount })
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

fn result_word(status: Status, charged: bool) -> &'static str {
    match status {
        Status::Ok if charged => "charged",
        Status::Ok => "already charged",
        Status::Declined => "card declined",
        Status::InProgress => "in progress",
        Status::KeyReused => "key reused with another body",
        Status::TooManyRequests => "rate limited",
        Status::ServerError => "server error",
        Status::Overloaded => "overloaded",
    }
}

fn http_status(status: Status) -> StatusCode {
    StatusCode::from_u16(status.code()).expect("the provider's codes are HTTP codes")
}

/// True if the request's body may be read as JSON: its type says JSON
/// (`application/json`, or any `+json` type), says plain text (`text/plain`, what a bare
/// `fetch` with a string body sends), or is not given. Many real APIs read such a body
/// as JSON; a body of any other type is refused with 415.
fn may_be_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return true;
    };
    let Ok(value) = value.to_str() else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or("").trim();
    let (kind, sub) = essence.split_once('/').unwrap_or(("", ""));
    let json = kind.eq_ignore_ascii_case("application")
        && (sub.eq_ignore_ascii_case("json")
            || sub
                .len()
                .checked_sub(5)
                .and_then(|at| sub.get(at..))
                .is_some_and(|end| end.eq_ignore_ascii_case("+json")));
    let plain = kind.eq_ignore_ascii_case("text") && sub.eq_ignore_ascii_case("plain");
    json || plain
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
    if !may_be_json(&parts.headers) {
        return refuse(error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a charge's body is JSON: send it with Content-Type: application/json (a body sent as text/plain, or with no type, is read as JSON too)",
        ));
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
            desk.provider
                .know_customer(b.id, sim::budget::RUN_MAX_CUSTOMERS)
                .map(|c| (c, print))
                .map_err(|_| {
                    format!(
                        "id must be a customer from 1 to {}, not {}",
                        sim::budget::RUN_MAX_CUSTOMERS,
                        b.id
                    )
                })
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
                Answer::Now(status, refusal_headers(desk, now_us, status))
            }
            Arrival::Admitted {
                work, done_at_us, ..
            } => {
                desk.arrived(now_us, false);
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
            match done.await {
                Ok((c, headers)) => (c.status, c.charged, headers),
                Err(_) => (Status::ServerError, false, Vec::new()),
            }
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
    let limiters = match Limiters::new(service.0.config.limit, service.now_us()) {
        Ok(l) => l,
        Err(sentence) => return error(StatusCode::INTERNAL_SERVER_ERROR, sentence),
    };
    let desk = Desk::new(&service.0.config, seed, Instant::now());
    // One step under one lock: the next request meets the new provider and the new
    // limiters together. A charge admitted before completes on its own run's desk.
    let run = {
        let mut state = lock(&service.0.state);
        state.run += 1;
        state.desk = Arc::new(Mutex::new(desk));
        state.limiters = limiters;
        state.run
    };
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
    let (response, hold_us) = decided(service, headers, which);
    if hold_us > 0 {
        tokio::time::sleep(Duration::from_micros(hold_us)).await;
    }
    response
}

/// The answer of a limiter endpoint, and how long to hold it before sending it.
fn decided(service: &Service, headers: &HeaderMap, which: Which) -> (Response, u64) {
    let now_us = service.now_us();
    let key = match headers.get("x-api-key").map(HeaderValue::to_str) {
        None => "anonymous",
        Some(Ok(k)) if k.len() <= MAX_KEY_BYTES => k,
        Some(_) => {
            return (
                error(
                    StatusCode::BAD_REQUEST,
                    format!(
                    "the x-api-key header must be at most {MAX_KEY_BYTES} visible ASCII characters"
                ),
                ),
                0,
            )
        }
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

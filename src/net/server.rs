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
//! - `GET /fixed`, `/sliding`, `/bucket` (one allowance per `x-api-key`, `anonymous`
//!   without one) and `/global` (one token bucket for everyone) answer `ok` or
//!   `slow down` with the headers of [`response_headers`].
//!
//! The time the limiters are given is the microseconds since the server's origin, which
//! is set to the last wall-clock instant that was a whole number of rate windows since
//! the Unix epoch: the fixed window's boundaries then fall on the wall clock's whole
//! seconds, where a client that aims at them (the second article's burst script) expects
//! them. The provider's clock starts there too, and again at each `/reset`: a run that
//! resets first (as `charges --http` does) meets the provider's incident at the
//! scenario's `incidentStartMs` from its own start, as in the simulation.

use crate::page;
use crate::sim::headers::response_headers;
use crate::sim::incident::IncidentMeter;
use crate::sim::limiter::{FixedWindow, Limiter, Policy, Scope, SlidingLog, TokenBucket};
use crate::sim::provider::{
    Arrival, ChargeRequest, IdempotencyKey, Provider, ProviderConfig, Status, Work,
};
use crate::sim::rng::KeyedDraws;
use crate::sim::Stats;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::future::Future;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The largest request body the server reads; a larger one gets 413.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// The longest idempotency key the server stores.
pub const MAX_KEY_BYTES: usize = 255;

/// The endpoints, as the server lists them when it starts.
pub const ENDPOINTS: [(&str, &str); 7] = [
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
    ("GET  /global", "one token bucket for everyone"),
];

/// What the server runs with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeConfig {
    /// The provider's rules (the scenario's provider parameters).
    pub provider: ProviderConfig,
    /// The seed of the provider's dice (until a `/reset?seed=N`).
    pub seed: u64,
    /// What each limiter endpoint allows: the second article's 10 per 1000 ms by default.
    pub limit: Policy,
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
}

impl ProviderStats {
    fn of(desk: &Desk) -> Self {
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
    keys: BTreeMap<String, IdempotencyKey>,
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
    fn new(config: &ProviderConfig, seed: u64, origin: Instant) -> Self {
        Self {
            provider: Provider::new(config.clone(), 0),
            origin,
            dice: KeyedDraws::from_seed(seed),
            keys: BTreeMap::new(),
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

    /// The key for this text: the same key every time the same text comes.
    fn key(&mut self, text: &str) -> IdempotencyKey {
        let next = u32::try_from(self.keys.len() + 1)
            .ok()
            .and_then(NonZeroU32::new)
            .expect("fewer than 4 billion keys");
        *self
            .keys
            .entry(text.to_string())
            .or_insert(IdempotencyKey::numbered(next))
    }
}

/// The four limiter endpoints' limiters.
struct Limiters {
    fixed: FixedWindow,
    sliding: SlidingLog,
    bucket: TokenBucket,
    global: TokenBucket,
}

impl Limiters {
    fn new(policy: Policy) -> Result<Self, String> {
        let e = |e: crate::sim::limiter::LimiterError| e.to_string();
        Ok(Self {
            fixed: FixedWindow::new(policy, Scope::PerKey).map_err(e)?,
            sliding: SlidingLog::new(policy, Scope::PerKey).map_err(e)?,
            bucket: TokenBucket::new(policy.limit, policy, Scope::PerKey).map_err(e)?,
            global: TokenBucket::new(policy.limit, policy, Scope::Global).map_err(e)?,
        })
    }
}

struct Shared {
    config: ServeConfig,
    origin: Instant,
    desk: Mutex<Desk>,
    limiters: Mutex<Limiters>,
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
        Ok(Self(Arc::new(Shared {
            desk: Mutex::new(Desk::new(&config.provider, config.seed, origin)),
            limiters: Mutex::new(Limiters::new(config.limit)?),
            config,
            origin,
        })))
    }

    /// The routes.
    pub fn router(&self) -> Router {
        Router::new()
            .route("/charge", post(charge))
            .route("/stats", get(stats))
            .route("/reset", post(reset))
            .route("/fixed", get(fixed))
            .route("/sliding", get(sliding))
            .route("/bucket", get(bucket))
            .route("/global", get(global))
            .fallback(not_found)
            .method_not_allowed_fallback(wrong_method)
            .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
            .with_state(self.clone())
    }

    /// The provider's counters now.
    pub fn stats(&self) -> ProviderStats {
        ProviderStats::of(&lock(&self.0.desk))
    }

    /// Waits until no admitted charge is still being processed (the ones whose clients
    /// went away included), so the counters are final.
    pub async fn settle(&self) {
        while lock(&self.0.desk).provider.inflight() > 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    fn now_us(&self) -> u64 {
        u64::try_from(self.0.origin.elapsed().as_micros()).unwrap_or(u64::MAX)
    }
}

/// Serves `service` on `listener` until `shutdown` completes; then lets the requests in
/// flight finish, waits for every admitted charge to complete, and returns the counters.
pub async fn serve(
    listener: tokio::net::TcpListener,
    service: Service,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<ProviderStats> {
    axum::serve(listener, service.router())
        .with_graceful_shutdown(shutdown)
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

/// A 4xx with `{"error": "<sentence>"}`.
fn error(status: StatusCode, sentence: impl Into<String>) -> Response {
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

async fn not_found(uri: Uri) -> Response {
    error(
        StatusCode::NOT_FOUND,
        format!(
            "there is nothing at {}; the endpoints are {}",
            page::shown(uri.path()),
            endpoint_list()
        ),
    )
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
}

/// Reads `{"id": <customer>, "amount": <cents>}`: the id is required, the amount may be
/// left out but must be a whole number of cents when given.
fn read_charge(body: &[u8]) -> Result<ChargeBody, String> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        if body.iter().all(u8::is_ascii_whitespace) {
            "the body is empty; send {\"id\": <customer>, \"amount\": <cents>}".to_string()
        } else {
            format!("the body is not JSON ({e}); send {{\"id\": <customer>, \"amount\": <cents>}}")
        }
    })?;
    let serde_json::Value::Object(fields) = value else {
        return Err(format!(
            "the body must be a JSON object like {{\"id\": 1, \"amount\": 1000}}, not {}",
            page::shown(&value.to_string())
        ));
    };
    let id = match fields.get("id") {
        None => return Err("the body has no id: which customer?".to_string()),
        Some(v) => v.as_u64().ok_or_else(|| {
            format!(
                "id must be a whole number from 1, not {}",
                page::shown(&v.to_string())
            )
        })?,
    };
    if let Some(v) = fields.get("amount") {
        if v.as_u64().is_none() {
            return Err(format!(
                "amount must be a whole number of cents, not {}",
                page::shown(&v.to_string())
            ));
        }
    }
    Ok(ChargeBody { id })
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
}

fn result_word(status: Status, charged: bool) -> &'static str {
    match status {
        Status::Ok if charged => "charged",
        Status::Ok => "already charged",
        Status::Declined => "card declined",
        Status::InProgress => "in progress",
        Status::TooManyRequests => "rate limited",
        Status::ServerError => "server error",
        Status::Overloaded => "overloaded",
    }
}

fn http_status(status: Status) -> StatusCode {
    StatusCode::from_u16(status.code()).expect("the provider's codes are HTTP codes")
}

async fn charge(
    State(service): State<Service>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(b) => b,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            lock(&service.0.desk).bad_requests += 1;
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the body is over {} KB", MAX_BODY_BYTES / 1024),
            );
        }
        Err(rejection) => {
            lock(&service.0.desk).bad_requests += 1;
            return error(rejection.status(), rejection.body_text());
        }
    };
    let key_text = match headers.get("idempotency-key").map(HeaderValue::to_str) {
        None => None,
        Some(Ok(k)) if !k.is_empty() && k.len() <= MAX_KEY_BYTES => Some(k.to_string()),
        Some(_) => {
            lock(&service.0.desk).bad_requests += 1;
            return error(
                StatusCode::BAD_REQUEST,
                format!("the idempotency-key header must be 1 to {MAX_KEY_BYTES} visible ASCII characters"),
            );
        }
    };
    let parsed = read_charge(&body);
    let (request, answer) = {
        let mut desk = lock(&service.0.desk);
        let customer = match parsed.map(|b| b.id).and_then(|id| {
            desk.provider.know_customer(id).map_err(|_| {
                format!(
                    "id must be a customer from 1 to {}, not {id}",
                    crate::sim::budget::RUN_MAX_CUSTOMERS
                )
            })
        }) {
            Ok(c) => c,
            Err(sentence) => {
                desk.bad_requests += 1;
                return error(StatusCode::BAD_REQUEST, sentence);
            }
        };
        let key = key_text.map(|k| desk.key(&k));
        let request = ChargeRequest { customer, key };
        let desk = &mut *desk;
        let now_us = desk.now_us();
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
            // completion's instant in the model's time, and its headers with it.
            let s = service.clone();
            let done = tokio::spawn(async move {
                tokio::time::sleep_until(done_at).await;
                let mut desk = lock(&s.0.desk);
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
    let limiters = match Limiters::new(service.0.config.limit) {
        Ok(l) => l,
        Err(sentence) => return error(StatusCode::INTERNAL_SERVER_ERROR, sentence),
    };
    // A charge still being processed would complete against the new ledger: wait for
    // every one first, so the old run's counters are whole and the new run starts empty.
    service.settle().await;
    *lock(&service.0.desk) = Desk::new(&service.0.config.provider, seed, Instant::now());
    *lock(&service.0.limiters) = limiters;
    #[derive(Serialize)]
    struct Reset {
        reset: bool,
        seed: u64,
    }
    json(StatusCode::OK, &Reset { reset: true, seed })
}

/// Which limiter an endpoint asks.
#[derive(Clone, Copy)]
enum Which {
    Fixed,
    Sliding,
    Bucket,
    Global,
}

fn limited(service: &Service, headers: &HeaderMap, which: Which) -> Response {
    let now_us = service.now_us();
    let key = match headers.get("x-api-key").map(HeaderValue::to_str) {
        None => "anonymous",
        Some(Ok(k)) if k.len() <= MAX_KEY_BYTES => k,
        Some(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!(
                    "the x-api-key header must be at most {MAX_KEY_BYTES} visible ASCII characters"
                ),
            )
        }
    };
    let decision = {
        let mut l = lock(&service.0.limiters);
        let limiter: &mut dyn Limiter = match which {
            Which::Fixed => &mut l.fixed,
            Which::Sliding => &mut l.sliding,
            Which::Bucket => &mut l.bucket,
            Which::Global => &mut l.global,
        };
        limiter.check(now_us, key, 1)
    };
    let Ok(decision) = decision else {
        unreachable!("a cost of 1 is always within a limiter's capacity")
    };
    let mut response = if decision.allowed {
        (StatusCode::OK, "ok\n").into_response()
    } else {
        (StatusCode::TOO_MANY_REQUESTS, "slow down\n").into_response()
    };
    put_headers(
        &mut response,
        response_headers(service.0.config.limit, &decision),
    );
    response
}

async fn fixed(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Fixed)
}

async fn sliding(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Sliding)
}

async fn bucket(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Bucket)
}

async fn global(State(s): State<Service>, h: HeaderMap) -> Response {
    limited(&s, &h, Which::Global)
}

//! The limiters' state in Redis: one decision is one Lua script called by its hash
//! (`EVALSHA`; loaded with `SCRIPT LOAD` at the start and again whenever Redis answers
//! `NOSCRIPT`, as after a restart), or in the read-then-write mode a `GET` and a `SET`.
//!
//! Every call is timed ([`CALL_TIMEOUT`]), so no request waits on a Redis that is gone
//! or silent for longer than that. The connection is made on first use and remade by
//! the `redis` crate's connection manager with a bounded backoff when it breaks. When a
//! decision cannot be had, the server answers by `--store-fail`; the first failure after
//! a success writes one line to the log, and the first success after a failure another.

use super::{
    script_args, state_key, RedisConfig, ScriptName, Shape, StateText, StoreMode, KEY_PREFIX,
};
use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};
use ::redis::{Client, RedisError, Script};
use page::shared::words::Words;
use sim::limiter::concurrency::DEFAULT_HOLD_US;
use sim::limiter::drain::{AsBucket, AsGcra, AsQueue, DrainRule};
use sim::limiter::LimiterKind;
use sim::limiter::{
    ConcurrencyLimit, CounterRule, Decision, FixedWindow, FlightRule, Gcra, LeakyQueue, LogRule,
    Policy, Rule, Scope, SlidingCounter, SlidingLog, TokenBucket, WindowRule,
};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest one decision (its calls to Redis together) may take before the request
/// is answered without it.
pub const CALL_TIMEOUT: Duration = Duration::from_millis(1_000);

/// The longest one connection attempt, and one reply on a connection, may take.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(500);

/// Why Redis could not decide a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// No connection, or no answer in time.
    Unreachable(String),
    /// Redis refused the write: out of memory under `noeviction`.
    Full(String),
    /// An answer that is not what a Redis running the scripts says, or a state no
    /// limiter wrote.
    Garbled(String),
    /// Any other refusal by Redis (read-only replica, authentication, …).
    Refused(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Unreachable(e) => write!(f, "cannot be reached ({e})"),
            StoreError::Full(e) => write!(f, "is full and refuses to store more ({e})"),
            StoreError::Garbled(e) => {
                write!(f, "answered something that is not a limiter's state ({e})")
            }
            StoreError::Refused(e) => write!(f, "refused the decision ({e})"),
        }
    }
}

impl StoreError {
    /// The error `e` is, by what it says.
    fn of(e: &RedisError) -> Self {
        // On one line and not too long: it goes into a sentence and the log.
        let mut text = e
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if text.chars().count() > 200 {
            text = text.chars().take(200).collect::<String>() + "…";
        }
        match e.code() {
            Some("OOM") => return StoreError::Full(text),
            Some("GARBLED") => return StoreError::Garbled(text),
            _ => {}
        }
        if e.is_io_error()
            || e.is_timeout()
            || e.is_connection_refusal()
            || e.is_connection_dropped()
        {
            return StoreError::Unreachable(text);
        }
        match e.kind() {
            ::redis::ErrorKind::Parse | ::redis::ErrorKind::UnexpectedReturnType => {
                StoreError::Garbled(text)
            }
            _ => StoreError::Refused(text),
        }
    }
}

/// The core's rules, one of each limiter the server offers, built as the in-memory
/// server builds them (`LimiterKind::build`).
struct Rules {
    fixed: WindowRule,
    sliding: LogRule,
    bucket: DrainRule<AsBucket>,
    counter: CounterRule,
    queue: DrainRule<AsQueue>,
    nodelay: DrainRule<AsQueue>,
    gcra: DrainRule<AsGcra>,
    inflight: FlightRule,
}

impl Rules {
    fn new(policy: Policy) -> Result<Self, String> {
        let e = |e: sim::limiter::LimiterError| e.sentence();
        let queued = policy.limit - 1;
        Ok(Self {
            fixed: *FixedWindow::new(policy, Scope::PerKey).map_err(e)?.rule(),
            sliding: *SlidingLog::new(policy, Scope::PerKey).map_err(e)?.rule(),
            bucket: *TokenBucket::new(policy.limit, policy, Scope::PerKey)
                .map_err(e)?
                .rule(),
            counter: *SlidingCounter::new(policy, Scope::PerKey)
                .map_err(e)?
                .rule(),
            queue: *LeakyQueue::new(policy, queued, false, Scope::PerKey)
                .map_err(e)?
                .rule(),
            nodelay: *LeakyQueue::new(policy, queued, true, Scope::PerKey)
                .map_err(e)?
                .rule(),
            gcra: *Gcra::new(policy, policy.limit, Scope::PerKey)
                .map_err(e)?
                .rule(),
            inflight: *ConcurrencyLimit::new(policy, DEFAULT_HOLD_US, Scope::PerKey)
                .map_err(e)?
                .rule(),
        })
    }
}

/// The limiters' state in one Redis.
pub struct RedisStore {
    config: RedisConfig,
    policy: Policy,
    client: Client,
    connection: tokio::sync::OnceCell<ConnectionManager>,
    rules: Rules,
    /// Each script's source and hash, in [`ScriptName::ALL`]'s order.
    scripts: Vec<(String, String)>,
    /// False from the first failure until the next success (each change logs a line).
    up: AtomicBool,
    /// While Redis cannot be reached: when to try it again, the wait after that, and
    /// what the last try met. Until then a request is answered at once without a call.
    backoff: Mutex<Option<Backoff>>,
}

/// The wait between tries while Redis cannot be reached: from [`BACKOFF_MIN`], doubling
/// up to [`BACKOFF_MAX`].
struct Backoff {
    next_try: Instant,
    wait: Duration,
    last: StoreError,
}

/// The first wait before Redis is tried again after it could not be reached.
const BACKOFF_MIN: Duration = Duration::from_millis(100);

/// The longest wait between two tries.
const BACKOFF_MAX: Duration = Duration::from_millis(1_000);

impl RedisStore {
    /// A store at `config.url` for limiters of `policy`; nothing is connected yet.
    pub fn new(config: RedisConfig, policy: Policy) -> Result<Self, String> {
        super::check_policy(policy)?;
        let client = Client::open(config.url.as_str())
            .map_err(|e| format!("{} is not a Redis address: {e}", page::shown(&config.url)))?;
        let scripts = ScriptName::ALL
            .iter()
            .map(|s| {
                let source = s.source();
                let hash = Script::new(&source).get_hash().to_string();
                (source, hash)
            })
            .collect();
        Ok(Self {
            config,
            policy,
            client,
            connection: tokio::sync::OnceCell::new(),
            rules: Rules::new(policy)?,
            scripts,
            up: AtomicBool::new(true),
            backoff: Mutex::new(None),
        })
    }

    /// The store's settings.
    pub fn config(&self) -> &RedisConfig {
        &self.config
    }

    /// The connection, made on first use (lazily: a Redis that is down now does not
    /// stop the server from starting).
    async fn connection(&self) -> Result<ConnectionManager, StoreError> {
        self.connection
            .get_or_try_init(|| async {
                let config = ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(CONNECT_TIMEOUT))
                    .set_response_timeout(Some(CONNECT_TIMEOUT))
                    .set_number_of_retries(1)
                    .set_min_delay(Duration::from_millis(50))
                    .set_max_delay(BACKOFF_MAX);
                ConnectionManager::new_lazy_with_config(self.client.clone(), config)
            })
            .await
            .cloned()
            .map_err(|e| StoreError::of(&e))
    }

    /// Loads every script (`SCRIPT LOAD`) and says so, or why not. Called once at the
    /// start; a Redis that loses them later (a restart) gets them again on `NOSCRIPT`.
    pub async fn load_scripts(&self) -> Result<(), StoreError> {
        let work = async {
            let mut c = self.connection().await?;
            for (source, hash) in &self.scripts {
                let loaded: String = ::redis::cmd("SCRIPT")
                    .arg("LOAD")
                    .arg(source)
                    .query_async(&mut c)
                    .await
                    .map_err(|e| StoreError::of(&e))?;
                if &loaded != hash {
                    return Err(StoreError::Garbled(format!(
                        "SCRIPT LOAD answered {} for a script whose hash is {hash}",
                        page::shown(&loaded)
                    )));
                }
            }
            Ok(())
        };
        self.noted(timed(work).await)
    }

    /// Decides one request of `caller` to the limiter of `kind` and `scope` at the wall
    /// clock's `now_us`: the decision, and how long an admitted request waits before it
    /// is served (a queue's turn).
    pub async fn decide(
        &self,
        kind: LimiterKind,
        scope: Scope,
        caller: &str,
        now_us: u64,
    ) -> Result<(Decision, u64), StoreError> {
        if let Some(last) = self.waiting() {
            return Err(last);
        }
        let key = state_key(kind, scope, self.policy, caller);
        let r = &self.rules;
        let work = async {
            match kind {
                LimiterKind::Fixed => self.decide_by(&r.fixed, kind, &key, now_us).await,
                LimiterKind::Sliding => self.decide_by(&r.sliding, kind, &key, now_us).await,
                LimiterKind::Bucket => self.decide_by(&r.bucket, kind, &key, now_us).await,
                LimiterKind::Counter => self.decide_by(&r.counter, kind, &key, now_us).await,
                LimiterKind::Queue => self.decide_by(&r.queue, kind, &key, now_us).await,
                LimiterKind::Nodelay => self.decide_by(&r.nodelay, kind, &key, now_us).await,
                LimiterKind::Gcra => self.decide_by(&r.gcra, kind, &key, now_us).await,
                LimiterKind::Inflight => self.decide_by(&r.inflight, kind, &key, now_us).await,
            }
        };
        self.noted(timed(work).await)
    }

    /// One decision by `rule`, in the store's mode.
    async fn decide_by<R: Rule>(
        &self,
        rule: &R,
        kind: LimiterKind,
        key: &str,
        now_us: u64,
    ) -> Result<(Decision, u64), StoreError>
    where
        R::State: StateText,
    {
        let shape = Shape {
            capacity: rule.capacity(),
            window_us: self.policy.window_us,
        };
        let read = |text: Option<String>| match text {
            None => Ok(rule.fresh(now_us)),
            Some(t) => R::State::from_text(&t, shape).ok_or_else(|| {
                StoreError::Garbled(format!("{} at {}", page::shown(&t), page::shown(key)))
            }),
        };
        let mut c = self.connection().await?;
        let args = script_args(kind, self.policy, now_us);
        match self.config.mode {
            StoreMode::Atomic => {
                let (prev, allowed) = self.eval(&mut c, ScriptName::of(kind), key, &args).await?;
                let mut state = read(prev)?;
                let (decision, delay_us) = rule.decide(&mut state, now_us, 1);
                if decision.allowed != allowed {
                    return Err(StoreError::Garbled(format!(
                        "the script {} the request the core's rule {} on the same state",
                        if allowed { "admitted" } else { "refused" },
                        if decision.allowed {
                            "admits"
                        } else {
                            "refuses"
                        }
                    )));
                }
                Ok((decision, delay_us))
            }
            StoreMode::ReadThenWrite => {
                let prev: Option<String> = ::redis::cmd("GET")
                    .arg(key)
                    .query_async(&mut c)
                    .await
                    .map_err(|e| StoreError::of(&e))?;
                let mut state = read(prev)?;
                let (decision, delay_us) = rule.decide(&mut state, now_us, 1);
                let ttl_ms = args[2];
                let () = ::redis::cmd("SET")
                    .arg(key)
                    .arg(state.to_text())
                    .arg("PX")
                    .arg(ttl_ms)
                    .query_async(&mut c)
                    .await
                    .map_err(|e| StoreError::of(&e))?;
                Ok((decision, delay_us))
            }
        }
    }

    /// `EVALSHA` of `script` on `key`; on `NOSCRIPT` (a Redis that restarted) the script
    /// is loaded and called once more. Answers the state the script read and whether it
    /// admitted the request.
    async fn eval(
        &self,
        c: &mut ConnectionManager,
        script: ScriptName,
        key: &str,
        args: &[u64],
    ) -> Result<(Option<String>, bool), StoreError> {
        let at = ScriptName::ALL
            .iter()
            .position(|&s| s == script)
            .expect("every script is loaded");
        let (source, hash) = &self.scripts[at];
        let call = || {
            let mut cmd = ::redis::cmd("EVALSHA");
            cmd.arg(hash).arg(1).arg(key).arg(args);
            cmd
        };
        let answer = match call().query_async::<(Option<String>, i64)>(c).await {
            Err(e) if e.code() == Some("NOSCRIPT") => {
                let _: String = ::redis::cmd("SCRIPT")
                    .arg("LOAD")
                    .arg(source)
                    .query_async(c)
                    .await
                    .map_err(|e| StoreError::of(&e))?;
                call().query_async::<(Option<String>, i64)>(c).await
            }
            other => other,
        };
        let (prev, allowed) = answer.map_err(|e| StoreError::of(&e))?;
        match allowed {
            0 | 1 => Ok((prev, allowed == 1)),
            n => Err(StoreError::Garbled(format!(
                "the script answered {n} for admitted"
            ))),
        }
    }

    /// Deletes every limiter state this server's kind writes (`/reset`): `SCAN` for the
    /// keys under [`KEY_PREFIX`], `UNLINK` each batch. Answers how many went.
    pub async fn clear(&self) -> Result<u64, StoreError> {
        let work = async {
            let mut c = self.connection().await?;
            let mut cursor = 0u64;
            let mut gone = 0u64;
            loop {
                let (next, keys): (u64, Vec<String>) = ::redis::cmd("SCAN")
                    .arg(cursor)
                    .arg("MATCH")
                    .arg(format!("{KEY_PREFIX}*"))
                    .arg("COUNT")
                    .arg(1_000)
                    .query_async(&mut c)
                    .await
                    .map_err(|e| StoreError::of(&e))?;
                if !keys.is_empty() {
                    gone += ::redis::cmd("UNLINK")
                        .arg(&keys)
                        .query_async::<u64>(&mut c)
                        .await
                        .map_err(|e| StoreError::of(&e))?;
                }
                if next == 0 {
                    return Ok(gone);
                }
                cursor = next;
            }
        };
        self.noted(
            tokio::time::timeout(CALL_TIMEOUT * 5, work)
                .await
                .unwrap_or_else(|_| Err(timed_out(CALL_TIMEOUT * 5))),
        )
    }

    /// What the last try met, if Redis could not be reached then and it is not yet time
    /// to try again.
    fn waiting(&self) -> Option<StoreError> {
        let backoff = self.backoff.lock().unwrap_or_else(|e| e.into_inner());
        backoff
            .as_ref()
            .filter(|b| Instant::now() < b.next_try)
            .map(|b| b.last.clone())
    }

    /// `result`, with a line in the log when it changes the store from up to down or
    /// back, and the backoff started, grown or ended.
    fn noted<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        {
            let mut backoff = self.backoff.lock().unwrap_or_else(|e| e.into_inner());
            match &result {
                Err(e @ StoreError::Unreachable(_)) => {
                    let wait = backoff
                        .as_ref()
                        .map_or(BACKOFF_MIN, |b| (b.wait * 2).min(BACKOFF_MAX));
                    *backoff = Some(Backoff {
                        next_try: Instant::now() + wait,
                        wait,
                        last: e.clone(),
                    });
                }
                _ => *backoff = None,
            }
        }
        let up = result.is_ok();
        if self.up.swap(up, Ordering::Relaxed) != up {
            let url = page::shown(&self.config.url);
            match &result {
                Ok(_) => eprintln!(
                    "ratelab serve: the limiters' store at {url} decides again"
                ),
                Err(e) => eprintln!(
                    "ratelab serve: the limiters' store at {url} {e}; until it decides again, every limiter request is {}",
                    match self.config.fail {
                        super::StoreFail::Closed => "answered 503 (--store-fail closed)",
                        super::StoreFail::Open => "admitted without a limit (--store-fail open)",
                    }
                ),
            }
        }
        result
    }
}

/// `work` within [`CALL_TIMEOUT`].
async fn timed<T>(
    work: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    tokio::time::timeout(CALL_TIMEOUT, work)
        .await
        .unwrap_or_else(|_| Err(timed_out(CALL_TIMEOUT)))
}

fn timed_out(after: Duration) -> StoreError {
    StoreError::Unreachable(format!("no answer within {} ms", after.as_millis()))
}

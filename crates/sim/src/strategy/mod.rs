//! The client side: ten strategies for sending a batch of charges: the article's six,
//! then four rungs that stay kind to a provider having a bad few seconds.
//!
//! A strategy is a [`ClientPlan`]: the knobs the article turns one at a time (pacing,
//! retries, a timeout, an idempotency key, a worker pool). Each strategy lives in its own
//! file and is written as "the previous one, plus one change", so reading the files in
//! order reads the article's argument. The per-charge loop they all share is
//! [`charge::ChargeTask`], a state machine that any runner can drive: the simulation in
//! `sim::world` does, and a real HTTP client could.

pub mod adaptive;
pub mod breaker;
pub mod budget;
pub mod charge;
pub mod headers;
pub mod keyed;
pub mod naive;
pub mod paced;
pub mod pacer;
pub mod pool;
pub mod retry;
pub mod timeout_no_key;

use super::time::ms;
use serde::{Deserialize, Serialize};

crate::named_enum! {
    /// The strategies, in the order they are built: the article's six, then the next
    /// rungs, each the previous one plus one change.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum StrategyName as "strategy" {
        /// Everything at once.
        Naive = "naive",
        /// One request every 1000/90 ms.
        Paced = "paced",
        /// Paced, plus retries with exponential backoff.
        Retry = "retry",
        /// Retry, plus a client timeout, but no idempotency key.
        TimeoutNoKey = "timeout-no-key",
        /// Timeout, plus one idempotency key per charge.
        Keyed = "keyed",
        /// Keyed, with a fixed pool of workers.
        Pool = "pool",
        /// Pool, obeying Retry-After and RateLimit on 429 and 503.
        Headers = "headers",
        /// Headers, plus a retry budget.
        Budget = "budget",
        /// Budget, plus a circuit breaker.
        Breaker = "breaker",
        /// Breaker, with AIMD concurrency instead of a fixed pool.
        Adaptive = "adaptive",
    }
}

impl StrategyName {
    /// The plan this strategy follows with the given parameters.
    pub fn plan(self, params: &ClientParams) -> ClientPlan {
        match self {
            StrategyName::Naive => naive::plan(params),
            StrategyName::Paced => paced::plan(params),
            StrategyName::Retry => retry::plan(params),
            StrategyName::TimeoutNoKey => timeout_no_key::plan(params),
            StrategyName::Keyed => keyed::plan(params),
            StrategyName::Pool => pool::plan(params),
            StrategyName::Headers => headers::plan(params),
            StrategyName::Budget => budget::plan(params),
            StrategyName::Breaker => breaker::plan(params),
            StrategyName::Adaptive => adaptive::plan(params),
        }
    }

    /// The strategies of the article, before the next rungs.
    pub const ARTICLE: [StrategyName; 6] = [
        StrategyName::Naive,
        StrategyName::Paced,
        StrategyName::Retry,
        StrategyName::TimeoutNoKey,
        StrategyName::Keyed,
        StrategyName::Pool,
    ];

    /// True for the rungs after the article's six.
    pub fn is_next_rung(self) -> bool {
        !Self::ARTICLE.contains(&self)
    }

    /// The strategy this one builds on, if any.
    pub fn previous(self) -> Option<StrategyName> {
        let i = Self::ALL.iter().position(|s| *s == self)?;
        i.checked_sub(1).map(|j| Self::ALL[j])
    }
}

/// The client's numbers. The defaults are the article's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientParams {
    /// Requests per second the pacer allows (90: 10% under the provider's 100).
    pub pacer_per_s: u32,
    /// Attempts per charge for the strategies that retry.
    pub max_attempts: u32,
    /// Pause after the first failed attempt; it doubles after each further failure.
    pub backoff_base_us: u64,
    /// Full jitter: sleep a uniform random time up to the backoff instead of exactly it.
    pub backoff_jitter: bool,
    /// How long the client waits for an answer before giving up on an attempt.
    pub timeout_us: u64,
    /// Workers in the pool strategy.
    pub pool_workers: u32,
    /// What the strategies that send a key name by it: the charge (the article's) or
    /// the customer.
    #[serde(default)]
    pub key_scope: charge::KeyScope,
}

impl Default for ClientParams {
    fn default() -> Self {
        Self {
            pacer_per_s: 90,
            max_attempts: 5,
            backoff_base_us: ms(100),
            backoff_jitter: false,
            timeout_us: ms(1_000),
            pool_workers: 6,
            key_scope: charge::KeyScope::Charge,
        }
    }
}

/// How charges are started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Launch {
    /// Every charge starts at t = 0 (each may then wait for its pacer turn).
    AllAtOnce,
    /// This many workers; each takes the next customer when it is free.
    Workers(u32),
    /// As many workers as an AIMD concurrency limit allows, starting at its initial.
    Adaptive(adaptive::AimdConfig),
}

/// The pause after a failed attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backoff {
    /// Pause after the first failure; doubled after each further one.
    pub base_us: u64,
    /// Sleep a uniform random time in `0..=pause` instead of exactly `pause`.
    pub full_jitter: bool,
}

impl Backoff {
    /// The pause after failed attempt number `attempt` (1-based): base · 2^(attempt−1).
    pub fn pause_us(&self, attempt: u32) -> u64 {
        let doublings = attempt.saturating_sub(1).min(32);
        self.base_us.saturating_mul(1 << doublings)
    }
}

/// Everything that distinguishes one client strategy from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientPlan {
    /// How charges are started.
    pub launch: Launch,
    /// Requests per second through the shared pacer, or no pacer.
    pub pacer_per_s: Option<u32>,
    /// Attempts per charge (1: never retry).
    pub max_attempts: u32,
    /// The pause between attempts.
    pub backoff: Backoff,
    /// The client's own deadline for one attempt, or wait forever.
    pub timeout_us: Option<u64>,
    /// Send one idempotency key on every attempt of a charge.
    pub idempotency_key: bool,
    /// Read the wait a 429 or a 503 asks for from its headers, and pause every worker.
    pub obey_headers: bool,
    /// A retry budget shared by every charge, if any.
    pub retry_quota: Option<budget::RetryQuota>,
    /// A circuit breaker in front of every send, if any.
    pub breaker: Option<breaker::BreakerConfig>,
}

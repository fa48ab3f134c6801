//! Where `ratelab serve` keeps its limiters' state: in this process (the default), or in
//! Redis ([`redis::RedisStore`]), where several `ratelab serve` processes then hold one
//! limit together.
//!
//! This file holds the pure parts, tested without a Redis: reading `--store`,
//! `--store-mode` and `--store-fail`, naming a caller's key, the TTL each limiter's keys
//! carry, the arguments each decision's script is called with, and a state as the text
//! Redis holds ([`StateText`]).
//!
//! The rules stay the core's. In Redis a caller's state is the same numbers the core's
//! limiter keeps (integer microseconds on the wall clock's windows, as the one-process
//! server counts them), written as decimal text. In the atomic mode one Lua script
//! (`src/store/*.lua`) reads the state, decides, and writes the next state with its TTL,
//! in one step no other instance can come between; it answers the state it read, and the
//! server runs the core's rule on that same state for the figures of the headers (the
//! two decisions must agree, else the answer is a 503 that says so). In the
//! read-then-write mode the server GETs the state, decides with the core's rule, and SETs
//! the next state with its TTL: two calls another instance can come between.

pub mod redis;

use sim::limiter::concurrency::FlightState;
use sim::limiter::concurrency::DEFAULT_HOLD_US;
use sim::limiter::fixed_window::WindowState;
use sim::limiter::sliding_counter::CounterState;
use sim::limiter::sliding_log::LogState;
use sim::limiter::{Drain, LimiterKind, Policy, Scope};
use std::fmt;

/// Every key `ratelab serve` writes in Redis starts with this (and `/reset` clears them).
pub const KEY_PREFIX: &str = "ratelab:";

/// The largest whole number Redis's Lua (doubles) holds exactly: 2^53. Every figure of a
/// state must stay at or under it.
pub const MAX_EXACT: u64 = 1 << 53;

/// Where the limiters' state lives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum StoreConfig {
    /// In this process, as always (`--store memory`, the default).
    #[default]
    Memory,
    /// In Redis, shared by every server that names the same one.
    Redis(RedisConfig),
}

/// `--store redis://…` with its mode and its answer when Redis cannot decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedisConfig {
    /// The address as given (`redis://HOST:PORT[/DB]`), checked by [`parse_store`].
    pub url: String,
    /// How each decision is made.
    pub mode: StoreMode,
    /// What a request gets when Redis cannot decide.
    pub fail: StoreFail,
}

/// How a decision is made in Redis (`--store-mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StoreMode {
    /// One Lua script reads, decides and writes: no other instance can come between.
    #[default]
    Atomic,
    /// A GET, the decision here, then a SET with the TTL: two calls another instance can
    /// come between, so two instances may both admit the last request.
    ReadThenWrite,
}

/// What a request gets when Redis cannot decide it (`--store-fail`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StoreFail {
    /// 503 with a sentence: no limit is better refused than guessed.
    #[default]
    Closed,
    /// Admitted without a limit, with a warning header and a log line.
    Open,
}

impl StoreMode {
    /// The flag's word.
    pub const fn as_str(self) -> &'static str {
        match self {
            StoreMode::Atomic => "atomic",
            StoreMode::ReadThenWrite => "read-then-write",
        }
    }
}

impl fmt::Display for StoreMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl StoreFail {
    /// The flag's word.
    pub const fn as_str(self) -> &'static str {
        match self {
            StoreFail::Closed => "closed",
            StoreFail::Open => "open",
        }
    }
}

impl fmt::Display for StoreFail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What `--store` names: this process, or a Redis by its address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreUrl {
    /// `memory`.
    Memory,
    /// `redis://HOST:PORT[/DB]`, as given.
    Redis(String),
}

/// Reads `--store`: `memory`, or `redis://HOST[:PORT][/DB]` (the port 6379 if not given).
pub fn parse_store(text: &str) -> Result<StoreUrl, String> {
    if text == "memory" {
        return Ok(StoreUrl::Memory);
    }
    let usage = "--store takes memory or a Redis address such as redis://127.0.0.1:6379";
    if text.is_empty() {
        return Err(format!("{usage}; it was given empty"));
    }
    let Some(rest) = text.strip_prefix("redis://") else {
        return Err(format!("{usage}, not {}", page::shown(text)));
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    if host.is_empty() || host.starts_with(':') {
        return Err(format!("{usage}: {} names no host", page::shown(text)));
    }
    if let Some((_, port)) = host.rsplit_once(':').filter(|_| !host.ends_with(']')) {
        if port.parse::<u16>().map_or(true, |p| p == 0) {
            return Err(format!(
                "{usage}: the port in {} must be a number from 1 to 65535",
                page::shown(text)
            ));
        }
    }
    match ::redis::Client::open(text) {
        Ok(_) => Ok(StoreUrl::Redis(text.to_string())),
        Err(e) => Err(format!("{usage}: {} is not one ({e})", page::shown(text))),
    }
}

/// Reads `--store-mode`.
pub fn parse_mode(text: &str) -> Result<StoreMode, String> {
    match text {
        "atomic" => Ok(StoreMode::Atomic),
        "read-then-write" => Ok(StoreMode::ReadThenWrite),
        other => Err(format!(
            "--store-mode is atomic or read-then-write, not {}",
            page::shown(other)
        )),
    }
}

/// Reads `--store-fail`.
pub fn parse_fail(text: &str) -> Result<StoreFail, String> {
    match text {
        "closed" => Ok(StoreFail::Closed),
        "open" => Ok(StoreFail::Open),
        other => Err(format!(
            "--store-fail is closed or open, not {}",
            page::shown(other)
        )),
    }
}

/// Checks that `policy`'s figures fit Redis's Lua exactly: a bucket's whole content,
/// `limit × window` in parts, at most [`MAX_EXACT`].
pub fn check_policy(policy: Policy) -> Result<(), String> {
    let parts = u128::from(policy.limit) * u128::from(policy.window_us) * 2;
    if parts > u128::from(MAX_EXACT) {
        return Err(format!(
            "with --store redis, twice the limit times the window in microseconds must stay under 2^53 (Redis's scripts count in doubles): {} per {} ms is too much; give a smaller --limit or --window-ms",
            policy.limit,
            policy.window_us / 1_000
        ));
    }
    Ok(())
}

/// The Redis key of `caller`'s state in the limiter of `kind` under `policy`: the
/// policy is part of it, so servers with different limits never share a state.
pub fn state_key(kind: LimiterKind, scope: Scope, policy: Policy, caller: &str) -> String {
    let Policy { limit, window_us } = policy;
    match scope {
        Scope::PerKey => format!("{KEY_PREFIX}{kind}:{limit}:{window_us}:key:{caller}"),
        Scope::Global => format!("{KEY_PREFIX}{kind}:{limit}:{window_us}:global"),
    }
}

/// How long after its last decision a state can still change a decision, at most:
/// after that it decides as a fresh one would, so its key may go. The server's
/// limiters all let `limit` through at once (see `LimiterKind::build`).
pub fn state_life_us(kind: LimiterKind, policy: Policy) -> u64 {
    let window_us = policy.window_us;
    match kind {
        // The window's end; the log's oldest entry leaves within a window.
        LimiterKind::Fixed | LimiterKind::Sliding => window_us,
        // The current window's count still weighs in all of the next window.
        LimiterKind::Counter => 2 * window_us,
        // A full drain: room (the limit) × window parts at `limit` a microsecond.
        LimiterKind::Bucket | LimiterKind::Gcra | LimiterKind::Queue | LimiterKind::Nodelay => {
            window_us
        }
        LimiterKind::Inflight => DEFAULT_HOLD_US,
    }
}

/// The TTL each write of a state carries, in whole milliseconds: its life rounded up,
/// and one more.
pub fn ttl_ms(kind: LimiterKind, policy: Policy) -> u64 {
    state_life_us(kind, policy).div_ceil(1_000) + 1
}

/// Which script decides for a limiter of `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptName {
    /// `fixed.lua`.
    Fixed,
    /// `counter.lua`.
    Counter,
    /// `drain.lua`: the bucket, GCRA and both queues.
    Drain,
    /// `log.lua`.
    Log,
    /// `flight.lua`.
    Flight,
}

impl ScriptName {
    /// Every script, in the order the store loads them.
    pub const ALL: [ScriptName; 5] = [
        ScriptName::Fixed,
        ScriptName::Counter,
        ScriptName::Drain,
        ScriptName::Log,
        ScriptName::Flight,
    ];

    /// The script of `kind`.
    pub const fn of(kind: LimiterKind) -> Self {
        match kind {
            LimiterKind::Fixed => ScriptName::Fixed,
            LimiterKind::Counter => ScriptName::Counter,
            LimiterKind::Sliding => ScriptName::Log,
            LimiterKind::Inflight => ScriptName::Flight,
            LimiterKind::Bucket | LimiterKind::Gcra | LimiterKind::Queue | LimiterKind::Nodelay => {
                ScriptName::Drain
            }
        }
    }

    /// Its Lua, the shared part first.
    pub fn source(self) -> String {
        let own = match self {
            ScriptName::Fixed => include_str!("store/fixed.lua"),
            ScriptName::Counter => include_str!("store/counter.lua"),
            ScriptName::Drain => include_str!("store/drain.lua"),
            ScriptName::Log => include_str!("store/log.lua"),
            ScriptName::Flight => include_str!("store/flight.lua"),
        };
        format!("{}\n{own}", include_str!("store/common.lua"))
    }
}

/// The arguments (ARGV) of the script deciding one request of cost 1 at `now_us`: now,
/// cost, TTL in ms, limit, window, and the rule's one more figure (a drain's room, the
/// limit; the hold of a request in flight; else 0).
pub fn script_args(kind: LimiterKind, policy: Policy, now_us: u64) -> [u64; 6] {
    let extra = match ScriptName::of(kind) {
        ScriptName::Drain => u64::from(policy.limit),
        ScriptName::Flight => DEFAULT_HOLD_US,
        ScriptName::Fixed | ScriptName::Counter | ScriptName::Log => 0,
    };
    [
        now_us,
        1,
        ttl_ms(kind, policy),
        u64::from(policy.limit),
        policy.window_us,
        extra,
    ]
}

/// What a sane state of a limiter may hold: at most `capacity` requests of `window_us`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Requests the state can hold at most.
    pub capacity: u32,
    /// The limiter's window.
    pub window_us: u64,
}

/// A state as the text Redis holds: its numbers in decimal, one space between. Reading
/// refuses anything a limiter could not have written (a count over the capacity, a log
/// out of order, a figure over [`MAX_EXACT`]), so the core's rule is never run on it.
pub trait StateText: Sized {
    /// The text.
    fn to_text(&self) -> String;
    /// The state, if `text` is one of this shape.
    fn from_text(text: &str, shape: Shape) -> Option<Self>;
}

/// The numbers of `text`, each at most [`MAX_EXACT`]; none for an empty text.
fn numbers(text: &str) -> Option<Vec<u64>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(' ')
        .map(|n| {
            if n.is_empty() || n.len() > 16 || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            n.parse::<u64>().ok().filter(|&v| v <= MAX_EXACT)
        })
        .collect()
}

/// Numbers as the text.
fn text_of(numbers: impl IntoIterator<Item = u64>) -> String {
    numbers
        .into_iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl StateText for WindowState {
    fn to_text(&self) -> String {
        text_of([self.window_index, u64::from(self.used)])
    }
    fn from_text(text: &str, shape: Shape) -> Option<Self> {
        match numbers(text)?[..] {
            [window_index, used] if used <= u64::from(shape.capacity) => Some(WindowState {
                window_index,
                used: u32::try_from(used).ok()?,
            }),
            _ => None,
        }
    }
}

impl StateText for CounterState {
    fn to_text(&self) -> String {
        text_of([
            self.at_us,
            u64::from(self.current),
            u64::from(self.previous),
        ])
    }
    fn from_text(text: &str, shape: Shape) -> Option<Self> {
        let cap = u64::from(shape.capacity);
        match numbers(text)?[..] {
            [at_us, current, previous] if current <= cap && previous <= cap => Some(CounterState {
                at_us,
                current: u32::try_from(current).ok()?,
                previous: u32::try_from(previous).ok()?,
            }),
            _ => None,
        }
    }
}

impl StateText for Drain {
    fn to_text(&self) -> String {
        text_of([self.ahead_parts, self.at_us])
    }
    fn from_text(text: &str, shape: Shape) -> Option<Self> {
        let room = u64::from(shape.capacity).checked_mul(shape.window_us)?;
        match numbers(text)?[..] {
            [ahead_parts, at_us] if ahead_parts <= room => Some(Drain { ahead_parts, at_us }),
            _ => None,
        }
    }
}

impl StateText for LogState {
    fn to_text(&self) -> String {
        text_of(self.admitted_us.iter().copied())
    }
    fn from_text(text: &str, shape: Shape) -> Option<Self> {
        let log = numbers(text)?;
        let sane = log.len() <= shape.capacity as usize && log.is_sorted();
        sane.then(|| LogState {
            admitted_us: log.into(),
        })
    }
}

impl StateText for FlightState {
    fn to_text(&self) -> String {
        text_of(std::iter::once(self.at_us).chain(self.finishes_us.iter().copied()))
    }
    fn from_text(text: &str, shape: Shape) -> Option<Self> {
        let n = numbers(text)?;
        let (&at_us, finishes) = n.split_first()?;
        let sane = finishes.len() <= shape.capacity as usize && finishes.is_sorted();
        sane.then(|| FlightState {
            at_us,
            finishes_us: finishes.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: Policy = Policy {
        limit: 10,
        window_us: 1_000_000,
    };

    #[test]
    fn the_store_url_is_memory_or_a_redis_address() {
        assert_eq!(parse_store("memory"), Ok(StoreUrl::Memory));
        for good in [
            "redis://127.0.0.1:6379",
            "redis://localhost",
            "redis://127.0.0.1:6380/2",
            "redis://[::1]:6379",
        ] {
            assert_eq!(
                parse_store(good),
                Ok(StoreUrl::Redis(good.to_string())),
                "{good}"
            );
        }
        for (bad, says) in [
            ("", "given empty"),
            ("http://127.0.0.1:6379", ", not http://127.0.0.1:6379"),
            ("127.0.0.1:6379", ", not 127.0.0.1:6379"),
            ("redis://", "names no host"),
            ("redis://:6379", "names no host"),
            (
                "redis://127.0.0.1:99999",
                "must be a number from 1 to 65535",
            ),
            ("redis://127.0.0.1:0", "must be a number from 1 to 65535"),
            ("redis://127.0.0.1:port", "must be a number from 1 to 65535"),
            ("redis://127.0.0.1:6379/x", "is not one"),
        ] {
            let e = parse_store(bad).unwrap_err();
            assert!(
                e.starts_with("--store takes memory or a Redis address"),
                "{e}"
            );
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert_eq!(parse_mode("atomic"), Ok(StoreMode::Atomic));
        assert_eq!(parse_mode("read-then-write"), Ok(StoreMode::ReadThenWrite));
        assert!(parse_mode("racy").unwrap_err().ends_with("not racy"));
        assert_eq!(parse_fail("open"), Ok(StoreFail::Open));
        assert_eq!(parse_fail("closed"), Ok(StoreFail::Closed));
        assert!(parse_fail("ajar").unwrap_err().contains("closed or open"));
        for m in [StoreMode::Atomic, StoreMode::ReadThenWrite] {
            assert_eq!(parse_mode(&m.to_string()), Ok(m));
        }
        for f in [StoreFail::Closed, StoreFail::Open] {
            assert_eq!(parse_fail(&f.to_string()), Ok(f));
        }
    }

    #[test]
    fn keys_name_the_limiter_the_policy_and_the_caller() {
        assert_eq!(
            state_key(LimiterKind::Fixed, Scope::PerKey, POLICY, "acme"),
            "ratelab:fixed:10:1000000:key:acme"
        );
        assert_eq!(
            state_key(LimiterKind::Bucket, Scope::Global, POLICY, "acme"),
            "ratelab:bucket:10:1000000:global"
        );
        // A caller named like the global key is still a caller of its own.
        assert_ne!(
            state_key(LimiterKind::Bucket, Scope::PerKey, POLICY, "global"),
            state_key(LimiterKind::Bucket, Scope::Global, POLICY, "global")
        );
        let other = Policy {
            limit: 20,
            ..POLICY
        };
        assert_ne!(
            state_key(LimiterKind::Gcra, Scope::PerKey, POLICY, "a"),
            state_key(LimiterKind::Gcra, Scope::PerKey, other, "a")
        );
        for kind in LimiterKind::ALL {
            assert!(state_key(kind, Scope::PerKey, POLICY, "x").starts_with(KEY_PREFIX));
        }
    }

    #[test]
    fn every_key_outlives_its_state_and_no_more_than_two_windows() {
        for kind in LimiterKind::ALL {
            let ttl = ttl_ms(kind, POLICY);
            assert!(ttl * 1_000 > state_life_us(kind, POLICY), "{kind}");
            assert!((1..=2_001).contains(&ttl), "{kind}: {ttl}");
        }
        assert_eq!(ttl_ms(LimiterKind::Fixed, POLICY), 1_001);
        assert_eq!(ttl_ms(LimiterKind::Counter, POLICY), 2_001);
        assert_eq!(ttl_ms(LimiterKind::Inflight, POLICY), 16);
        // A window of a few microseconds still gets a whole millisecond and one more.
        let tiny = Policy {
            limit: 1,
            window_us: 3,
        };
        assert_eq!(ttl_ms(LimiterKind::Fixed, tiny), 2);
    }

    #[test]
    fn each_script_gets_its_rules_figures() {
        let now = 1_765_000_000_123_456;
        assert_eq!(
            script_args(LimiterKind::Fixed, POLICY, now),
            [now, 1, 1_001, 10, 1_000_000, 0]
        );
        assert_eq!(
            script_args(LimiterKind::Gcra, POLICY, now),
            [now, 1, 1_001, 10, 1_000_000, 10]
        );
        assert_eq!(
            script_args(LimiterKind::Inflight, POLICY, now),
            [now, 1, 16, 10, 1_000_000, DEFAULT_HOLD_US]
        );
        for name in ScriptName::ALL {
            let src = name.source();
            assert!(src.contains("redis.call('SET', KEYS[1]") && src.contains("'PX', ttl"));
        }
        for kind in LimiterKind::ALL {
            assert!(ScriptName::ALL.contains(&ScriptName::of(kind)));
        }
    }

    #[test]
    fn a_policy_must_fit_the_scripts_doubles() {
        assert!(check_policy(POLICY).is_ok());
        // The most `ratelab serve --limit --window-ms` take fits…
        let most = Policy {
            limit: 1_000_000,
            window_us: 3_600_000_000,
        };
        assert!(check_policy(most).is_ok());
        // … and the core's longest window (31 days) at that limit would not.
        let month = Policy {
            limit: 1_000_000,
            window_us: sim::limiter::MAX_WINDOW_US,
        };
        let e = check_policy(month).unwrap_err();
        assert!(e.contains("1000000 per 2678400000 ms is too much"), "{e}");
    }

    #[test]
    fn states_read_back_as_written_and_nonsense_is_refused() {
        let shape = Shape {
            capacity: 10,
            window_us: 1_000_000,
        };
        let w = WindowState {
            window_index: 1_765_000_000,
            used: 7,
        };
        assert_eq!(w.to_text(), "1765000000 7");
        assert_eq!(WindowState::from_text(&w.to_text(), shape), Some(w));
        let c = CounterState {
            at_us: 5,
            current: 3,
            previous: 10,
        };
        assert_eq!(CounterState::from_text(&c.to_text(), shape), Some(c));
        let d = Drain {
            ahead_parts: 10_000_000,
            at_us: 9,
        };
        assert_eq!(Drain::from_text(&d.to_text(), shape), Some(d));
        let l = LogState {
            admitted_us: vec![1, 2, 2, 5].into(),
        };
        assert_eq!(l.to_text(), "1 2 2 5");
        assert_eq!(LogState::from_text(&l.to_text(), shape), Some(l));
        assert_eq!(LogState::from_text("", shape), Some(LogState::default()));
        let f = FlightState {
            at_us: 4,
            finishes_us: vec![15_004, 15_004],
        };
        assert_eq!(FlightState::from_text(&f.to_text(), shape), Some(f));
        for bad in [
            "", "1", "1 2 3", "a b", "1  2", " 1 2", "-1 2", "1 11", "1 2.5",
        ] {
            assert_eq!(WindowState::from_text(bad, shape), None, "{bad:?}");
        }
        assert_eq!(CounterState::from_text("1 11 0", shape), None);
        assert_eq!(Drain::from_text("10000001 0", shape), None);
        assert_eq!(LogState::from_text("3 2", shape), None);
        assert_eq!(LogState::from_text("1 1 1 1 1 1 1 1 1 1 1", shape), None);
        assert_eq!(FlightState::from_text("", shape), None);
        assert_eq!(FlightState::from_text("0 9 8", shape), None);
        // Past 2^53 the scripts' doubles are not exact: refused.
        assert_eq!(WindowState::from_text("9007199254740993 1", shape), None);
        assert_eq!(
            WindowState::from_text("9007199254740992 1", shape).map(|s| s.used),
            Some(1)
        );
        assert_eq!(
            WindowState::from_text("99999999999999999999 1", shape),
            None
        );
    }
}

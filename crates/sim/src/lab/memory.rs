//! Experiment 5, memory: what each limiter must remember for many callers, each making
//! the limit's worth of requests per window.
//!
//! What is counted is the fixed-width payload of this crate's own state types (see
//! [`StatePayload`]): for the fixed window and the token bucket, `size_of` of their
//! per-caller state (two integers, 16 bytes); for the sliding log, 8 bytes per logged
//! instant; and for every caller the bytes of its key. What is not counted: the map's
//! nodes, the pointer, length and capacity words of each `String` and `VecDeque`, spare
//! capacity, and allocator headers. Those depend on the platform (a pointer is 4 bytes
//! in the browser's wasm32 and 8 natively) and would add roughly the same per-caller
//! amount to every limiter; leaving them out keeps the page and the CLI in agreement.
//!
//! The newer limiters count the same way: the sliding-window counter, the queues and
//! GCRA hold two integers (16 bytes) like the bucket; the concurrency limit holds the
//! instant it last saw (8 bytes) and 8 bytes per request in flight, so at the limit's
//! rate it costs what the requests of one hold time ([`DEFAULT_HOLD_US`]) cost.
//!
//! [`DEFAULT_HOLD_US`]: crate::limiter::concurrency::DEFAULT_HOLD_US
//!
//! The per-caller figure is measured, not assumed: one caller is driven through a whole
//! window at the limit and its limiter's payload read back. Every caller at the limit
//! holds the same, so the total is that times the number of callers, plus their keys.
//!
//! [`StatePayload`]: crate::limiter::StatePayload

use crate::limiter::{LimiterError, LimiterKind, Policy, Scope, MAX_LIMIT};
use crate::time::secs;
use serde::Serialize;

/// The most callers.
pub const MAX_CALLERS: u32 = 10_000_000;

/// The experiment's setup. The defaults are the article's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryParams {
    /// Callers remembered at once.
    pub callers: u32,
    /// Requests each caller makes per window, which is also the limit.
    pub per_window: u32,
    /// The window.
    pub window_us: u64,
}

impl Default for MemoryParams {
    fn default() -> Self {
        Self {
            callers: 10_000,
            per_window: 1_000,
            window_us: secs(1),
        }
    }
}

/// Why the memory experiment cannot run with these numbers (the page layer writes the
/// sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryError {
    /// Fewer than 1 or more than [`MAX_CALLERS`] callers.
    Callers,
    /// Fewer than 1 or more than [`MAX_LIMIT`] requests per window.
    PerWindow,
    /// The window is shorter than 1 µs per request.
    Window,
    /// The limiters refuse the policy or a request, for the limiter's own reason.
    Limiter(LimiterError),
}

crate::error_display!(MemoryError, "memory experiment refused");

/// One limiter's cost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoryRow {
    /// The limiter.
    pub limiter: LimiterKind,
    /// State payload for one caller at the limit, key excluded.
    pub per_caller_bytes: u64,
    /// All callers' state payload plus all their keys.
    pub total_bytes: u64,
}

/// The memory experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoryResult {
    /// Callers remembered.
    pub callers: u32,
    /// Requests per caller per window.
    pub per_window: u32,
    /// Bytes of all the callers' keys together.
    pub key_bytes: u64,
    /// One per limiter, in [`LimiterKind::ALL`]'s order.
    pub rows: Vec<MemoryRow>,
    /// Sliding log total over token bucket total, rounded.
    pub log_to_bucket_ratio: u64,
}

/// Caller `i`'s key.
pub fn caller_key(i: u32) -> String {
    format!("caller-{i}")
}

/// Bytes of the keys of callers `0..n` together, counted digit by digit: the keys of
/// ten million callers are not written out to be measured.
pub fn key_bytes(n: u32) -> u64 {
    let prefix = caller_key(0).len() as u64 - 1;
    let n = u64::from(n);
    let (mut total, mut lo, mut digits) = (0, 0, 1);
    while lo < n {
        // Numbers below `hi` (and from `lo`) have `digits` digits.
        let hi = (lo.max(1) * 10).min(n);
        total += (hi - lo) * (prefix + digits);
        lo = hi;
        digits += 1;
    }
    total
}

/// Runs the experiment.
pub fn run(p: &MemoryParams) -> Result<MemoryResult, MemoryError> {
    if !(1..=MAX_CALLERS).contains(&p.callers) {
        return Err(MemoryError::Callers);
    }
    if !(1..=MAX_LIMIT).contains(&p.per_window) {
        return Err(MemoryError::PerWindow);
    }
    let policy = Policy {
        limit: p.per_window,
        window_us: p.window_us,
    };
    policy.check().map_err(MemoryError::Limiter)?;
    if p.window_us < u64::from(p.per_window) {
        return Err(MemoryError::Window);
    }
    let key_bytes = key_bytes(p.callers);
    let probe = caller_key(0);
    let step_us = p.window_us / u64::from(p.per_window);
    let mut rows = Vec::new();
    for kind in LimiterKind::ALL {
        let mut limiter = kind
            .build(policy, Scope::PerKey)
            .map_err(MemoryError::Limiter)?;
        for i in 0..u64::from(p.per_window) {
            let d = limiter
                .check(i * step_us, &probe, 1)
                .map_err(MemoryError::Limiter)?;
            assert!(d.allowed, "a caller at the limit is never refused");
        }
        let per_caller_bytes = limiter.payload_bytes() - probe.len() as u64;
        rows.push(MemoryRow {
            limiter: kind,
            per_caller_bytes,
            total_bytes: per_caller_bytes * u64::from(p.callers) + key_bytes,
        });
    }
    let total = |kind| {
        rows.iter()
            .find(|r: &&MemoryRow| r.limiter == kind)
            .map_or(0, |r| r.total_bytes)
    };
    let (log, bucket) = (total(LimiterKind::Sliding), total(LimiterKind::Bucket));
    Ok(MemoryResult {
        callers: p.callers,
        per_window: p.per_window,
        key_bytes,
        log_to_bucket_ratio: (log + bucket / 2) / bucket,
        rows,
    })
}

impl MemoryResult {
    /// The row of one limiter.
    pub fn row(&self, kind: LimiterKind) -> &MemoryRow {
        self.rows
            .iter()
            .find(|r| r.limiter == kind)
            .expect("every limiter is measured")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_grows_with_traffic_and_the_bucket_does_not() {
        let r = run(&MemoryParams::default()).unwrap();
        let keys = key_bytes(10_000);
        assert_eq!(r.key_bytes, keys);
        assert_eq!(r.row(LimiterKind::Bucket).total_bytes, 10_000 * 16 + keys);
        assert_eq!(r.row(LimiterKind::Fixed).total_bytes, 10_000 * 16 + keys);
        assert_eq!(
            r.row(LimiterKind::Sliding).total_bytes,
            10_000 * 1_000 * 8 + keys
        );
        let more = run(&MemoryParams {
            per_window: 5_000,
            ..MemoryParams::default()
        })
        .unwrap();
        assert_eq!(more.row(LimiterKind::Sliding).per_caller_bytes, 40_000);
        assert_eq!(more.row(LimiterKind::Bucket).per_caller_bytes, 16);
    }

    #[test]
    fn the_newer_limiters_cost_two_integers_or_their_requests_in_flight() {
        let r = run(&MemoryParams::default()).unwrap();
        assert_eq!(r.rows.len(), LimiterKind::ALL.len());
        for kind in [
            LimiterKind::Counter,
            LimiterKind::Queue,
            LimiterKind::Nodelay,
            LimiterKind::Gcra,
        ] {
            assert_eq!(r.row(kind).per_caller_bytes, 16, "{kind}");
        }
        // 1,000 per second is one a millisecond; each held 15 ms: 15 in flight.
        assert_eq!(r.row(LimiterKind::Inflight).per_caller_bytes, 8 + 15 * 8);
        let slow = run(&MemoryParams {
            per_window: 10,
            ..MemoryParams::default()
        })
        .unwrap();
        // One every 100 ms: only the last is still in flight.
        assert_eq!(slow.row(LimiterKind::Inflight).per_caller_bytes, 16);
    }

    #[test]
    fn keys_are_counted_by_digits() {
        assert_eq!(key_bytes(10), 80);
        assert_eq!(key_bytes(100), 80 + 90 * 9);
        for n in [0, 1, 9, 10, 11, 99, 100, 101, 12_345] {
            let written: u64 = (0..n).map(|i| caller_key(i).len() as u64).sum();
            assert_eq!(key_bytes(n), written, "{n}");
        }
    }

    #[test]
    fn bad_parameters_say_which() {
        for (p, error) in [
            (
                MemoryParams {
                    callers: 0,
                    ..MemoryParams::default()
                },
                MemoryError::Callers,
            ),
            (
                MemoryParams {
                    per_window: 0,
                    ..MemoryParams::default()
                },
                MemoryError::PerWindow,
            ),
            (
                MemoryParams {
                    per_window: 1_000,
                    window_us: 999,
                    callers: 1,
                },
                MemoryError::Window,
            ),
        ] {
            assert_eq!(run(&p), Err(error), "{p:?}");
        }
    }
}

//! Experiment 6, the thundering herd: many clients are refused at the same instant and
//! all read the same `Retry-After`. Each then keeps trying against the server's token
//! bucket until it gets in, backing off after every refusal, with one of four kinds of
//! jitter.
//!
//! A client never comes back earlier than a refusal asked: after its k-th refusal
//! (k = 0 for the herd's) it sleeps the `Retry-After` it was just given, plus a backoff
//! drawn from `v = min(cap, base · 2^k)`, with `base` the herd's `Retry-After` and `cap`
//! [`CAP_FACTOR`] times it. The jitter decides how much of `v` is slept (these are the
//! four policies of Marc Brooker's "Exponential Backoff And Jitter", AWS Architecture
//! Blog, 2015):
//!
//! - **none**: all of `v`, so clients refused together come back together;
//! - **full**: a uniform time in `[0, v)`;
//! - **equal**: half of `v`, plus a uniform time in `[0, v/2)`;
//! - **decorrelated**: a uniform time between `base` and three times the client's own
//!   previous backoff (the first previous backoff counts as `base`), capped at `cap`.
//!
//! Measured, per jitter: the first wave (every client's first return), the load on the
//! server (the most requests arriving in one millisecond), the work (requests sent after
//! the herd's refusal) and when the last client got in.

use super::{ARTICLE_POLICY, LAB_EPOCH_S};
use crate::headers::{read_headers, response_headers, wait_from_header, HeaderError};
use crate::limiter::{Limiter, LimiterError, Policy, Scope, TokenBucket};
use crate::rng::SimRng;
use crate::time::{ms, secs, US_PER_MS};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The most clients.
pub const MAX_CLIENTS: u32 = 1_000;

/// The longest `Retry-After` the herd reads.
pub const MAX_RETRY_AFTER_US: u64 = secs(3_600);

/// The backoff stops doubling at this many times the herd's `Retry-After`.
pub const CAP_FACTOR: u64 = 32;

/// The key every client's requests count against: the server has one bucket for all.
const SERVER: &str = "herd";

crate::named_enum! {
    /// How much of its backoff a client sleeps.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Jitter as "jitter" {
        /// All of it.
        None = "none",
        /// A uniform share of all of it.
        Full = "full",
        /// Half of it, plus a uniform share of the other half.
        Equal = "equal",
        /// Between the base and three times the previous backoff.
        Decorrelated = "decorrelated",
    }
}

/// The experiment's setup. The defaults are the article's, with full jitter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HerdParams {
    /// Clients refused at the same instant.
    pub clients: u32,
    /// The `Retry-After` value they all read.
    pub retry_after: String,
    /// Histogram bin width.
    pub bin_us: u64,
    /// The jitter drawn beside no jitter.
    pub jitter: Jitter,
    /// The server's token bucket: it holds `limit` tokens and refills at this rate.
    pub server: Policy,
}

impl Default for HerdParams {
    fn default() -> Self {
        Self {
            clients: 100,
            retry_after: "1".into(),
            bin_us: ms(50),
            jitter: Jitter::Full,
            server: ARTICLE_POLICY,
        }
    }
}

/// Why the herd cannot run with these numbers (the page layer writes the sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HerdError {
    /// Fewer than 1 or more than [`MAX_CLIENTS`] clients.
    Clients,
    /// A `Retry-After` cannot be read, for the reader's own reason.
    RetryAfter(HeaderError),
    /// The `Retry-After` is shorter than 1 s or longer than [`MAX_RETRY_AFTER_US`].
    WaitOutOfRange,
    /// A refusal's headers gave the reader no wait (the server always sends one).
    NoWait,
    /// The histogram bin is narrower than 1 ms or wider than the wait.
    Bin,
    /// The server's bucket refuses the policy, for the limiter's own reason.
    Limiter(LimiterError),
}

crate::error_display!(HerdError, "herd experiment refused");

/// One histogram bin of the first wave: first returns in `[start, start + width)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HerdBin {
    /// Start of the bin, from the refusal.
    pub start_ms: u64,
    /// First returns without jitter.
    pub none: u32,
    /// First returns with the chosen jitter.
    pub chosen: u32,
}

/// What one jitter did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HerdCase {
    /// The jitter.
    pub jitter: Jitter,
    /// The earliest first return, from the refusal.
    pub first_us: u64,
    /// The latest first return.
    pub last_us: u64,
    /// Most first returns in one histogram bin.
    pub peak_per_bin: u32,
    /// Most requests (of any wave) arriving in one millisecond, `[k ms, (k + 1) ms)`.
    pub peak_per_ms: u32,
    /// Requests sent after the herd's refusal, until every client got in: the work.
    pub requests: u64,
    /// When the last client got in.
    pub finish_us: u64,
}

impl HerdCase {
    /// From the earliest first return to the latest.
    pub fn spread_us(&self) -> u64 {
        self.last_us - self.first_us
    }
}

/// The herd experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HerdResult {
    /// Clients.
    pub clients: u32,
    /// The wait the herd's header gave, in µs: the backoff's base.
    pub retry_after_us: u64,
    /// The backoff's cap.
    pub cap_us: u64,
    /// The server's limit …
    pub limit: u32,
    /// … per this window.
    pub window_us: u64,
    /// Histogram bin width.
    pub bin_us: u64,
    /// The jitter drawn beside none.
    pub jitter: Jitter,
    /// Every jitter, in the order of [`Jitter::ALL`].
    pub cases: Vec<HerdCase>,
    /// The first wave without jitter and with the chosen one, from the refusal to the
    /// latest first return of either.
    pub bins: Vec<HerdBin>,
    /// The jitters that sent the fewest requests (more than one if tied).
    pub least_work: Vec<Jitter>,
    /// The jitters whose last client got in soonest (more than one if tied).
    pub first_done: Vec<Jitter>,
}

impl HerdResult {
    /// What one jitter did.
    pub fn case(&self, jitter: Jitter) -> &HerdCase {
        self.cases
            .iter()
            .find(|c| c.jitter == jitter)
            .expect("every jitter runs")
    }
}

/// Runs the experiment: every jitter on the same seed, each against a fresh server.
pub fn run(p: &HerdParams, seed: u64) -> Result<HerdResult, HerdError> {
    if !(1..=MAX_CLIENTS).contains(&p.clients) {
        return Err(HerdError::Clients);
    }
    p.server.check().map_err(HerdError::Limiter)?;
    // The header is delta-seconds, so "now" does not matter; the lab's epoch keeps it honest.
    let retry_after_us = wait_from_header("Retry-After", &p.retry_after, secs(LAB_EPOCH_S))
        .map_err(HerdError::RetryAfter)?
        .wait_us;
    if !(1..=MAX_RETRY_AFTER_US).contains(&retry_after_us) {
        return Err(HerdError::WaitOutOfRange);
    }
    if !(US_PER_MS..=retry_after_us).contains(&p.bin_us) {
        return Err(HerdError::Bin);
    }
    let runs = Jitter::ALL
        .into_iter()
        .map(|j| Ok((j, herd(p, j, retry_after_us, seed)?)))
        .collect::<Result<Vec<_>, HerdError>>()?;
    let first_wave = |j: Jitter| &runs[j as usize].1.first_wave;
    let bin = |w: u64| (w / p.bin_us) as usize;
    let n_bins = 1 + [Jitter::None, p.jitter]
        .iter()
        .flat_map(|&j| first_wave(j).iter().map(|&w| bin(w)))
        .max()
        .unwrap_or(0);
    let mut bins: Vec<HerdBin> = (0..n_bins as u64)
        .map(|i| HerdBin {
            start_ms: i * p.bin_us / US_PER_MS,
            none: 0,
            chosen: 0,
        })
        .collect();
    for &w in first_wave(Jitter::None) {
        bins[bin(w)].none += 1;
    }
    for &w in first_wave(p.jitter) {
        bins[bin(w)].chosen += 1;
    }
    let cases: Vec<HerdCase> = runs
        .iter()
        .map(|(jitter, run)| {
            let mut per_bin =
                vec![0u32; 1 + run.first_wave.iter().map(|&w| bin(w)).max().unwrap_or(0)];
            for &w in &run.first_wave {
                per_bin[bin(w)] += 1;
            }
            HerdCase {
                jitter: *jitter,
                first_us: run.first_wave.iter().copied().min().unwrap_or(0),
                last_us: run.first_wave.iter().copied().max().unwrap_or(0),
                peak_per_bin: per_bin.iter().copied().max().unwrap_or(0),
                peak_per_ms: run.peak_per_ms,
                requests: run.requests,
                finish_us: run.finish_us,
            }
        })
        .collect();
    let best = |key: fn(&HerdCase) -> u64| {
        let least = cases.iter().map(key).min().unwrap_or(0);
        cases
            .iter()
            .filter(|c| key(c) == least)
            .map(|c| c.jitter)
            .collect()
    };
    Ok(HerdResult {
        clients: p.clients,
        retry_after_us,
        cap_us: CAP_FACTOR * retry_after_us,
        limit: p.server.limit,
        window_us: p.server.window_us,
        bin_us: p.bin_us,
        jitter: p.jitter,
        least_work: best(|c| c.requests),
        first_done: best(|c| c.finish_us),
        cases,
        bins,
    })
}

/// One jitter's run, before it is summarised.
struct Herd {
    /// Each client's first return, by client.
    first_wave: Vec<u64>,
    peak_per_ms: u32,
    requests: u64,
    finish_us: u64,
}

/// The herd under one jitter: every client retries until the server lets it in.
fn herd(p: &HerdParams, jitter: Jitter, base_us: u64, seed: u64) -> Result<Herd, HerdError> {
    let cap_us = CAP_FACTOR * base_us;
    let mut rng = SimRng::from_seed(seed);
    let mut server =
        TokenBucket::new(p.server.limit, p.server, Scope::Global).map_err(HerdError::Limiter)?;
    let n = p.clients as usize;
    // Per client: refusals so far and its previous backoff.
    let mut refusals = vec![0u32; n];
    let mut previous_us = vec![base_us; n];
    let mut backoff = |rng: &mut SimRng, client: usize, k: u32| -> u64 {
        let v = base_us
            .checked_shl(k)
            .filter(|v| v >> k == base_us)
            .map_or(cap_us, |v| v.min(cap_us));
        let slept = match jitter {
            Jitter::None => v,
            Jitter::Full => rng.below(v),
            Jitter::Equal => v / 2 + rng.below(v - v / 2),
            Jitter::Decorrelated => rng
                .between(base_us, previous_us[client].saturating_mul(3))
                .min(cap_us),
        };
        previous_us[client] = slept;
        slept
    };
    // The herd's refusal at 0 told every client to wait `base_us`.
    let mut queue: BinaryHeap<Reverse<(u64, usize)>> = (0..n)
        .map(|i| Reverse((base_us + backoff(&mut rng, i, 0), i)))
        .collect();
    let first_wave: Vec<u64> = {
        let mut w = vec![0; n];
        for Reverse((at_us, i)) in queue.iter() {
            w[*i] = *at_us;
        }
        w
    };
    // Arrivals come off the queue in time order: the busiest millisecond is the longest
    // run of one millisecond.
    let (mut requests, mut finish_us) = (0u64, 0u64);
    let (mut this_ms, mut in_this_ms, mut peak_per_ms) = (u64::MAX, 0u32, 0u32);
    while let Some(Reverse((at_us, i))) = queue.pop() {
        requests += 1;
        if at_us / US_PER_MS == this_ms {
            in_this_ms += 1;
        } else {
            (this_ms, in_this_ms) = (at_us / US_PER_MS, 1);
        }
        peak_per_ms = peak_per_ms.max(in_this_ms);
        let d = server.check(at_us, SERVER, 1).map_err(HerdError::Limiter)?;
        if d.allowed {
            finish_us = finish_us.max(at_us);
            continue;
        }
        // Each client reads the refusal's whole header block through the one reader.
        let headers = response_headers(server.policy(), &d);
        let told_us = read_headers(&headers, secs(LAB_EPOCH_S) + at_us)
            .wait_us
            .ok_or(HerdError::NoWait)?;
        refusals[i] += 1;
        let wake_us = at_us + told_us + backoff(&mut rng, i, refusals[i]);
        queue.push(Reverse((wake_us, i)));
    }
    Ok(Herd {
        first_wave,
        peak_per_ms,
        requests,
        finish_us,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(jitter: Jitter, clients: u32) -> HerdParams {
        HerdParams {
            jitter,
            clients,
            ..HerdParams::default()
        }
    }

    #[test]
    fn without_jitter_the_whole_herd_lands_in_one_millisecond() {
        let r = run(&HerdParams::default(), 1).unwrap();
        assert_eq!(r.retry_after_us, secs(1));
        let none = r.case(Jitter::None);
        // Retry-After 1 s plus the first backoff, 1 s.
        assert_eq!((none.first_us, none.last_us), (secs(2), secs(2)));
        assert_eq!(none.peak_per_ms, 100);
        assert_eq!(none.peak_per_bin, 100);
        let counted: u32 = r.bins.iter().map(|b| b.chosen).sum();
        assert_eq!(counted, 100);
        assert_eq!(r.bins.iter().map(|b| b.none).sum::<u32>(), 100);
    }

    #[test]
    fn every_jitter_comes_back_no_earlier_than_asked_and_within_its_range() {
        for seed in 1..=10 {
            let r = run(&HerdParams::default(), seed).unwrap();
            let first = |j| {
                let c = r.case(j);
                (c.first_us, c.last_us)
            };
            let (a, b) = first(Jitter::Full);
            assert!(a >= secs(1) && b < secs(2), "full {a} {b}");
            let (a, b) = first(Jitter::Equal);
            assert!(a >= ms(1_500) && b < secs(2), "equal {a} {b}");
            let (a, b) = first(Jitter::Decorrelated);
            assert!(a >= secs(2) && b <= secs(4), "decorrelated {a} {b}");
            // 100 first returns over a second: a millisecond holding 5 would mean the
            // spread is broken, not unlucky.
            assert!(r.case(Jitter::Full).peak_per_ms <= 4, "seed {seed}");
        }
    }

    #[test]
    fn everyone_gets_in_and_jitter_saves_work() {
        for seed in 1..=5 {
            let r = run(&HerdParams::default(), seed).unwrap();
            for c in &r.cases {
                // Each client's last request is its one accepted; at 10 per second
                // after a full bucket of 10, 100 clients need 9 s at least.
                assert!(c.requests >= 100, "{c:?}");
                assert!(c.finish_us >= c.first_us + secs(9), "{c:?}");
            }
            let none = r.case(Jitter::None).requests;
            for j in [Jitter::Full, Jitter::Equal, Jitter::Decorrelated] {
                assert!(r.case(j).requests < none, "seed {seed}: {j} {:?}", r.cases);
            }
            assert!(!r.least_work.contains(&Jitter::None));
            assert!(!r.first_done.is_empty() && !r.least_work.is_empty());
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_herd_and_the_choice_only_picks_the_bins() {
        let a = run(&with(Jitter::Equal, 50), 3).unwrap();
        let b = run(&with(Jitter::Decorrelated, 50), 3).unwrap();
        assert_eq!(a.cases, b.cases);
        assert_ne!(a.bins, b.bins);
        assert_eq!(a, run(&with(Jitter::Equal, 50), 3).unwrap());
    }

    #[test]
    fn one_client_gets_in_at_once_and_a_thousand_finish() {
        let r = run(&with(Jitter::Full, 1), 1).unwrap();
        assert!(r.cases.iter().all(|c| c.requests == 1));
        let r = run(&with(Jitter::Full, MAX_CLIENTS), 1).unwrap();
        assert!(r.cases.iter().all(|c| c.requests >= u64::from(MAX_CLIENTS)));
    }

    #[test]
    fn other_retry_after_forms_are_read_too() {
        let p = HerdParams {
            retry_after: "Sun, 30 Aug 2026 10:41:01 GMT".into(),
            ..HerdParams::default()
        };
        let r = run(&p, 1).unwrap();
        assert_eq!(r.retry_after_us, secs(2));
        assert_eq!(r.cap_us, secs(64));
        for bad in ["0", "soon", "-1"] {
            let p = HerdParams {
                retry_after: bad.into(),
                ..HerdParams::default()
            };
            assert!(run(&p, 1).is_err(), "{bad}");
        }
        let p = HerdParams {
            retry_after: "0".into(),
            ..HerdParams::default()
        };
        assert_eq!(run(&p, 1), Err(HerdError::WaitOutOfRange));
        let p = HerdParams {
            bin_us: secs(2),
            ..HerdParams::default()
        };
        assert_eq!(run(&p, 1), Err(HerdError::Bin));
        for clients in [0, MAX_CLIENTS + 1] {
            assert_eq!(
                run(&with(Jitter::None, clients), 1),
                Err(HerdError::Clients)
            );
        }
    }
}

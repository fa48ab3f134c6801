//! Experiment 6, the thundering herd: many clients are refused at the same instant and
//! all read `Retry-After: 1`. Obeyed to the letter, the header sends them all back in the
//! same microsecond; with full jitter each waits the header's time plus a uniform random
//! share of it again, never less than the server asked.
//!
//! The load on the server is measured as wake-ups (each one a request) per millisecond
//! and per histogram bin: the peak is the largest count in any one of them.

use crate::sim::headers::{wait_from_header, HeaderError};
use crate::sim::rng::SimRng;
use crate::sim::time::{ms, secs, US_PER_MS};
use serde::Serialize;
use std::collections::BTreeMap;

/// The most clients.
pub const MAX_CLIENTS: u32 = 1_000_000;

/// The longest `Retry-After` the herd reads.
pub const MAX_RETRY_AFTER_US: u64 = secs(3_600);

/// The experiment's setup. The defaults are the article's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HerdParams {
    /// Clients refused at the same instant.
    pub clients: u32,
    /// The `Retry-After` value they all read.
    pub retry_after: String,
    /// Histogram bin width.
    pub bin_us: u64,
}

impl Default for HerdParams {
    fn default() -> Self {
        Self {
            clients: 100,
            retry_after: "1".into(),
            bin_us: ms(50),
        }
    }
}

/// Why the herd cannot run with these numbers (the page layer writes the sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HerdError {
    /// Fewer than 1 or more than [`MAX_CLIENTS`] clients.
    Clients,
    /// The `Retry-After` cannot be read, for the reader's own reason.
    RetryAfter(HeaderError),
    /// The `Retry-After` is shorter than 1 s or longer than [`MAX_RETRY_AFTER_US`].
    WaitOutOfRange,
    /// The histogram bin is narrower than 1 ms or wider than the wait.
    Bin,
}

impl std::error::Error for HerdError {}

/// One histogram bin: wake-ups in `[start, start + width)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HerdBin {
    /// Start of the bin, from the refusal.
    pub start_ms: u64,
    /// Wake-ups without jitter.
    pub no_jitter: u32,
    /// Wake-ups with full jitter.
    pub full_jitter: u32,
}

/// Wake-ups under one policy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HerdCase {
    /// Every client's wake-up, from the refusal, sorted.
    pub wakes_us: Vec<u64>,
    /// The earliest wake-up.
    pub first_us: u64,
    /// The latest wake-up.
    pub last_us: u64,
    /// Most wake-ups in one millisecond, `[k ms, (k + 1) ms)`.
    pub peak_per_ms: u32,
    /// Most wake-ups in one histogram bin.
    pub peak_per_bin: u32,
}

/// The herd experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HerdResult {
    /// Clients.
    pub clients: u32,
    /// The wait the header gave, in µs.
    pub retry_after_us: u64,
    /// Histogram bin width.
    pub bin_us: u64,
    /// Every client sleeps exactly the header's wait.
    pub no_jitter: HerdCase,
    /// Every client sleeps the wait plus a uniform share of it.
    pub full_jitter: HerdCase,
    /// Bins from the refusal to the last possible wake-up.
    pub bins: Vec<HerdBin>,
}

/// Runs the experiment.
pub fn run(p: &HerdParams, seed: u64) -> Result<HerdResult, HerdError> {
    if !(1..=MAX_CLIENTS).contains(&p.clients) {
        return Err(HerdError::Clients);
    }
    // The header is delta-seconds, so "now" does not matter; the lab's epoch keeps it honest.
    let retry_after_us = wait_from_header("Retry-After", &p.retry_after, secs(super::LAB_EPOCH_S))
        .map_err(HerdError::RetryAfter)?
        .wait_us;
    if !(1..=MAX_RETRY_AFTER_US).contains(&retry_after_us) {
        return Err(HerdError::WaitOutOfRange);
    }
    if !(US_PER_MS..=retry_after_us).contains(&p.bin_us) {
        return Err(HerdError::Bin);
    }
    let mut rng = SimRng::from_seed(seed);
    let flat: Vec<u64> = vec![retry_after_us; p.clients as usize];
    let mut jittered: Vec<u64> = (0..p.clients)
        .map(|_| retry_after_us + rng.below(retry_after_us))
        .collect();
    jittered.sort_unstable();
    // Every wake-up lies in [wait, 2 · wait): the bins cover 0 to 2 · wait.
    let n_bins = (2 * retry_after_us).div_ceil(p.bin_us);
    let mut bins: Vec<HerdBin> = (0..n_bins)
        .map(|i| HerdBin {
            start_ms: i * p.bin_us / US_PER_MS,
            no_jitter: 0,
            full_jitter: 0,
        })
        .collect();
    for &w in &flat {
        bins[(w / p.bin_us) as usize].no_jitter += 1;
    }
    for &w in &jittered {
        bins[(w / p.bin_us) as usize].full_jitter += 1;
    }
    let no_jitter = case(flat, bins.iter().map(|b| b.no_jitter));
    let full_jitter = case(jittered, bins.iter().map(|b| b.full_jitter));
    assert!(
        full_jitter.first_us >= retry_after_us,
        "never earlier than asked"
    );
    Ok(HerdResult {
        clients: p.clients,
        retry_after_us,
        bin_us: p.bin_us,
        no_jitter,
        full_jitter,
        bins,
    })
}

/// The summary of sorted wake-ups and their bin counts.
fn case(wakes_us: Vec<u64>, bin_counts: impl Iterator<Item = u32>) -> HerdCase {
    let mut per_ms: BTreeMap<u64, u32> = BTreeMap::new();
    for &w in &wakes_us {
        *per_ms.entry(w / US_PER_MS).or_default() += 1;
    }
    HerdCase {
        first_us: wakes_us[0],
        last_us: wakes_us[wakes_us.len() - 1],
        peak_per_ms: per_ms.values().copied().max().unwrap_or(0),
        peak_per_bin: bin_counts.max().unwrap_or(0),
        wakes_us,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_jitter_the_whole_herd_lands_in_one_millisecond() {
        let r = run(&HerdParams::default(), 1).unwrap();
        assert_eq!(r.retry_after_us, secs(1));
        assert_eq!(r.no_jitter.peak_per_ms, 100);
        assert_eq!(r.no_jitter.peak_per_bin, 100);
        assert_eq!(r.no_jitter.first_us, r.no_jitter.last_us);
        assert_eq!(r.bins.len(), 40);
        let counted: u32 = r.bins.iter().map(|b| b.full_jitter).sum();
        assert_eq!(counted, 100);
    }

    #[test]
    fn full_jitter_spreads_it_over_the_next_wait_and_never_comes_early() {
        for seed in 1..=20 {
            let r = run(&HerdParams::default(), seed).unwrap();
            let j = &r.full_jitter;
            assert!(j.first_us >= secs(1) && j.last_us < secs(2), "seed {seed}");
            // 100 wake-ups over 1,000 ms: about 5 per 50 ms bin; a peak past 15 or a
            // millisecond holding 5 would mean the spread is broken, not unlucky.
            assert!(j.peak_per_bin <= 15, "seed {seed}: {}", j.peak_per_bin);
            assert!(j.peak_per_ms <= 4, "seed {seed}: {}", j.peak_per_ms);
            assert!(r.bins[..20].iter().all(|b| b.full_jitter == 0));
        }
    }

    #[test]
    fn other_retry_after_forms_are_read_too() {
        let p = HerdParams {
            retry_after: "Sun, 30 Aug 2026 10:41:01 GMT".into(),
            ..HerdParams::default()
        };
        let r = run(&p, 1).unwrap();
        assert_eq!(r.retry_after_us, secs(2));
        assert_eq!(r.bins.len(), 80);
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
        let p = HerdParams {
            clients: 0,
            ..HerdParams::default()
        };
        assert_eq!(run(&p, 1), Err(HerdError::Clients));
    }
}

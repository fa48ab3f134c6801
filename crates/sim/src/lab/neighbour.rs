//! Experiment 4, the noisy neighbour: one caller sends a burst and two others a few
//! requests each, all within a few milliseconds, against one global bucket and then
//! against one bucket per caller.
//!
//! The noisy caller is throttled the same either way. What changes is everyone else:
//! behind a global bucket the quiet callers arrive after the noisy one has emptied it
//! and lose every request; with a bucket each they lose nothing.
//!
//! The same arrivals then go to every limiter of [`LimiterKind::ALL`] (built for the
//! policy, as the boundary burst builds them), global and per key, tallied as the noisy
//! caller's (the first) and the quiet callers' (all the others together).

use super::ARTICLE_POLICY;
use crate::limiter::{LimiterError, LimiterKind, Policy, Scope, TokenBucket};
use crate::rng::SimRng;
use serde::Serialize;

/// The most callers.
pub const MAX_CALLERS: usize = 100;

/// The most requests one caller may send.
pub const MAX_REQUESTS_PER_CALLER: u32 = 10_000;

/// The widest gap between two arrivals.
pub const MAX_GAP_US: u64 = 1_000_000;

/// The experiment's setup. The defaults are the article's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeighbourParams {
    /// Bucket size, global or per caller.
    pub capacity: u32,
    /// Refill rate, the published limit.
    pub policy: Policy,
    /// Callers and how many requests each sends, in arrival order: every request of
    /// the first caller arrives before any of the second's, and so on.
    pub callers: Vec<(String, u32)>,
    /// Consecutive arrivals are this far apart at least …
    pub gap_min_us: u64,
    /// … and at most (seeded, uniform).
    pub gap_max_us: u64,
}

impl Default for NeighbourParams {
    fn default() -> Self {
        Self {
            capacity: 10,
            policy: ARTICLE_POLICY,
            callers: vec![
                ("acme".into(), 40),
                ("bakery".into(), 3),
                ("clinic".into(), 3),
            ],
            gap_min_us: 20,
            gap_max_us: 80,
        }
    }
}

/// Why the neighbour experiment cannot run with these callers (the page layer writes
/// the sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NeighbourError {
    /// No callers, or more than [`MAX_CALLERS`].
    CallerCount,
    /// A caller's name is not a word in lower-case ASCII letters (it names result cells).
    CallerName {
        /// The name given.
        name: String,
    },
    /// A caller sends fewer than 1 or more than [`MAX_REQUESTS_PER_CALLER`] requests.
    CallerRequests {
        /// The caller's name.
        name: String,
    },
    /// Two callers share a name.
    DuplicateCaller,
    /// The gap between arrivals is not a range within 0 to [`MAX_GAP_US`].
    Gap,
    /// The bucket refuses the policy or a request, for the limiter's own reason.
    Limiter(LimiterError),
}

crate::error_display!(NeighbourError, "neighbour experiment refused");

/// One caller's score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallerTally {
    /// The caller's key.
    pub caller: String,
    /// 200 answers.
    pub ok: u32,
    /// 429 answers.
    pub rate_limited: u32,
}

/// One request's fate, for drawing on a time axis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NeighbourMark {
    /// When it arrived.
    pub at_us: u64,
    /// Whose it was (index into the tallies).
    pub caller: usize,
    /// True if it got a 200.
    pub allowed: bool,
}

/// One scope's run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NeighbourCase {
    /// Global or per key.
    pub scope: Scope,
    /// Per caller, in arrival order.
    pub tallies: Vec<CallerTally>,
    /// Every request, in arrival order.
    pub marks: Vec<NeighbourMark>,
}

/// One limiter's tallies under each scope: the first caller's, and the others' together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NeighbourLimiter {
    /// The limiter.
    pub limiter: LimiterKind,
    /// The noisy caller's 200s, behind one allowance for everyone.
    pub global_noisy_ok: u32,
    /// The quiet callers' 200s together, behind one allowance for everyone.
    pub global_quiet_ok: u32,
    /// The noisy caller's 200s, with an allowance each.
    pub per_key_noisy_ok: u32,
    /// The quiet callers' 200s together, with an allowance each.
    pub per_key_quiet_ok: u32,
}

/// The neighbour experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NeighbourResult {
    /// The published limit.
    pub limit: u32,
    /// Its window.
    pub window_us: u64,
    /// From the first arrival to the last.
    pub span_us: u64,
    /// One bucket for everyone.
    pub global: NeighbourCase,
    /// One bucket per caller.
    pub per_key: NeighbourCase,
    /// Every limiter, global and per key, in [`LimiterKind::ALL`]'s order.
    pub limiters: Vec<NeighbourLimiter>,
    /// Requests the noisy caller sent, and the quiet callers together.
    pub noisy_sent: u32,
    /// Requests the quiet callers sent together.
    pub quiet_sent: u32,
}

/// The experiment's arrivals for `seed`, in order: each an instant and the index of its
/// caller in `p.callers`. (The fleet, `crate::fleet`, sends the same schedule to many
/// instances.)
pub fn arrivals(p: &NeighbourParams, seed: u64) -> Result<Vec<(u64, usize)>, NeighbourError> {
    if p.callers.is_empty() || p.callers.len() > MAX_CALLERS {
        return Err(NeighbourError::CallerCount);
    }
    for (name, n) in &p.callers {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase()) {
            return Err(NeighbourError::CallerName { name: name.clone() });
        }
        if !(1..=MAX_REQUESTS_PER_CALLER).contains(n) {
            return Err(NeighbourError::CallerRequests { name: name.clone() });
        }
    }
    if p.callers
        .iter()
        .enumerate()
        .any(|(i, (a, _))| p.callers[..i].iter().any(|(b, _)| a == b))
    {
        return Err(NeighbourError::DuplicateCaller);
    }
    if p.gap_min_us > p.gap_max_us || p.gap_max_us > MAX_GAP_US {
        return Err(NeighbourError::Gap);
    }
    let mut rng = SimRng::from_seed(seed);
    let mut arrivals = Vec::new();
    let mut at_us = 0;
    for (i, (_, n)) in p.callers.iter().enumerate() {
        for _ in 0..*n {
            arrivals.push((at_us, i));
            at_us += rng.between(p.gap_min_us, p.gap_max_us);
        }
    }
    Ok(arrivals)
}

/// Runs the experiment: the same arrivals against each scope.
pub fn run(p: &NeighbourParams, seed: u64) -> Result<NeighbourResult, NeighbourError> {
    let arrivals = arrivals(p, seed)?;
    let case = |scope| -> Result<NeighbourCase, NeighbourError> {
        let mut bucket =
            TokenBucket::new(p.capacity, p.policy, scope).map_err(NeighbourError::Limiter)?;
        let mut tallies: Vec<CallerTally> = p
            .callers
            .iter()
            .map(|(name, _)| CallerTally {
                caller: name.clone(),
                ok: 0,
                rate_limited: 0,
            })
            .collect();
        let mut marks = Vec::new();
        for &(at_us, i) in &arrivals {
            let d = bucket
                .check(at_us, &p.callers[i].0, 1)
                .map_err(NeighbourError::Limiter)?;
            if d.allowed {
                tallies[i].ok += 1;
            } else {
                tallies[i].rate_limited += 1;
            }
            marks.push(NeighbourMark {
                at_us,
                caller: i,
                allowed: d.allowed,
            });
        }
        Ok(NeighbourCase {
            scope,
            tallies,
            marks,
        })
    };
    let ok_of = |kind: LimiterKind, scope| -> Result<(u32, u32), NeighbourError> {
        let mut l = kind
            .build(p.policy, scope)
            .map_err(NeighbourError::Limiter)?;
        let (mut noisy, mut quiet) = (0, 0);
        for &(at_us, i) in &arrivals {
            let d = l
                .check(at_us, &p.callers[i].0, 1)
                .map_err(NeighbourError::Limiter)?;
            if d.allowed {
                *(if i == 0 { &mut noisy } else { &mut quiet }) += 1;
            }
        }
        Ok((noisy, quiet))
    };
    let mut limiters = Vec::new();
    for kind in LimiterKind::ALL {
        let (global_noisy_ok, global_quiet_ok) = ok_of(kind, Scope::Global)?;
        let (per_key_noisy_ok, per_key_quiet_ok) = ok_of(kind, Scope::PerKey)?;
        limiters.push(NeighbourLimiter {
            limiter: kind,
            global_noisy_ok,
            global_quiet_ok,
            per_key_noisy_ok,
            per_key_quiet_ok,
        });
    }
    let noisy_sent = p.callers[0].1;
    Ok(NeighbourResult {
        limit: p.policy.limit,
        window_us: p.policy.window_us,
        span_us: arrivals[arrivals.len() - 1].0,
        global: case(Scope::Global)?,
        per_key: case(Scope::PerKey)?,
        limiters,
        noisy_sent,
        quiet_sent: arrivals.len() as u32 - noisy_sent,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(case: &NeighbourCase, who: &str) -> (u32, u32) {
        let t = case.tallies.iter().find(|t| t.caller == who).unwrap();
        (t.ok, t.rate_limited)
    }

    #[test]
    fn a_global_bucket_starves_the_quiet_callers_and_per_key_does_not() {
        for seed in 1..=20 {
            let r = run(&NeighbourParams::default(), seed).unwrap();
            assert!(r.span_us < 4_000, "{}", r.span_us);
            assert_eq!(tally(&r.global, "acme"), (10, 30), "seed {seed}");
            assert_eq!(tally(&r.per_key, "acme"), (10, 30), "seed {seed}");
            for quiet in ["bakery", "clinic"] {
                assert_eq!(tally(&r.global, quiet), (0, 3), "seed {seed}");
                assert_eq!(tally(&r.per_key, quiet), (3, 0), "seed {seed}");
            }
        }
    }

    #[test]
    fn every_limiter_starves_the_quiet_callers_only_when_global() {
        for seed in 1..=20 {
            let r = run(&NeighbourParams::default(), seed).unwrap();
            assert_eq!((r.noisy_sent, r.quiet_sent), (40, 6));
            assert_eq!(r.limiters.len(), LimiterKind::ALL.len());
            for l in &r.limiters {
                // All 46 arrive within 4 ms: no limiter refills or frees anything worth
                // a request, so each lets the limit through and no more.
                assert_eq!(l.global_noisy_ok, 10, "{:?} seed {seed}", l.limiter);
                assert_eq!(l.global_quiet_ok, 0, "{:?} seed {seed}", l.limiter);
                assert_eq!(l.per_key_noisy_ok, 10, "{:?} seed {seed}", l.limiter);
                assert_eq!(l.per_key_quiet_ok, 6, "{:?} seed {seed}", l.limiter);
            }
            // The bucket's row is the bucket case's tallies.
            let bucket = &r.limiters[2];
            assert_eq!(bucket.limiter, LimiterKind::Bucket);
            assert_eq!(bucket.global_noisy_ok, r.global.tallies[0].ok);
        }
    }

    #[test]
    fn quiet_callers_who_come_first_are_not_starved() {
        // Order matters under a global bucket: arriving before the burst, they get in.
        let p = NeighbourParams {
            callers: vec![
                ("bakery".into(), 3),
                ("clinic".into(), 3),
                ("acme".into(), 40),
            ],
            ..NeighbourParams::default()
        };
        let r = run(&p, 1).unwrap();
        assert_eq!(tally(&r.global, "bakery"), (3, 0));
        assert_eq!(tally(&r.global, "acme"), (4, 36));
        assert_eq!(tally(&r.per_key, "clinic"), (3, 0));
    }

    #[test]
    fn bad_callers_say_which() {
        let named = |name: &str| name.to_string();
        for (callers, error) in [
            (vec![], NeighbourError::CallerCount),
            (
                vec![(named("Acme"), 3)],
                NeighbourError::CallerName {
                    name: named("Acme"),
                },
            ),
            (
                vec![(named("acme"), 0)],
                NeighbourError::CallerRequests {
                    name: named("acme"),
                },
            ),
            (
                vec![(named("acme"), 3), (named("acme"), 3)],
                NeighbourError::DuplicateCaller,
            ),
        ] {
            let p = NeighbourParams {
                callers,
                ..NeighbourParams::default()
            };
            assert_eq!(run(&p, 1), Err(error));
        }
        let p = NeighbourParams {
            gap_min_us: 90,
            ..NeighbourParams::default()
        };
        assert_eq!(run(&p, 1), Err(NeighbourError::Gap));
    }
}

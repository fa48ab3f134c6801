//! Experiment 1, the boundary burst: one volley of requests shortly before a window
//! boundary and another just after it, against each limiter with the same limit.
//!
//! The fixed window lets both volleys through, twice the published rate inside a couple
//! of hundred milliseconds; the sliding log lets through exactly the limit; the token
//! bucket lets through the limit plus whatever really refilled between the volleys.
//!
//! Where the volleys sit is a parameter: how long before the boundary the first one
//! starts, and the gap from its start to the second's. Each answer carries the
//! `RateLimit` and `Retry-After` values a client would have read, and the token bucket's
//! level is traced through the run.

use super::ARTICLE_POLICY;
use crate::headers::response_headers;
use crate::limiter::{LimiterError, LimiterKind, Policy, Scope, TokenBucket};
use crate::rng::SimRng;
use crate::time::{ms, secs};
use serde::Serialize;

/// The caller every request comes from.
const CALLER: &str = "burst-client";

/// The most requests one volley may hold.
pub const MAX_PER_VOLLEY: u32 = 10_000;

/// The widest gap between the volleys' starts.
pub const MAX_GAP_US: u64 = secs(60);

/// Why the burst cannot run with these parameters (the page layer writes the sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BurstError {
    /// The limiters refuse the policy or a request, for the limiter's own reason.
    Limiter(LimiterError),
    /// The boundary is not a multiple of the window.
    BoundaryOffWindow,
    /// The first volley would start before 0 or not finish before the boundary.
    FirstVolleyMisplaced,
    /// A volley holds fewer than 1 or more than [`MAX_PER_VOLLEY`] requests.
    VolleySize,
    /// The gap between the volleys' starts is not longer than a volley's spread (they
    /// would mix) or is longer than [`MAX_GAP_US`].
    Gap,
}

crate::error_display!(BurstError, "burst experiment refused");

/// What the experiment sends. The defaults are the article's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurstParams {
    /// The limit all three limiters enforce (a bucket holds `limit` tokens).
    pub policy: Policy,
    /// The window boundary the volleys straddle; a multiple of the window.
    pub boundary_us: u64,
    /// How long before the boundary the first volley starts.
    pub before_us: u64,
    /// From the first volley's start to the second's. The second volley may start
    /// before the boundary too, if the gap is shorter than `before_us`.
    pub gap_us: u64,
    /// Requests in each volley.
    pub per_volley: u32,
    /// A volley's requests arrive spread over this span (seeded): fired together, they
    /// still reach the server one after another.
    pub spread_us: u64,
}

impl Default for BurstParams {
    fn default() -> Self {
        Self {
            policy: ARTICLE_POLICY,
            boundary_us: secs(2),
            before_us: ms(150),
            gap_us: ms(170),
            per_volley: 10,
            spread_us: ms(2),
        }
    }
}

/// One request's fate, for drawing on a time axis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BurstMark {
    /// When it arrived.
    pub at_us: u64,
    /// True if it got a 200.
    pub allowed: bool,
    /// `RateLimit-Remaining` on its answer.
    pub remaining: u32,
    /// How long it was told to wait, if refused.
    pub retry_after_us: u64,
    /// The `RateLimit` header on its answer.
    pub rate_limit: String,
    /// The `Retry-After` header on its answer, if refused.
    pub retry_after: Option<String>,
}

/// The token bucket's level at one instant, for drawing it as a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelPoint {
    /// The instant.
    pub at_us: u64,
    /// Tokens in the bucket, in thousandths (rounded down).
    pub milli_tokens: u64,
}

/// One limiter's run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BurstLane {
    /// The limiter.
    pub limiter: LimiterKind,
    /// Accepted from the volley before the boundary.
    pub before: u32,
    /// Accepted from the volley after it.
    pub after: u32,
    /// Accepted in all.
    pub accepted: u32,
    /// Refused in all.
    pub refused: u32,
    /// Accepted but held in a queue before being served (only a queue delays).
    pub delayed: u32,
    /// The longest any accepted request waited in the queue.
    pub max_delay_us: u64,
    /// Every request, in arrival order.
    pub marks: Vec<BurstMark>,
}

/// The burst experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BurstResult {
    /// Requests allowed per window.
    pub limit: u32,
    /// The window.
    pub window_us: u64,
    /// The boundary the volleys straddle.
    pub boundary_us: u64,
    /// When the first volley started.
    pub first_volley_us: u64,
    /// When the second volley started.
    pub second_volley_us: u64,
    /// From the first arrival to the last.
    pub span_us: u64,
    /// One per limiter, in [`LimiterKind::ALL`]'s order.
    pub lanes: Vec<BurstLane>,
    /// The token bucket's level: just before and just after each arrival, and where
    /// the refill reaches the top. Straight lines join the points.
    pub bucket_level: Vec<LevelPoint>,
}

/// The experiment's arrival times for `seed`, in order: both volleys, each spread as
/// drawn. (The fleet, `crate::fleet`, sends the same schedule to many instances.)
pub fn arrivals(p: &BurstParams, seed: u64) -> Result<Vec<u64>, BurstError> {
    p.policy.check().map_err(BurstError::Limiter)?;
    if !p.boundary_us.is_multiple_of(p.policy.window_us) {
        return Err(BurstError::BoundaryOffWindow);
    }
    if p.before_us > p.boundary_us || p.spread_us >= p.before_us {
        return Err(BurstError::FirstVolleyMisplaced);
    }
    if !(1..=MAX_PER_VOLLEY).contains(&p.per_volley) {
        return Err(BurstError::VolleySize);
    }
    if p.gap_us <= p.spread_us || p.gap_us > MAX_GAP_US {
        return Err(BurstError::Gap);
    }
    let mut rng = SimRng::from_seed(seed);
    let first_volley_us = p.boundary_us - p.before_us;
    let second_volley_us = first_volley_us + p.gap_us;
    let mut arrivals = Vec::new();
    for start_us in [first_volley_us, second_volley_us] {
        // Each arrival put in its place as it is drawn: the volley in time order, as
        // sorting it after would give. A volley is short, so an insertion costs no more
        // than a sort, and the core keeps its one sort routine for the long lists.
        let mut volley: Vec<u64> = Vec::with_capacity(p.per_volley as usize);
        for _ in 0..p.per_volley {
            let at_us = start_us + rng.below(p.spread_us + 1);
            volley.insert(volley.partition_point(|&t| t <= at_us), at_us);
        }
        arrivals.extend(volley);
    }
    Ok(arrivals)
}

/// Runs the experiment. The same arrival times go to every limiter.
pub fn run(p: &BurstParams, seed: u64) -> Result<BurstResult, BurstError> {
    let arrivals = arrivals(p, seed)?;
    let first_volley_us = p.boundary_us - p.before_us;
    let second_volley_us = first_volley_us + p.gap_us;
    let mut lanes = Vec::new();
    for kind in LimiterKind::ALL {
        let mut limiter = kind
            .build(p.policy, Scope::PerKey)
            .map_err(BurstError::Limiter)?;
        let mut lane = BurstLane {
            limiter: kind,
            before: 0,
            after: 0,
            accepted: 0,
            refused: 0,
            delayed: 0,
            max_delay_us: 0,
            marks: Vec::new(),
        };
        for &at_us in &arrivals {
            let (d, delay_us) = limiter
                .check_delayed(at_us, CALLER, 1)
                .map_err(BurstError::Limiter)?;
            if delay_us > 0 {
                lane.delayed += 1;
                lane.max_delay_us = lane.max_delay_us.max(delay_us);
            }
            if d.allowed {
                lane.accepted += 1;
                if at_us < p.boundary_us {
                    lane.before += 1;
                } else {
                    lane.after += 1;
                }
            } else {
                lane.refused += 1;
            }
            let headers = response_headers(p.policy, &d);
            let header = |name: &str| {
                headers
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.clone())
            };
            lane.marks.push(BurstMark {
                at_us,
                allowed: d.allowed,
                remaining: d.remaining,
                retry_after_us: d.retry_after_us,
                rate_limit: header("RateLimit").expect("every answer says RateLimit"),
                retry_after: header("Retry-After"),
            });
        }
        assert_eq!(lane.accepted + lane.refused, 2 * p.per_volley);
        lanes.push(lane);
    }
    Ok(BurstResult {
        limit: p.policy.limit,
        window_us: p.policy.window_us,
        boundary_us: p.boundary_us,
        first_volley_us,
        second_volley_us,
        span_us: arrivals[arrivals.len() - 1] - arrivals[0],
        lanes,
        bucket_level: bucket_level(p.policy, &arrivals)?,
    })
}

/// The level of a token bucket like the lane's (the same capacity and refill), traced
/// through `arrivals`.
fn bucket_level(policy: Policy, arrivals: &[u64]) -> Result<Vec<LevelPoint>, BurstError> {
    let mut bucket =
        TokenBucket::new(policy.limit, policy, Scope::PerKey).map_err(BurstError::Limiter)?;
    let mut points = Vec::new();
    let mut point = |bucket: &mut TokenBucket, at_us| {
        let milli_tokens = bucket.milli_tokens(at_us, CALLER);
        points.push(LevelPoint {
            at_us,
            milli_tokens,
        });
    };
    for (i, &at_us) in arrivals.iter().enumerate() {
        point(&mut bucket, at_us);
        bucket
            .check(at_us, CALLER, 1)
            .map_err(BurstError::Limiter)?;
        point(&mut bucket, at_us);
        // Where the refill tops out before the next arrival (or after the last), the
        // line bends.
        let full_us = bucket.full_at(at_us, CALLER);
        if arrivals.get(i + 1).is_none_or(|&next| full_us < next) && full_us > at_us {
            point(&mut bucket, full_us);
        }
    }
    Ok(points)
}

impl BurstResult {
    /// Accepted requests of one limiter.
    pub fn accepted(&self, kind: LimiterKind) -> u32 {
        self.lanes
            .iter()
            .find(|l| l.limiter == kind)
            .map_or(0, |l| l.accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_window_lets_twice_the_limit_through() {
        for seed in 1..=20 {
            let r = run(&BurstParams::default(), seed).unwrap();
            assert_eq!(r.accepted(LimiterKind::Fixed), 20, "seed {seed}");
            assert_eq!(r.accepted(LimiterKind::Sliding), 10, "seed {seed}");
            // 170 ms lie between the volleys' starts: 1.7 tokens refilled, one usable.
            assert_eq!(r.accepted(LimiterKind::Bucket), 11, "seed {seed}");
            assert!(r.span_us <= ms(172), "{}", r.span_us);
        }
    }

    #[test]
    fn the_buckets_extra_grows_with_the_gap() {
        // 420 ms between volley starts: 4 tokens refilled.
        let p = BurstParams {
            before_us: ms(400),
            gap_us: ms(420),
            ..BurstParams::default()
        };
        let r = run(&p, 1).unwrap();
        assert_eq!(r.accepted(LimiterKind::Bucket), 14);
        assert_eq!(r.accepted(LimiterKind::Fixed), 20);
        assert_eq!(r.accepted(LimiterKind::Sliding), 10);
    }

    #[test]
    fn marks_sit_on_the_time_axis_in_order() {
        let r = run(&BurstParams::default(), 3).unwrap();
        for lane in &r.lanes {
            assert_eq!(lane.marks.len(), 20);
            assert!(lane.marks.windows(2).all(|w| w[0].at_us <= w[1].at_us));
            assert!(lane.marks[..10].iter().all(|m| m.at_us < r.boundary_us));
            assert!(lane.marks[10..].iter().all(|m| m.at_us > r.boundary_us));
            assert!(lane
                .marks
                .iter()
                .all(|m| m.allowed == (m.retry_after_us == 0)));
        }
    }

    #[test]
    fn both_volleys_before_the_boundary_meet_one_window() {
        // The second volley 100 ms after the first, both before the boundary: the fixed
        // window now counts them in one window and lets only the limit through.
        let p = BurstParams {
            before_us: ms(300),
            gap_us: ms(100),
            ..BurstParams::default()
        };
        let r = run(&p, 1).unwrap();
        assert_eq!(r.accepted(LimiterKind::Fixed), 10);
        assert_eq!(r.lanes[0].after, 0);
        assert_eq!(r.accepted(LimiterKind::Bucket), 11);
    }

    #[test]
    fn the_headers_count_down_and_the_level_follows_the_bucket() {
        let r = run(&BurstParams::default(), 2).unwrap();
        let bucket = r
            .lanes
            .iter()
            .find(|l| l.limiter == LimiterKind::Bucket)
            .unwrap();
        let first: Vec<&str> = bucket.marks[..3]
            .iter()
            .map(|m| m.rate_limit.as_str())
            .collect();
        assert_eq!(
            first,
            [
                "\"burst\";r=9;t=1",
                "\"burst\";r=8;t=1",
                "\"burst\";r=7;t=1"
            ]
        );
        for m in &bucket.marks {
            assert_eq!(m.retry_after.is_some(), !m.allowed);
        }
        assert_eq!(bucket.marks[11].retry_after.as_deref(), Some("1"));
        // Full before the first arrival, one token less after it, never above the top.
        assert_eq!(r.bucket_level[0].milli_tokens, 10_000);
        assert!(r.bucket_level[1].milli_tokens < 9_100);
        assert!(r.bucket_level.iter().all(|p| p.milli_tokens <= 10_000));
        assert!(r.bucket_level.windows(2).all(|w| w[0].at_us <= w[1].at_us));
        // After the last arrival the line climbs back to full.
        assert_eq!(r.bucket_level.last().unwrap().milli_tokens, 10_000);
    }

    #[test]
    fn the_other_limiters_meet_the_same_burst() {
        for seed in 1..=20 {
            let r = run(&BurstParams::default(), seed).unwrap();
            assert_eq!(r.lanes.len(), LimiterKind::ALL.len());
            // The second volley comes about 20 ms into the new window, where the first
            // volley's window still weighs 0.98: 10 · 0.98 + 1 > 10, so none gets in.
            assert_eq!(r.accepted(LimiterKind::Counter), 10, "seed {seed}");
            // The queue and GCRA admit as the bucket does; only the queue delays, each
            // one 100 ms behind the one before, minus the little time the volley took.
            for kind in [LimiterKind::Queue, LimiterKind::Nodelay, LimiterKind::Gcra] {
                assert_eq!(r.accepted(kind), 11, "{kind} seed {seed}");
            }
            let lane = |k| r.lanes.iter().find(|l| l.limiter == k).unwrap();
            assert_eq!(lane(LimiterKind::Queue).delayed, 10, "seed {seed}");
            assert!(lane(LimiterKind::Queue).max_delay_us > ms(880));
            assert_eq!(lane(LimiterKind::Nodelay).delayed, 0);
            assert_eq!(lane(LimiterKind::Bucket).delayed, 0);
            // Ten in flight, each done in 15 ms: the second volley finds all slots free.
            assert_eq!(r.accepted(LimiterKind::Inflight), 20, "seed {seed}");
        }
    }

    #[test]
    fn bad_parameters_say_which() {
        let p = BurstParams {
            boundary_us: ms(2_500),
            ..BurstParams::default()
        };
        assert_eq!(run(&p, 1), Err(BurstError::BoundaryOffWindow));
        let p = BurstParams {
            spread_us: ms(200),
            ..BurstParams::default()
        };
        assert_eq!(run(&p, 1), Err(BurstError::FirstVolleyMisplaced));
        for gap_us in [ms(2), MAX_GAP_US + 1] {
            let p = BurstParams {
                gap_us,
                ..BurstParams::default()
            };
            assert_eq!(run(&p, 1), Err(BurstError::Gap));
        }
        for per_volley in [0, MAX_PER_VOLLEY + 1] {
            let p = BurstParams {
                per_volley,
                ..BurstParams::default()
            };
            assert_eq!(run(&p, 1), Err(BurstError::VolleySize));
        }
        let p = BurstParams {
            policy: Policy {
                limit: 0,
                window_us: secs(1),
            },
            ..BurstParams::default()
        };
        assert!(matches!(run(&p, 1), Err(BurstError::Limiter(_))));
    }
}

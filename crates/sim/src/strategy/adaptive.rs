//! adaptive: breaker, but instead of a fixed six workers, as many as the provider can
//! take, found by AIMD (additive increase, multiplicative decrease).
//!
//! The rule is the controller of Vector's adaptive request concurrency
//! (vectordotdev/vector, `src/sinks/util/adaptive_concurrency/controller.rs`), with its
//! default settings, in integer microseconds. Time runs in intervals of one average
//! round trip. Over each, the client averages the round trips of its 200s (the current
//! round trip) and notes whether it was at its limit and whether it met back-pressure:
//! a 429, a 503 or a timeout. At the interval's end, the limit
//! - grows by 1 if the client was at its limit, met no back-pressure, and the current
//!   round trip is no slower than the past ones' average;
//! - otherwise falls to 0.9 of itself, rounded down, if it met back-pressure or the
//!   current round trip is at least 2.5 deviations above that average;
//! - otherwise stays.
//!
//! Then the current round trip joins the past ones' exponentially weighted mean and
//! variance, and the next interval lasts the new mean. A worker that would exceed the
//! limit waits a round trip, then twice that, and asks again.

use super::{breaker, ClientParams, ClientPlan, Launch};
use serde::{Deserialize, Serialize};

/// AIMD's numbers: Vector's settings, each fraction in tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AimdConfig {
    /// The limit at the start (Vector's `initial_concurrency`, default 1).
    pub initial_concurrency: u32,
    /// The highest limit (Vector's `max_concurrency_limit`, default 200).
    pub max_concurrency_limit: u32,
    /// The decrease, in tenths: 9 is ×0.9 (Vector's `decrease_ratio`, default 0.9).
    pub decrease_ratio_tenths: u32,
    /// The weight of the newest round trip in the average, in tenths: 4 is 0.4
    /// (Vector's `ewma_alpha`, default 0.4).
    pub ewma_alpha_tenths: u64,
    /// How many deviations above the average a round trip may be before the limit
    /// falls, in tenths: 25 is 2.5 (Vector's `rtt_deviation_scale`, default 2.5).
    pub rtt_deviation_scale_tenths: u64,
}

/// Vector's defaults.
pub const VECTOR_ARC: AimdConfig = AimdConfig {
    initial_concurrency: 1,
    max_concurrency_limit: 200,
    decrease_ratio_tenths: 9,
    ewma_alpha_tenths: 4,
    rtt_deviation_scale_tenths: 25,
};

/// The past round trips: their exponentially weighted mean and variance (West's
/// recurrence, as Vector's `EwmaVar`), in µs and µs², rounded down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RttAverage {
    /// The mean.
    pub mean_us: u64,
    /// The variance.
    pub variance_us2: u64,
}

impl RttAverage {
    /// The average of one round trip: itself, with no variance.
    pub fn first(rtt_us: u64) -> Self {
        Self {
            mean_us: rtt_us,
            variance_us2: 0,
        }
    }

    /// With `rtt_us` weighted `alpha_tenths`: mean + α·d, (1 − α)·(variance + α·d²),
    /// where d is the round trip less the mean.
    pub fn update(self, rtt_us: u64, alpha_tenths: u64) -> Self {
        let a = i128::from(alpha_tenths.min(10));
        let d = i128::from(rtt_us) - i128::from(self.mean_us);
        let mean = i128::from(self.mean_us) + d * a / 10;
        let variance = (10 - a) * (10 * i128::from(self.variance_us2) + a * d * d) / 100;
        Self {
            mean_us: mean as u64,
            variance_us2: u64::try_from(variance).unwrap_or(u64::MAX),
        }
    }

    /// True if `rtt_us` is at least `scale_tenths`/10 deviations above the mean:
    /// rtt − mean ≥ scale·√variance, squared to stay in integers.
    pub fn is_far_above(&self, rtt_us: u64, scale_tenths: u64) -> bool {
        let d = i128::from(rtt_us) - i128::from(self.mean_us);
        let s = i128::from(scale_tenths);
        d >= 0 && 100 * d * d >= s * s * i128::from(self.variance_us2)
    }
}

/// The limit as it stands, and what the current interval has seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aimd {
    config: AimdConfig,
    limit: u32,
    /// The past intervals' round trips (none before the first 200).
    past: Option<RttAverage>,
    /// The current interval's end: the limit changes at most once per interval.
    next_update_us: u64,
    /// The current interval's round trips: their sum and how many.
    current_sum_us: u64,
    current_count: u64,
    /// Charges begun and not finished: each holds a place under the limit through its
    /// retries, as a request holds its permit in Vector.
    in_flight: u32,
    reached: bool,
    pressure: bool,
}

impl Aimd {
    /// A limit at its start.
    pub fn new(config: AimdConfig) -> Self {
        Self {
            config,
            limit: config.initial_concurrency,
            past: None,
            next_update_us: 0,
            current_sum_us: 0,
            current_count: 0,
            in_flight: 0,
            reached: false,
            pressure: false,
        }
    }

    /// The concurrency limit now.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// The past round trips' average, once a 200 has come.
    pub fn past(&self) -> Option<RttAverage> {
        self.past
    }

    /// How long a worker over the limit waits before asking again.
    pub fn poll_us(&self) -> u64 {
        self.past.map_or(0, |p| p.mean_us).max(1_000)
    }

    /// A charge begins.
    pub fn on_begin(&mut self) {
        self.in_flight += 1;
        self.reached |= self.in_flight >= self.limit;
    }

    /// An attempt ended: `rtt_us` for a 200 (the only answers whose round trip counts),
    /// `pressure` for a 429, a 503 or a timeout.
    pub fn on_result(&mut self, rtt_us: Option<u64>, pressure: bool) {
        self.pressure |= pressure;
        if let Some(rtt_us) = rtt_us {
            self.current_sum_us += rtt_us;
            self.current_count += 1;
        }
    }

    /// A charge finished at `now_us`: if the interval is over, the limit may change.
    pub fn on_finish(&mut self, now_us: u64) {
        self.in_flight -= 1;
        let current_us = (self.current_count > 0).then(|| self.current_sum_us / self.current_count);
        let Some(past) = self.past else {
            // The first round trip sets the average and the first interval.
            if let Some(c) = current_us {
                self.past = Some(RttAverage::first(c));
                self.next_update_us = now_us + c;
            }
            return;
        };
        if now_us < self.next_update_us {
            return;
        }
        let c = self.config;
        if self.limit < c.max_concurrency_limit
            && self.reached
            && !self.pressure
            && current_us.is_some_and(|r| r <= past.mean_us)
        {
            self.limit += 1;
        } else if self.limit > 1
            && (self.pressure
                || past.is_far_above(current_us.unwrap_or(0), c.rtt_deviation_scale_tenths))
        {
            self.limit = (self.limit * c.decrease_ratio_tenths / 10).max(1);
        }
        let past = current_us.map_or(past, |r| past.update(r, c.ewma_alpha_tenths));
        self.past = Some(past);
        self.next_update_us = now_us + past.mean_us;
        (self.current_sum_us, self.current_count) = (0, 0);
        (self.reached, self.pressure) = (false, false);
    }
}

/// Breaker, with an AIMD concurrency limit instead of a fixed pool.
pub fn plan(p: &ClientParams) -> ClientPlan {
    ClientPlan {
        launch: Launch::Adaptive(VECTOR_ARC),
        ..breaker::plan(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_average_follows_wests_recurrence_as_vectors_own_test_does() {
        // Vector's test, at α = 0.5, on 2, 2, 1, 2 (here in ms as µs): mean 1.5 and
        // variance 0.25 after the 1, then 1.75 and 0.1875.
        let a = RttAverage::first(2_000).update(2_000, 5);
        assert_eq!(a, RttAverage::first(2_000));
        let a = a.update(1_000, 5);
        assert_eq!((a.mean_us, a.variance_us2), (1_500, 250_000));
        let a = a.update(2_000, 5);
        assert_eq!((a.mean_us, a.variance_us2), (1_750, 187_500));
        // 2.5 deviations of √187,500 ≈ 433 µs: 1,750 + 1,082.5.
        assert!(!a.is_far_above(2_832, 25));
        assert!(a.is_far_above(2_833, 25));
        assert!(!a.is_far_above(1_000, 25));
    }

    /// One charge, alone: begun, one attempt, finished at `now_us`.
    fn charge(a: &mut Aimd, now_us: u64, rtt_us: Option<u64>, pressure: bool) {
        a.on_begin();
        a.on_result(rtt_us, pressure);
        a.on_finish(now_us);
    }

    #[test]
    fn it_adds_one_per_fast_interval_at_the_limit_holds_within_the_band_and_cuts_a_tenth() {
        let mut a = Aimd::new(VECTOR_ARC);
        assert_eq!(a.limit(), 1);
        // The first 200 sets the average (10 ms) and the first interval.
        charge(&mut a, 10_000, Some(10_000), false);
        assert_eq!((a.limit(), a.past().unwrap().mean_us), (1, 10_000));
        // At the limit, no slower than the average: +1 at the interval's end.
        charge(&mut a, 15_000, Some(10_000), false);
        assert_eq!(a.limit(), 1, "the interval has not ended");
        charge(&mut a, 20_000, Some(10_000), false);
        assert_eq!(a.limit(), 2);
        // Not at the limit (one charge of two): no increase; faster than the average,
        // no decrease either.
        charge(&mut a, 30_000, Some(9_000), false);
        assert_eq!(a.limit(), 2);
        assert_eq!(
            a.past().unwrap(),
            RttAverage {
                mean_us: 9_600,
                variance_us2: 240_000
            }
        );
        // At the limit but slower than the average, within the band: it holds.
        a.on_begin();
        charge(&mut a, 40_000, Some(10_001), false);
        a.on_finish(40_000);
        assert_eq!(a.limit(), 2);
        // Every interval at the limit and no slower than the average: up to 200.
        let mut t = 100_000;
        let mut highest = 0;
        for _ in 0..250 {
            let others = a.limit() - 1;
            for _ in 0..others {
                a.on_begin();
            }
            let mean_us = a.past().unwrap().mean_us;
            charge(&mut a, t, Some(mean_us), false);
            for _ in 0..others {
                a.on_finish(t);
            }
            highest = highest.max(a.limit());
            t += 100_000;
            if a.limit() == 200 {
                break;
            }
        }
        assert_eq!(highest, 200, "never above the maximum");
        // Back-pressure: the cut comes at the interval's end, once.
        let t = t + 1_000_000;
        charge(&mut a, t, None, true);
        assert_eq!(a.limit(), 180);
        charge(&mut a, t + 1, None, true);
        assert_eq!(a.limit(), 180, "once per interval");
        // A round trip far above the average: a cut with no back-pressure.
        charge(&mut a, t + 1_000_000, Some(1_000_000), false);
        assert_eq!(a.limit(), 162);
        for i in 1..=60 {
            charge(&mut a, t + 1_000_000 + i * 10_000_000, None, true);
        }
        assert_eq!(a.limit(), 1, "never below one");
    }
}

//! adaptive: breaker, but instead of a fixed six workers, as many as the provider can
//! take, found by AIMD (additive increase, multiplicative decrease).
//!
//! The rule is the one of Vector's adaptive request concurrency: start at 1; at the end
//! of each round trip, add 1 if the limit was reached and the last round trip was no
//! slower than its moving average (an exponentially weighted average with weight 0.4,
//! Vector's `ewma_alpha`); on a 429, a 503 or a timeout, multiply by 0.9 (Vector's
//! `decrease_ratio`) at once, at most once per round trip; never above 50 (Vector's
//! default maximum is 200; 50 is already far above what this provider takes). A worker
//! that would exceed the limit waits a round trip, then twice that, and asks again.

use super::{breaker, ClientParams, ClientPlan, Launch};
use serde::{Deserialize, Serialize};

/// AIMD's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AimdConfig {
    /// The limit at the start.
    pub initial: u32,
    /// The highest limit.
    pub max: u32,
    /// The decrease, as a fraction in tenths: 9 is ×0.9.
    pub decrease_tenths: u32,
    /// The weight of the newest round trip in the average, in tenths: 4 is 0.4.
    pub ewma_tenths: u64,
}

/// Vector's rule, with a maximum of 50.
pub const VECTOR_ARC: AimdConfig = AimdConfig {
    initial: 1,
    max: 50,
    decrease_tenths: 9,
    ewma_tenths: 4,
};

/// The limit as it stands, and what the current round trip has seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aimd {
    config: AimdConfig,
    limit: u32,
    /// The moving average of round trips (0 before the first).
    rtt_avg_us: u64,
    /// The current round trip's end: the limit changes at most once per round trip.
    period_end_us: u64,
    reached: bool,
    pressure: bool,
}

impl Aimd {
    /// A limit at its start.
    pub fn new(config: AimdConfig) -> Self {
        Self {
            config,
            limit: config.initial,
            rtt_avg_us: 0,
            period_end_us: 0,
            reached: false,
            pressure: false,
        }
    }

    /// The concurrency limit now.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// How long a worker over the limit waits before asking again.
    pub fn poll_us(&self) -> u64 {
        self.rtt_avg_us.max(1_000)
    }

    /// A request was sent, leaving `awaiting` requests awaited.
    pub fn on_send(&mut self, awaiting: u32) {
        self.reached |= awaiting >= self.limit;
    }

    /// An attempt ended at `now_us` after `rtt_us`; `pressure` for a 429, a 503 or a
    /// timeout.
    pub fn on_result(&mut self, now_us: u64, rtt_us: u64, pressure: bool) {
        let avg = if self.rtt_avg_us == 0 {
            rtt_us
        } else {
            self.rtt_avg_us
        };
        let c = self.config;
        if now_us >= self.period_end_us {
            if !pressure && !self.pressure && self.reached && rtt_us <= avg {
                self.limit = (self.limit + 1).min(c.max);
            }
            self.reached = false;
            self.pressure = false;
            self.period_end_us = now_us + avg;
        }
        if pressure && !self.pressure {
            // Back off at once, and not again within this round trip.
            self.limit = (self.limit * c.decrease_tenths / 10).max(1);
            self.pressure = true;
            self.reached = false;
            self.period_end_us = now_us + avg;
        }
        if !pressure {
            let w = self.config.ewma_tenths;
            self.rtt_avg_us = (avg * (10 - w) + rtt_us * w) / 10;
        }
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
    fn it_adds_one_per_round_trip_at_the_limit_and_cuts_by_a_tenth_under_pressure() {
        let mut a = Aimd::new(VECTOR_ARC);
        assert_eq!(a.limit(), 1);
        a.on_send(1);
        a.on_result(15_000, 15_000, false);
        assert_eq!(a.limit(), 2);
        // Within the same round trip, nothing changes.
        a.on_result(20_000, 10_000, false);
        assert_eq!(a.limit(), 2);
        // Not at the limit: no increase.
        a.on_send(1);
        a.on_result(40_000, 10_000, false);
        assert_eq!(a.limit(), 2);
        for i in 0..60 {
            a.on_send(a.limit());
            a.on_result(100_000 + i * 100_000, 1_000, false);
        }
        assert_eq!(a.limit(), 50, "never above the maximum");
        a.on_result(10_000_000, 1_000_000, true);
        assert_eq!(a.limit(), 45);
        for i in 1..=40 {
            a.on_result(10_000_000 + i * 2_000_000, 1_000_000, true);
        }
        assert_eq!(a.limit(), 1, "never below one");
    }
}

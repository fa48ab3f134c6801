//! breaker: budget, plus a circuit breaker in front of every send.
//!
//! The shape is resilience4j's count-based breaker: closed, open, half-open. Its numbers
//! are scaled to this workload (resilience4j's defaults are a window of 100 calls, a
//! minimum of 100, and 60 s open, far longer than a 15 s batch): it opens when at least
//! half of the last 20 recorded attempts failed, with at least 10 recorded; it stays open
//! 1 s; then it lets 3 probes through, and closes if fewer than half of them fail, or
//! opens again. While it is open, workers wait for it rather than send.
//!
//! A failure is a 429, 500 or 503 or a timeout; a 200, a 400 or a 409 is a success: the
//! provider answered (a decline is the card's fault, and a 409 says the provider is
//! working on that charge). Every attempt is recorded, so every half-open probe ends.

use super::{budget, ClientParams, ClientPlan};
use crate::time::ms;
use serde::{Deserialize, Serialize};

/// A breaker's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakerConfig {
    /// Attempts the failure rate is counted over (at most 32).
    pub window: u32,
    /// Attempts recorded before the rate counts.
    pub minimum: u32,
    /// The failure rate, in percent, at which it opens.
    pub failure_percent: u32,
    /// How long it stays open.
    pub open_us: u64,
    /// Probes let through when half-open.
    pub probes: u32,
    /// How long a worker waits before asking again when every probe is out.
    pub poll_us: u64,
}

/// resilience4j's shape, scaled to this workload (see the module's notes).
pub const SCALED_RESILIENCE4J: BreakerConfig = BreakerConfig {
    window: 20,
    minimum: 10,
    failure_percent: 50,
    open_us: ms(1_000),
    probes: 3,
    poll_us: ms(50),
};

/// Where the breaker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakerState {
    /// Everything goes through; outcomes are recorded.
    Closed,
    /// Nothing goes through until this time.
    Open {
        /// When it half-opens.
        until_us: u64,
    },
    /// A few probes go through.
    HalfOpen {
        /// Probes sent.
        sent: u32,
        /// Probe outcomes recorded, and how many failed.
        recorded: u32,
        /// Of those, failures.
        failed: u32,
    },
}

/// A circuit breaker.
#[derive(Clone, Debug)]
pub struct Breaker {
    config: BreakerConfig,
    state: BreakerState,
    /// The last outcomes while closed, newest in bit 0: 1 for a failure (a window of at
    /// most 32 fits in one word).
    failures: u32,
    /// How many outcomes `failures` holds, at most the window.
    recorded: u32,
    opens: u64,
}

impl Breaker {
    /// A closed breaker.
    pub fn new(config: BreakerConfig) -> Self {
        Self {
            config,
            state: BreakerState::Closed,
            failures: 0,
            recorded: 0,
            opens: 0,
        }
    }

    /// Where it is.
    pub fn state(&self) -> BreakerState {
        self.state
    }

    /// Times it has opened.
    pub fn opens(&self) -> u64 {
        self.opens
    }

    /// May a request go now? A yes in half-open uses up a probe.
    pub fn permits(&mut self, now_us: u64) -> bool {
        if let BreakerState::Open { until_us } = self.state {
            if now_us < until_us {
                return false;
            }
            self.state = BreakerState::HalfOpen {
                sent: 0,
                recorded: 0,
                failed: 0,
            };
        }
        match &mut self.state {
            BreakerState::Closed => true,
            BreakerState::HalfOpen { sent, .. } if *sent < self.config.probes => {
                *sent += 1;
                true
            }
            _ => false,
        }
    }

    /// When a worker refused by [`Breaker::permits`] should ask again.
    pub fn retry_at_us(&self, now_us: u64) -> u64 {
        match self.state {
            BreakerState::Open { until_us } => until_us.max(now_us + 1),
            _ => now_us + self.config.poll_us,
        }
    }

    /// Records an attempt's outcome at `now_us`; true if this opened the breaker.
    pub fn record(&mut self, now_us: u64, failed: bool) -> bool {
        let c = self.config;
        let open = match &mut self.state {
            BreakerState::Open { .. } => false,
            BreakerState::Closed => {
                let window = c.window.min(32);
                let mask = u32::MAX >> (32 - window);
                self.failures = ((self.failures << 1) | u32::from(failed)) & mask;
                self.recorded = (self.recorded + 1).min(window);
                let n = self.recorded;
                n >= c.minimum && self.failures.count_ones() * 100 >= c.failure_percent * n
            }
            BreakerState::HalfOpen {
                recorded,
                failed: fails,
                ..
            } => {
                *recorded += 1;
                *fails += u32::from(failed);
                if *recorded < c.probes {
                    false
                } else if *fails * 100 >= c.failure_percent * c.probes {
                    true
                } else {
                    self.state = BreakerState::Closed;
                    (self.failures, self.recorded) = (0, 0);
                    false
                }
            }
        };
        if open {
            self.state = BreakerState::Open {
                until_us: now_us + c.open_us,
            };
            (self.failures, self.recorded) = (0, 0);
            self.opens += 1;
        }
        open
    }
}

/// Budget, plus a circuit breaker.
pub fn plan(p: &ClientParams) -> ClientPlan {
    ClientPlan {
        breaker: Some(SCALED_RESILIENCE4J),
        ..budget::plan(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_opens_at_half_failures_of_ten_or_more_then_probes_three() {
        let mut b = Breaker::new(SCALED_RESILIENCE4J);
        for i in 0..9 {
            assert!(!b.record(i, true), "fewer than 10 recorded");
        }
        assert!(b.record(9, true));
        assert_eq!(
            b.state(),
            BreakerState::Open {
                until_us: 9 + ms(1_000)
            }
        );
        assert!(!b.permits(ms(500)));
        assert_eq!(b.retry_at_us(ms(500)), 9 + ms(1_000));
        let t = ms(1_100);
        assert!(b.permits(t) && b.permits(t) && b.permits(t));
        assert!(!b.permits(t), "three probes only");
        assert!(!b.record(t, false));
        assert!(!b.record(t, true));
        assert!(!b.record(t, false), "one failure in three closes it");
        assert_eq!(b.state(), BreakerState::Closed);
        // Ten successes and ten failures: 50% opens it.
        for i in 0..10 {
            b.record(t + i, false);
        }
        let opened = (0..10).any(|i| b.record(t + 100 + i, true));
        assert!(opened);
        assert_eq!(b.opens(), 2);
    }
}

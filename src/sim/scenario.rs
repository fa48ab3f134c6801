//! A scenario: a seed plus every parameter of a run. The defaults are the article's.

use super::provider::ProviderConfig;
use super::strategy::{ClientParams, StrategyName};
use super::time::{ms, secs};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::RangeInclusive;

/// The most customers one run may have: enough for the million-customer benchmark with
/// room to spare, small enough that a run's memory stays bounded (about 100 B each).
pub const MAX_CUSTOMERS: u32 = 10_000_000;

/// A seed plus everything else a run depends on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    /// The seed every random draw of the run is keyed by.
    pub seed: u64,
    /// The client strategy.
    pub strategy: StrategyName,
    /// Customers `1..=customers`, one charge each.
    pub customers: u32,
    /// The provider's rules.
    pub provider: ProviderConfig,
    /// The client's numbers.
    pub client: ClientParams,
    /// Keep a record of every request (off for very large runs).
    pub record: bool,
}

impl Default for Scenario {
    fn default() -> Self {
        Self {
            seed: 1,
            strategy: StrategyName::Keyed,
            customers: 1_000,
            provider: ProviderConfig::default(),
            client: ClientParams::default(),
            record: true,
        }
    }
}

/// A parameter outside its range: the parameter's name and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The parameter, as named in URLs and on the command line.
    pub field: &'static str,
    /// What is wrong, in a sentence a reader can act on.
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// The documented range of one numeric parameter.
pub struct Range {
    /// The parameter, as named in URLs and on the command line.
    pub field: &'static str,
    /// Smallest and largest accepted value.
    pub bounds: RangeInclusive<u64>,
    /// The unit the value is written in, for messages.
    pub unit: &'static str,
}

impl Range {
    fn check(&self, value: u64) -> Result<(), ScenarioError> {
        if self.bounds.contains(&value) {
            return Ok(());
        }
        Err(ScenarioError {
            field: self.field,
            message: format!(
                "{value} {unit} is outside the allowed range {lo}–{hi} {unit}",
                unit = self.unit,
                lo = self.bounds.start(),
                hi = self.bounds.end()
            ),
        })
    }
}

/// Every numeric parameter's range. Times are in microseconds in the core.
pub const RANGES: &[Range] = &[
    Range {
        field: "customers",
        bounds: 1..=MAX_CUSTOMERS as u64,
        unit: "customers",
    },
    Range {
        field: "maxInflight",
        bounds: 1..=10_000,
        unit: "requests",
    },
    Range {
        field: "rateLimit",
        bounds: 1..=1_000_000,
        unit: "requests",
    },
    Range {
        field: "rateWindowUs",
        bounds: ms(1)..=secs(3_600),
        unit: "µs",
    },
    Range {
        field: "slowLatencyUs",
        bounds: 0..=secs(600),
        unit: "µs",
    },
    Range {
        field: "latencyUs",
        bounds: 0..=secs(60),
        unit: "µs",
    },
    Range {
        field: "latencyJitterUs",
        bounds: 0..=secs(60),
        unit: "µs",
    },
    Range {
        field: "declineEvery",
        bounds: 0..=MAX_CUSTOMERS as u64,
        unit: "",
    },
    Range {
        field: "pacerPerS",
        bounds: 1..=1_000_000,
        unit: "requests/s",
    },
    Range {
        field: "maxAttempts",
        bounds: 1..=20,
        unit: "attempts",
    },
    Range {
        field: "backoffBaseUs",
        bounds: 0..=secs(60),
        unit: "µs",
    },
    Range {
        field: "timeoutUs",
        bounds: ms(1)..=secs(600),
        unit: "µs",
    },
    Range {
        field: "poolWorkers",
        bounds: 1..=1_000,
        unit: "workers",
    },
];

/// The range of a parameter by name.
pub fn range(field: &str) -> &'static Range {
    RANGES
        .iter()
        .find(|r| r.field == field)
        .unwrap_or_else(|| panic!("no range for {field}"))
}

impl Scenario {
    /// The article's scenario for one strategy and seed.
    pub fn article(strategy: StrategyName, seed: u64) -> Self {
        Self {
            seed,
            strategy,
            ..Self::default()
        }
    }

    /// Checks every parameter against its range; the first problem found is returned.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let p = &self.provider;
        let c = &self.client;
        let values: [(&str, u64); 13] = [
            ("customers", self.customers.into()),
            ("maxInflight", p.max_inflight.into()),
            ("rateLimit", p.rate_limit.into()),
            ("rateWindowUs", p.rate_window_us),
            ("slowLatencyUs", p.slow_latency_us),
            ("latencyUs", p.latency_us),
            ("latencyJitterUs", p.latency_jitter_us),
            ("declineEvery", p.decline_every.into()),
            ("pacerPerS", c.pacer_per_s.into()),
            ("maxAttempts", c.max_attempts.into()),
            ("backoffBaseUs", c.backoff_base_us),
            ("timeoutUs", c.timeout_us),
            ("poolWorkers", c.pool_workers.into()),
        ];
        for (field, value) in values {
            range(field).check(value)?;
        }
        for (field, odds) in [("serverError", p.server_error), ("slow", p.slow)] {
            odds.check()
                .map_err(|message| ScenarioError { field, message })?;
        }
        if p.latency_jitter_us > p.latency_us {
            return Err(ScenarioError {
                field: "latencyJitterUs",
                message: "the jitter cannot exceed the latency itself".into(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::Odds;

    #[test]
    fn defaults_are_valid_and_the_articles() {
        let s = Scenario::default();
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(s.provider.max_inflight, 10);
        assert_eq!(s.provider.rate_limit, 100);
        assert_eq!(s.provider.server_error, Odds::one_in(20));
        assert_eq!(s.provider.slow, Odds::one_in(33));
        assert_eq!(s.provider.decline_every, 97);
        assert_eq!(s.client.pacer_per_s, 90);
        assert_eq!(s.customers, 1000);
    }

    #[test]
    fn out_of_range_values_name_the_field() {
        let s = Scenario {
            customers: 0,
            ..Scenario::default()
        };
        assert_eq!(s.validate().unwrap_err().field, "customers");
        let s = Scenario {
            customers: MAX_CUSTOMERS + 1,
            ..Scenario::default()
        };
        let e = s.validate().unwrap_err();
        assert!(e.to_string().contains("10000000"), "{e}");
        let mut s = Scenario::default();
        s.client.pool_workers = 0;
        assert_eq!(s.validate().unwrap_err().field, "poolWorkers");
        let mut s = Scenario::default();
        s.provider.slow = Odds { num: 2, den: 1 };
        assert_eq!(s.validate().unwrap_err().field, "slow");
        let mut s = Scenario::default();
        s.provider.latency_jitter_us = s.provider.latency_us + 1;
        assert_eq!(s.validate().unwrap_err().field, "latencyJitterUs");
    }
}

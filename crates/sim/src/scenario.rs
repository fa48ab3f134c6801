//! A scenario: a seed plus every parameter of a run. The defaults are the article's.

use super::next_month::ChargeRound;
use super::provider::ProviderConfig;
use super::strategy::{ClientParams, StrategyName};
use super::traffic::{Arrivals, TrafficPlan};

use serde::{Deserialize, Serialize};

/// The most customers one run may have: enough for the million-customer benchmark with
/// room to spare, small enough that a run's memory stays bounded (about 100 B each).
pub const MAX_CUSTOMERS: u32 = 10_000_000;

// A customer's key is its id, and next month's key sets a bit above every id.
const _: () = assert!(MAX_CUSTOMERS <= super::provider::IdempotencyKey::MAX_NUMBER);

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
    /// When customers arrive (the article's: all at once).
    #[serde(default)]
    pub traffic: TrafficPlan,
    /// Which of the customers' charges this is: the first, or next month's, with the
    /// provider still holding last month's keys ([`crate::next_month`]).
    #[serde(default)]
    pub round: ChargeRound,
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
            traffic: TrafficPlan::default(),
            round: ChargeRound::First,
            record: true,
        }
    }
}

/// A scenario with more customers than its caller takes. The core's own bound is
/// [`MAX_CUSTOMERS`]; a caller that runs fewer (a sweep held to a frame, say) names its
/// own, and says why in its own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyCustomers {
    /// The caller's bound.
    pub max_customers: u32,
    /// The customers asked for.
    pub asked: u32,
}

impl Scenario {
    /// The arrivals of its customers: when each is due, by its traffic and seed.
    pub fn arrivals(&self) -> Arrivals {
        Arrivals::new(&self.traffic, self.customers, self.seed)
    }

    /// Checks that the scenario has at most `max_customers` customers.
    pub fn within(&self, max_customers: u32) -> Result<(), TooManyCustomers> {
        if self.customers > max_customers {
            return Err(TooManyCustomers {
                max_customers,
                asked: self.customers,
            });
        }
        Ok(())
    }

    /// The article's scenario for one strategy and seed.
    pub fn article(strategy: StrategyName, seed: u64) -> Self {
        Self {
            seed,
            strategy,
            ..Self::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Odds;

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
    fn a_caller_bound_refuses_only_what_is_over_it() {
        let s = Scenario::default();
        assert_eq!(s.within(1_000), Ok(()));
        assert_eq!(
            s.within(999),
            Err(TooManyCustomers {
                max_customers: 999,
                asked: 1_000
            })
        );
    }
}

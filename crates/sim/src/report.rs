//! The report card: what a client did to its customers, in the figures a reader brings
//! their own client to learn. It is read from the customers' fates (the provider's
//! ledger against where the client left each customer) and the run's counts, so the
//! simulation, a run's record and the HTTP server (`ratelab serve`'s `/report`, `ratelab
//! judge`) fill in the same card by the same rule.
//!
//! Every figure is a count of harm or a cost, so lower is better, and the best of several
//! cards is each figure's smallest ([`ReportCard::best_of`]): a client is set against
//! the best any built-in strategy did on the same seed, figure by figure.

use super::stats::Stats;
use super::world::Fate;
use serde::Serialize;

/// What a client did to its customers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportCard {
    /// Customers the run was for.
    pub customers: u64,
    /// Customers charged more than once.
    pub charged_twice: u64,
    /// Customers whose card could be charged and who were not: the client gave up, was
    /// refused, was told a charge was made that was not, or never got to them.
    pub charges_lost: u64,
    /// Customers told the wrong outcome: charged, while the client last heard it failed
    /// (or gave up waiting), or told they were charged, and not.
    pub told_wrong: u64,
    /// Customers the client had not finished with when it stopped (a promise that never
    /// settled, a request never answered).
    pub unfinished: u64,
    /// 429 answers the client caused.
    pub rate_limited: u64,
    /// 503 answers the client caused.
    pub overloaded: u64,
    /// Requests that reached the provider.
    pub requests: u64,
    /// Times money moved.
    pub charges: u64,
    /// Requests per 100 charges, rounded (0 when nothing was charged).
    pub requests_per_100_charges: u64,
    /// From the run's start until the client's last answer, in whole milliseconds.
    pub elapsed_ms: u64,
    /// The 99th percentile of what a customer waited, in whole milliseconds.
    pub wait_p99_ms: u64,
}

impl ReportCard {
    /// The card of a run with `stats`, whose customers (index `customer − 1`) met
    /// `fates`; `chargeable` says whose card can be charged (a declined card left
    /// uncharged is no charge lost).
    pub fn of(stats: &Stats, fates: &[Fate], chargeable: impl Fn(u32) -> bool) -> Self {
        let mut card = ReportCard {
            customers: fates.len() as u64,
            rate_limited: stats.rate_limited,
            overloaded: stats.overloaded,
            requests: stats.requests,
            charges: stats.charges,
            requests_per_100_charges: stats.requests_per_charge_hundredths().unwrap_or(0),
            elapsed_ms: stats.elapsed_ms,
            wait_p99_ms: stats.wait_p99_ms,
            ..ReportCard::default()
        };
        for (i, fate) in fates.iter().enumerate() {
            let customer = i as u32 + 1;
            let uncharged = matches!(
                fate,
                Fate::GaveUp | Fate::Lost | Fate::Refused | Fate::Pending | Fate::Declined
            );
            card.charged_twice += u64::from(*fate == Fate::ChargedMoreThanOnce);
            card.charges_lost += u64::from(uncharged && chargeable(customer));
            card.told_wrong += u64::from(matches!(fate, Fate::GaveUpButCharged | Fate::Lost));
            card.unfinished += u64::from(*fate == Fate::Pending);
        }
        card
    }

    /// True if a customer was charged twice or lost a charge: what `ratelab judge`
    /// fails a client for.
    pub fn fails(&self) -> bool {
        self.charged_twice > 0 || self.charges_lost > 0
    }

    /// Each figure's best over `cards` (the smallest; for the charges made, the most), the
    /// customers of the first; `None` for no cards.
    pub fn best_of(cards: &[ReportCard]) -> Option<ReportCard> {
        let first = cards.first()?;
        let min = |f: fn(&ReportCard) -> u64| cards.iter().map(f).min().unwrap_or(0);
        Some(ReportCard {
            customers: first.customers,
            charged_twice: min(|c| c.charged_twice),
            charges_lost: min(|c| c.charges_lost),
            told_wrong: min(|c| c.told_wrong),
            unfinished: min(|c| c.unfinished),
            rate_limited: min(|c| c.rate_limited),
            overloaded: min(|c| c.overloaded),
            requests: min(|c| c.requests),
            // Money moved is no cost: the most is the best.
            charges: cards.iter().map(|c| c.charges).max().unwrap_or(0),
            requests_per_100_charges: cards
                .iter()
                .map(|c| c.requests_per_100_charges)
                .filter(|&r| r > 0)
                .min()
                .unwrap_or(0),
            elapsed_ms: min(|c| c.elapsed_ms),
            wait_p99_ms: min(|c| c.wait_p99_ms),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Simulation, StrategyName};

    fn card(strategy: StrategyName, seed: u64) -> ReportCard {
        let s = Scenario::article(strategy, seed);
        let mut sim = Simulation::new(&s).unwrap();
        let stats = sim.run_to_end();
        ReportCard::of(&stats, &sim.fates(), |c| !s.provider.is_declined(c))
    }

    #[test]
    fn the_card_counts_each_harm_from_the_fates() {
        let naive = card(StrategyName::Naive, 1);
        assert_eq!(naive.customers, 1_000);
        assert_eq!(naive.charged_twice, 0);
        // Naive sends once: every refusal and failure is a charge lost, and nobody is
        // told the wrong outcome.
        assert!(naive.charges_lost > 800, "{naive:?}");
        assert_eq!(naive.told_wrong, 0);
        assert!(naive.fails());
        let double = card(StrategyName::TimeoutNoKey, 1);
        assert!(double.charged_twice > 0, "{double:?}");
        let pool = card(StrategyName::Pool, 1);
        assert_eq!((pool.charged_twice, pool.charges_lost), (0, 0), "{pool:?}");
        assert!(!pool.fails());
        assert_eq!(pool.unfinished, 0);
    }

    #[test]
    fn the_best_of_cards_is_each_figures_smallest() {
        let cards: Vec<ReportCard> = StrategyName::ALL.iter().map(|&s| card(s, 2)).collect();
        let best = ReportCard::best_of(&cards).unwrap();
        assert_eq!(best.charged_twice, 0);
        assert_eq!(best.charges_lost, 0);
        assert_eq!(
            best.elapsed_ms,
            cards.iter().map(|c| c.elapsed_ms).min().unwrap()
        );
        assert!(best.requests_per_100_charges >= 100);
        assert_eq!(ReportCard::best_of(&[]), None);
    }
}

//! Next month's charge: a key named after the operation makes next month's run this
//! month's again; a key named after the customer loses the charge, or is refused when
//! the body changed; a key time to live shorter than the month hides the mistake.

use sim::next_month::ChargeRound;
use sim::next_month::NEW_PRICE_EVERY;
use sim::strategy::charge::KeyScope;
use sim::world::Fate;
use sim::{Scenario, Simulation, Stats, StrategyName};

fn run(s: &Scenario) -> (Stats, Vec<Fate>) {
    let mut sim = Simulation::new(s).unwrap();
    let stats = sim.run_to_end();
    // The record tells the same run.
    assert_eq!(
        Stats::from_record(sim.record().unwrap(), &s.provider.incident, sim.arrivals()),
        stats,
        "{s:?}"
    );
    (stats, sim.fates())
}

fn next_month(mut s: Scenario) -> Scenario {
    s.round = ChargeRound::NextMonth;
    s
}

#[test]
fn a_key_per_charge_makes_next_month_this_month_again() {
    for seed in 1..=20 {
        for strategy in StrategyName::ALL {
            let s = Scenario::article(strategy, seed);
            let (first, _) = run(&s);
            let (next, _) = run(&next_month(s));
            assert_eq!(next, first, "{strategy}, seed {seed}");
            assert_eq!((next.lost_to_reused_key, next.key_reused), (0, 0));
        }
    }
}

#[test]
fn a_key_per_customer_loses_next_months_charge_or_is_refused_when_the_body_changed() {
    for seed in 1..=20 {
        for strategy in StrategyName::ALL {
            let mut s = Scenario::article(strategy, seed);
            s.client.key_scope = KeyScope::Customer;
            let (first, _) = run(&s);
            let (next, fates) = run(&next_month(s.clone()));
            let why = format!("{strategy}, seed {seed}");
            if !strategy.plan(&s.client).idempotency_key {
                // No key, nothing carried: next month runs as this month did.
                assert_eq!(next, first, "{why}");
                continue;
            }
            // Every customer whose key last month stored a 200 is told so again, and no
            // money moves; those whose price changed are refused; the declined stay
            // declined.
            for (i, fate) in fates.iter().enumerate() {
                let c = i as u32 + 1;
                let expected = if s.provider.is_declined(c) && !c.is_multiple_of(NEW_PRICE_EVERY) {
                    Fate::Declined
                } else if c.is_multiple_of(NEW_PRICE_EVERY) {
                    Fate::Refused
                } else {
                    Fate::Lost
                };
                // A customer whose charge gave up last month stored no key: charged now.
                if *fate != expected {
                    assert!(
                        matches!(fate, Fate::Charged | Fate::ChargedMoreThanOnce),
                        "{why}: customer {c} is {fate}, not {expected}"
                    );
                }
            }
            let lost = fates.iter().filter(|f| **f == Fate::Lost).count() as u64;
            let refused = fates.iter().filter(|f| **f == Fate::Refused).count() as u64;
            assert_eq!(next.lost_to_reused_key, lost, "{why}");
            assert!(lost >= 850, "{why}: {lost} lost");
            assert_eq!(refused, 100, "{why}");
            assert!(next.key_reused >= refused, "{why}: each refused got a 422");
            // Money moved next month only for customers whose key last month stored no
            // answer (every attempt refused or failed).
            assert!(next.customers_charged <= first.gave_up, "{why}");
        }
    }
}

#[test]
fn keys_kept_a_day_are_gone_by_next_month_and_kept_longer_are_not() {
    for seed in 1..=10 {
        let mut s = Scenario::article(StrategyName::Pool, seed);
        s.client.key_scope = KeyScope::Customer;
        let (first, _) = run(&s);
        s.provider.key_ttl_us = sim::time::secs(86_400);
        let (next, _) = run(&next_month(s.clone()));
        assert_eq!(
            next, first,
            "seed {seed}: a day's keys are gone a month later"
        );
        s.provider.key_ttl_us = sim::next_month::MONTH_US + sim::time::secs(86_400);
        let (next, _) = run(&next_month(s));
        assert!(
            next.lost_to_reused_key > 0,
            "seed {seed}: 31 days' keys are not"
        );
    }
}

//! The stage's words and choices: which few counters matter for each strategy, and the
//! one-sentence verdict on a finished run, with how bad it was.

use super::format::{capitalised, count, duration_ms};
use crate::sim::{StatField, Stats, StrategyName};

/// The counters the stage shows beside the timeline for `strategy`: the ones its story
/// turns on (the article's "what to watch"), customers charged first.
pub fn key_stats(strategy: StrategyName) -> [StatField; 4] {
    use StatField::*;
    match strategy {
        StrategyName::Naive => [CustomersCharged, RateLimited, Overloaded, GaveUp],
        StrategyName::Paced => [CustomersCharged, ServerErrors, GaveUp, ElapsedMs],
        StrategyName::Retry => [CustomersCharged, Requests, Slow, ElapsedMs],
        StrategyName::TimeoutNoKey => [CustomersCharged, Duplicates, Requests, ElapsedMs],
        StrategyName::Keyed => [CustomersCharged, Duplicates, InProgressConflicts, ElapsedMs],
        StrategyName::Pool => [CustomersCharged, Duplicates, InProgressConflicts, ElapsedMs],
        StrategyName::Headers => [CustomersCharged, IncidentRequests, RecoveryMs, Requests],
        StrategyName::Budget => [
            CustomersCharged,
            BudgetExhausted,
            IncidentRequests,
            RecoveryMs,
        ],
        StrategyName::Breaker => [CustomersCharged, BreakerOpens, IncidentRequests, RecoveryMs],
        StrategyName::Adaptive => [
            CustomersCharged,
            ConcurrencyPeak,
            ConcurrencyMean,
            RecoveryMs,
        ],
    }
}

/// How a run went, for the verdict's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Every valid customer charged exactly once, and no declined card asked again.
    Good,
    /// Someone was harmed: charged twice, never charged, or a declined card retried.
    Harm,
}

/// The verdict on a run: its tone and one sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Good or harmful.
    pub tone: Tone,
    /// The sentence, every number in it from `stats`.
    pub text: String,
}

/// The verdict on a finished run of `valid_customers` valid customers: the harms first
/// (customers never charged, extra charges, declined cards asked again), then the cost.
pub fn verdict(stats: &Stats, valid_customers: u32) -> Verdict {
    let valid = u64::from(valid_customers);
    let uncharged = valid.saturating_sub(stats.customers_charged);
    let mut harms = Vec::new();
    if uncharged > 0 {
        harms.push(format!(
            "{} of {} valid customers never charged",
            count(uncharged),
            count(valid)
        ));
    }
    if stats.duplicates > 0 {
        harms.push(format!(
            "{} extra {} (customers who paid twice)",
            count(stats.duplicates),
            plural(stats.duplicates, "charge", "charges")
        ));
    }
    if stats.retried_declined > 0 {
        harms.push(format!(
            "{} {} for a declined card",
            count(stats.retried_declined),
            plural(stats.retried_declined, "retry", "retries")
        ));
    }
    let cost = format!(
        "{} requests in {}",
        count(stats.requests),
        duration_ms(stats.elapsed_ms)
    );
    if harms.is_empty() {
        Verdict {
            tone: Tone::Good,
            text: format!(
                "All {} valid customers charged exactly once, with {cost}.",
                count(valid)
            ),
        }
    } else {
        Verdict {
            tone: Tone::Harm,
            text: format!("{}; {cost}.", capitalised(&harms.join(", "))),
        }
    }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// What the clock adds once the client has finished well before the provider (a
/// timed-out slow charge still runs on): when the client finished, so two durations do
/// not seem to disagree. `None` while the run goes on, or when they finished together.
pub fn clock_tail(s: &crate::sim::world::Snapshot) -> Option<String> {
    (s.customers_done == u64::from(s.customers) && s.now_us > s.stats.elapsed_ms * 1_000 + 500)
        .then(|| {
            format!(
                " (the client finished at {}; the provider ran on)",
                duration_ms(s.stats.elapsed_ms)
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Scenario, Simulation};

    fn run(strategy: StrategyName) -> (Stats, u32) {
        let sc = Scenario {
            strategy,
            seed: 7,
            ..Scenario::default()
        };
        let mut sim = Simulation::new(&sc).unwrap();
        sim.run_to_end();
        (
            sim.snapshot().stats,
            sc.provider.valid_customers(sc.customers),
        )
    }

    #[test]
    fn a_clean_run_is_good_and_says_what_it_cost() {
        let (stats, valid) = run(StrategyName::Keyed);
        let v = verdict(&stats, valid);
        assert_eq!(v.tone, Tone::Good, "{}", v.text);
        assert!(
            v.text.starts_with(&format!("All {valid} valid")),
            "{}",
            v.text
        );
        assert!(v.text.contains(&count(stats.requests)), "{}", v.text);
    }

    #[test]
    fn every_harm_is_named_with_its_number() {
        let (stats, valid) = run(StrategyName::TimeoutNoKey);
        assert!(stats.duplicates > 0);
        let v = verdict(&stats, valid);
        assert_eq!(v.tone, Tone::Harm);
        assert!(
            v.text
                .contains(&format!("{} extra charges", stats.duplicates)),
            "{}",
            v.text
        );
        let (stats, valid) = run(StrategyName::Naive);
        let v = verdict(&stats, valid);
        assert_eq!(v.tone, Tone::Harm);
        let never = u64::from(valid) - stats.customers_charged;
        assert!(
            v.text.starts_with(&format!(
                "{} of {} valid customers never charged",
                count(never),
                count(valid.into())
            )),
            "{}",
            v.text
        );
        let one = Stats {
            duplicates: 1,
            retried_declined: 1,
            customers_charged: 5,
            requests: 9,
            elapsed_ms: 17,
            ..Stats::default()
        };
        assert_eq!(
            verdict(&one, 5).text,
            "1 extra charge (customers who paid twice), 1 retry for a declined card; 9 requests in 17 ms."
        );
    }

    #[test]
    fn each_strategy_shows_four_different_counters_led_by_customers_charged() {
        for s in StrategyName::ALL {
            let k = key_stats(s);
            assert_eq!(k[0], StatField::CustomersCharged);
            for (i, a) in k.iter().enumerate() {
                assert!(!k[i + 1..].contains(a), "{s}: {a} twice");
            }
        }
    }

    #[test]
    fn the_clock_says_when_the_client_finished_if_the_provider_ran_on() {
        use crate::sim::{Scenario, Simulation};
        let mut sim = Simulation::new(&Scenario::article(StrategyName::TimeoutNoKey, 1)).unwrap();
        let early = sim.snapshot();
        assert_eq!(clock_tail(&early), None);
        sim.run_to_end();
        let snap = sim.snapshot();
        // A timed-out slow charge runs on after the client has finished.
        assert!(
            snap.now_us > snap.stats.elapsed_ms * 1_000 + 500,
            "this run's provider ran on"
        );
        assert_eq!(
            clock_tail(&snap).unwrap(),
            format!(
                " (the client finished at {}; the provider ran on)",
                duration_ms(snap.stats.elapsed_ms)
            )
        );
    }
}

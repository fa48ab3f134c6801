//! The incident on the run page: the button that breaks the provider during a watched
//! run, and the sentence that says what the incident did. The rule for where the
//! incident starts lives here because it is about the URL: a start the address bar can
//! hold (whole milliseconds) is what lets a copied link replay the same run.

use crate::shared::format::{count, duration_ms};
use sim::incident::Incident;
use sim::time::{ms, whole_ms};
use sim::{Scenario, Snapshot, Stats};

/// The incident the button starts: the one chosen under "Change the numbers", or the
/// provider going down when none is.
pub fn chosen(draft: &Scenario) -> Incident {
    match draft.provider.incident.kind {
        Incident::None => Incident::Down,
        kind => kind,
    }
}

/// The button's words, e.g. "Break the provider for 3 s".
pub fn break_label(draft: &Scenario) -> String {
    format!(
        "Break the provider for {}",
        duration_ms(whole_ms(draft.provider.incident.length_us))
    )
}

/// The parameters after the button was pressed at `now_us`: the chosen incident, starting
/// at the last whole millisecond (which the URL can say), for its usual length. Run from
/// the start, these give exactly the run on screen up to that moment, then the incident.
pub fn broken_at(draft: &Scenario, now_us: u64) -> Scenario {
    let mut s = draft.clone();
    s.provider.incident.kind = chosen(draft);
    s.provider.incident.start_us = ms(whole_ms(now_us));
    s
}

/// The incident's name over its shaded span on the timeline, e.g. "incident: down".
pub fn band_label(kind: Incident) -> String {
    format!("incident: {kind}")
}

/// What the incident did, once the run has passed it: the requests that reached the
/// provider during it, their peak rate, and how long after it charges flowed again.
/// `None` when the run has no incident or has not reached the incident's end. `at` is
/// the run as it stood at the playhead: until the run has finished, what is still to
/// come is said as not yet come, never as the run's end.
pub fn incident_sentence(scenario: &Scenario, at: &Snapshot) -> Option<String> {
    let plan = scenario.provider.incident;
    let stats = &at.stats;
    if plan.kind == Incident::None || at.now_us < plan.end_us() {
        return None;
    }
    use sim::incident::{CAPACITY_MAX_INFLIGHT, ERRORS_ODDS};
    let what = match plan.kind {
        Incident::Errors => format!(
            "failed {} in {} of its charges",
            ERRORS_ODDS.num, ERRORS_ODDS.den
        ),
        Incident::Slow => "was slow on every charge".into(),
        Incident::Down => "was down".into(),
        Incident::Capacity => format!("shrank to {CAPACITY_MAX_INFLIGHT} in flight"),
        Incident::None => return None,
    };
    let after = match stats.recovery_ms {
        0 => "charges flowed again as soon as it ended".to_string(),
        r => format!("charges flowed again {} after it ended", duration_ms(r)),
    };
    let mut text = format!(
        "The provider {what} from {} to {}: {} requests reached it meanwhile (at most {} a second), and {after}.",
        duration_ms(whole_ms(plan.start_us)),
        duration_ms(whole_ms(plan.end_us())),
        count(stats.incident_requests),
        count(stats.incident_peak_rate),
    );
    if !scenario.traffic.is_batch() {
        text.push(' ');
        text.push_str(&goodput_sentence(&plan, stats, at.finished));
    }
    Some(text)
}

/// Under traffic that keeps arriving, whether the client learned of its charges again
/// and went on doing so: how long after the incident goodput came back for good, or that
/// it did not by the run's end, with the share of the time after the incident that it
/// was up ([`Stats::goodput_came_back`], [`Stats::goodput_up_percent`]); or, while the
/// run is still going, what it has done so far.
fn goodput_sentence(plan: &sim::incident::IncidentPlan, stats: &Stats, finished: bool) -> String {
    let share = sim::flow::RECOVERED_PERCENT;
    let after = duration_ms(stats.goodput_recovery_ms);
    let amplification = format!(
        "{} requests per 100 customers{}",
        count(stats.requests_per_100_customers),
        if finished { "" } else { " so far" }
    );
    let up = stats.goodput_up_percent;
    match (stats.goodput_came_back(plan), finished) {
        (true, true) => format!(
            "The client learned of {share}% of arriving customers' charges again {after} after it ended, and went on doing so to the run's end ({amplification})."
        ),
        (true, false) => format!(
            "The client has learned of {share}% of arriving customers' charges again since {after} after it ended ({amplification})."
        ),
        (false, true) if up == 0 => format!(
            "The client never again learned of {share}% of arriving customers' charges: {after} later the run ended, at {amplification}."
        ),
        (false, true) => format!(
            "The client did not recover: it learned of {share}% of arriving customers' charges in only {up}% of the seconds after it ended, never for good; {after} later the run ended, at {amplification}."
        ),
        (false, false) => format!(
            "The client has not yet learned of {share}% of arriving customers' charges again for good, {after} after it ended ({amplification})."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::{Simulation, StrategyName};

    #[test]
    fn the_button_starts_the_chosen_incident_at_a_whole_millisecond() {
        let draft = Scenario::default();
        assert_eq!(break_label(&draft), "Break the provider for 3.0 s");
        assert_eq!(band_label(Incident::Down), "incident: down");
        let b = broken_at(&draft, 1_234_567);
        assert_eq!(
            b.provider.incident.kind,
            Incident::Down,
            "none chosen: down"
        );
        assert_eq!(b.provider.incident.start_us, 1_234_000);
        assert_eq!(
            b.provider.incident.length_us,
            draft.provider.incident.length_us
        );
        let mut slow = draft.clone();
        slow.provider.incident.kind = Incident::Slow;
        assert_eq!(broken_at(&slow, 5).provider.incident.kind, Incident::Slow);
    }

    #[test]
    fn the_sentence_comes_from_the_run_and_waits_for_the_incident_to_end() {
        let mut s = broken_at(
            &Scenario {
                strategy: StrategyName::Pool,
                ..Scenario::default()
            },
            2_000_000,
        );
        s.seed = 3;
        let mut sim = Simulation::new(&s).unwrap();
        sim.run_until(4_000_000);
        assert_eq!(incident_sentence(&s, &sim.snapshot()), None);
        let stats = sim.run_to_end();
        let text = incident_sentence(&s, &sim.snapshot()).unwrap();
        assert!(
            text.starts_with("The provider was down from 2.0 s to 5.0 s: "),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "{} requests reached it",
                count(stats.incident_requests)
            )),
            "{text}"
        );
        assert!(stats.incident_requests > 0, "{stats:?}");
        assert_eq!(
            incident_sentence(
                &Scenario::default(),
                &Snapshot {
                    now_us: u64::MAX,
                    ..sim.snapshot()
                }
            ),
            None
        );
        assert!(!text.contains("arriving customers"), "a batch: {text}");
    }

    #[test]
    fn under_steady_traffic_it_says_whether_goodput_came_back() {
        let said = |strategy| {
            let s = sim::outage::scenario(strategy, 2);
            let mut sim = Simulation::new(&s).unwrap();
            let stats = sim.run_to_end();
            (incident_sentence(&s, &sim.snapshot()).unwrap(), stats)
        };
        let (down, stats) = said(StrategyName::Keyed);
        assert!(
            down.contains("The client never again learned of 90%"),
            "{down}"
        );
        assert!(stats.goodput_recovery_ms > 100_000);
        let (back, stats) = said(StrategyName::Budget);
        assert!(
            back.contains(&format!(
                "charges again {} after it ended, and went on doing so to the run's end ({} requests per 100 customers)",
                duration_ms(stats.goodput_recovery_ms),
                count(stats.requests_per_100_customers)
            )),
            "{back}"
        );
    }

    /// The case the first-span rule got wrong: `keyed` obeying `Retry-After` alone comes
    /// back for three seconds after the outage and then never again. On 100 seeds the
    /// page says it did not recover, with the share of the time it was up, and never
    /// that it came back.
    #[test]
    fn keyed_with_retry_after_alone_is_said_not_to_recover_on_every_seed() {
        use sim::strategy::ClientPlan;
        for seed in 1..=100 {
            let s = sim::outage::scenario(StrategyName::Keyed, seed);
            let plan = ClientPlan {
                obey_headers: true,
                ..StrategyName::Keyed.plan(&s.client)
            };
            let mut sim = Simulation::with_plan(&s, plan).unwrap();
            let stats = sim.run_to_end();
            let text = incident_sentence(&s, &sim.snapshot()).unwrap();
            assert!(
                text.contains(&format!(
                    "The client did not recover: it learned of 90% of arriving customers' charges in only {}% of the seconds after it ended, never for good;",
                    stats.goodput_up_percent
                )),
                "seed {seed}: {text}"
            );
            assert!((1..10).contains(&stats.goodput_up_percent), "seed {seed}");
            assert!(!text.contains("went on doing so"), "seed {seed}: {text}");
        }
    }

    #[test]
    fn while_the_run_goes_on_it_says_not_yet_and_so_far_never_the_run_s_end() {
        let s = sim::outage::scenario(StrategyName::Keyed, 2);
        let mut sim = Simulation::new(&s).unwrap();
        let later_us = s.provider.incident.end_us() + 14_000_000;
        sim.run_until(later_us);
        let at = sim.snapshot();
        assert!(!at.finished, "the outage run goes on past {later_us} µs");
        let text = incident_sentence(&s, &at).unwrap();
        assert!(
            text.contains(&format!(
                "The client has not yet learned of 90% of arriving customers' charges again for good, {} after it ended ({} requests per 100 customers so far).",
                duration_ms(at.stats.goodput_recovery_ms),
                count(at.stats.requests_per_100_customers)
            )),
            "{text}"
        );
        assert!(!text.contains("run ended"), "{text}");
        // The same run at its end says it never came back, with no "so far".
        sim.run_to_end();
        let end = incident_sentence(&s, &sim.snapshot()).unwrap();
        assert!(end.contains("the run ended, at "), "{end}");
        assert!(!end.contains("so far"), "{end}");
    }
}

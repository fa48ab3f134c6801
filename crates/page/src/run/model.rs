//! The provider's model, said beside an outage's result: what the provider does with a
//! 409 or a replayed answer, and with a request that arrives while it is down. Both
//! decide whether `keyed` recovers (docs/traffic.md, "What the provider does decides
//! it"), so the page names them and links to the same run with each flipped.

use crate::query::links::run_href;
use crate::shared::format::duration_ms;
use maud::{html, Markup};
use sim::incident::{DownAnswer, DownHint, Incident, OVERLOADED_RETRY_US};
use sim::provider::KeyCheck;
use sim::time::whole_ms;
use sim::Scenario;

/// The `data-testid` of the model's note.
pub const MODEL_TESTID: &str = "model-note";
/// The `data-testid` of the link that flips where keys are looked up.
pub const FLIP_KEY_CHECK_TESTID: &str = "flip-key-check";
/// The `data-testid` of the link that flips how a down provider answers.
pub const FLIP_DOWN_ANSWER_TESTID: &str = "flip-down-answer";
/// The `data-testid` of the link to the sweep of a 409's cost over seeds.
pub const SWEEP_KEY_WORK_TESTID: &str = "sweep-key-work";
/// The `data-testid` of the link to every strategy over seeds with this provider.
pub const SWEEP_SEEDS_TESTID: &str = "sweep-model-seeds";

/// The seeds the model's sweeps run over: the docs' tables are over as many.
pub const MODEL_SWEEP_SEEDS: u64 = 100;

/// The sweep page stepping a 409's cost (`keyWorkMs`) from nothing to a charge's own
/// latency, for `keyed` by the worker, following the share of time goodput was up.
pub fn key_work_sweep_href(scenario: &Scenario) -> String {
    use crate::sweep::query::param_sweep_query;
    use sim::param_sweep::ParamSweepSpec;
    let by_worker = Scenario {
        provider: sim::provider::ProviderConfig {
            key_check: KeyCheck::Worker,
            ..scenario.provider.clone()
        },
        ..scenario.clone()
    };
    let latency_ms = whole_ms(scenario.provider.latency_us);
    let spec = ParamSweepSpec {
        param: sim::Param::KeyWork,
        from: 0,
        to: scenario.provider.latency_us,
        steps: (latency_ms + 1).clamp(2, 16),
        stat: sim::StatField::GoodputUpPercent,
    };
    param_sweep_query(spec, Some(scenario.strategy), MODEL_SWEEP_SEEDS, &by_worker).href()
}

/// The same run with keys looked up the other way.
pub fn key_check_flipped(scenario: &Scenario) -> Scenario {
    let mut s = scenario.clone();
    s.provider.key_check = match s.provider.key_check {
        KeyCheck::Worker => KeyCheck::Door,
        KeyCheck::Door => KeyCheck::Worker,
    };
    s
}

/// The same run with a down provider answering the other way.
pub fn down_answer_flipped(scenario: &Scenario) -> Scenario {
    let mut s = scenario.clone();
    s.provider.down_answer = match s.provider.down_answer {
        DownAnswer::Queued => DownAnswer::Fast,
        DownAnswer::Fast => DownAnswer::Queued,
    };
    s
}

/// What the provider does with a key it holds, for a client that sends keys.
fn key_words(scenario: &Scenario) -> String {
    let p = &scenario.provider;
    match p.key_check {
        KeyCheck::Worker => {
            let cost = if p.key_work_us == p.latency_us {
                format!("{}, as long as a charge", duration_ms(whole_ms(p.key_work_us)))
            } else {
                duration_ms(whole_ms(p.key_work_us))
            };
            format!(
                "This provider looks a key up only when a worker reaches the request: a 409 or a replayed answer waits its turn in the queue, then takes the worker {cost}. Every retry of a charge still under way is work."
            )
        }
        KeyCheck::Door => "This provider looks keys up at the door: a 409 or a replayed answer is given at once, with no worker and no place in the queue. A retry of a charge still under way costs it nothing, so after the outage its queue holds only new charges, which is why a keyed client can recover here.".to_string(),
    }
}

/// What the provider does while it is down.
fn down_words(scenario: &Scenario) -> String {
    let p = &scenario.provider;
    let hint = match p.down_hint {
        DownHint::Exact => {
            "its Retry-After is the exact time left to the outage's end, which no real provider knows".to_string()
        }
        DownHint::Fixed => format!(
            "its Retry-After is always {}",
            duration_ms(whole_ms(OVERLOADED_RETRY_US))
        ),
        DownHint::Growing => "its Retry-After is how long it has been down".to_string(),
    };
    match p.down_answer {
        DownAnswer::Queued => format!(
            "While down, it queues every request like any other and works {} on each before its 503; {hint}.",
            duration_ms(whole_ms(p.latency_us))
        ),
        DownAnswer::Fast => format!(
            "While down, it answers 503 at the door, with no work and no place in the queue; {hint}."
        ),
    }
}

/// The note beside an outage's result (a `down` incident): the provider's two choices in
/// words, each with a link to the same run with it flipped. `None` for any other run.
/// The part about keys is said only for a client that sends them.
pub fn model_markup(scenario: &Scenario) -> Option<Markup> {
    if scenario.provider.incident.kind != Incident::Down {
        return None;
    }
    let keyed = scenario.strategy.plan(&scenario.client).idempotency_key;
    let strategy = scenario.strategy;
    let key_flip = match scenario.provider.key_check {
        KeyCheck::Worker => "Look keys up at the door instead",
        KeyCheck::Door => "Look them up by the worker again",
    };
    let down_flip = match scenario.provider.down_answer {
        DownAnswer::Queued => "Fail fast while down instead",
        DownAnswer::Fast => "Queue while down again",
    };
    Some(html! {
        p.rll-field-help data-testid=(MODEL_TESTID) {
            @if keyed {
                (key_words(scenario)) " "
                a href=(run_href(strategy, &key_check_flipped(scenario))) data-testid=(FLIP_KEY_CHECK_TESTID) { (key_flip) }
                ". "
            }
            (down_words(scenario)) " "
            a href=(run_href(strategy, &down_answer_flipped(scenario))) data-testid=(FLIP_DOWN_ANSWER_TESTID) { (down_flip) }
            ". Over " (MODEL_SWEEP_SEEDS) " seeds: "
            a href=(crate::sweep::query::sweep_href(None, MODEL_SWEEP_SEEDS, scenario)) data-testid=(SWEEP_SEEDS_TESTID) { "every strategy with this provider" }
            @if keyed {
                ", "
                a href=(key_work_sweep_href(scenario)) data-testid=(SWEEP_KEY_WORK_TESTID) { "this client against a 409's cost" }
            }
            "."
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::{Simulation, StrategyName};

    fn href_of(markup: &str, testid: &str) -> String {
        let at = markup
            .find(&format!("data-testid=\"{testid}\""))
            .unwrap_or_else(|| panic!("{testid} in {markup}"));
        let start = markup[..at].rfind("href=\"").unwrap() + 6;
        let end = start + markup[start..].find('"').unwrap();
        markup[start..end].replace("&amp;", "&")
    }

    #[test]
    fn the_outage_names_both_choices_and_each_link_flips_one() {
        let s = sim::outage::scenario(StrategyName::Keyed, 1);
        let m = model_markup(&s).unwrap().into_string();
        assert!(m.contains("a 409 or a replayed answer waits its turn in the queue, then takes the worker 15 ms, as long as a charge."), "{m}");
        assert!(m.contains("While down, it queues every request like any other and works 15 ms on each before its 503; its Retry-After is the exact time left"), "{m}");
        for (testid, flipped) in [
            (FLIP_KEY_CHECK_TESTID, key_check_flipped(&s)),
            (FLIP_DOWN_ANSWER_TESTID, down_answer_flipped(&s)),
        ] {
            let href = href_of(&m, testid);
            let query = href.split_once('?').map_or("", |(_, q)| q);
            let q = crate::parse(&crate::pairs_of(query)).base;
            assert!(q.problems.is_empty(), "{href}: {:?}", q.problems);
            assert_eq!(q.scenario.provider, flipped.provider, "{href}");
            assert_eq!(q.scenario.seed, s.seed);
            assert_eq!(q.strategy(), Some(StrategyName::Keyed));
        }
        assert!(href_of(&m, FLIP_KEY_CHECK_TESTID).contains("keyCheck=door"));
        // The sweeps over seeds, with this provider's numbers.
        let sweep = href_of(&m, SWEEP_KEY_WORK_TESTID);
        for part in [
            "view=sweep",
            "param=keyWorkMs",
            "from=0",
            "to=15",
            "seeds=100",
            "stat=goodputUpPercent",
            "queue=1000",
            "incident=down",
        ] {
            assert!(sweep.contains(part), "{part} in {sweep}");
        }
        let seeds = href_of(&m, SWEEP_SEEDS_TESTID);
        assert!(
            seeds.contains("strategy=all") && seeds.contains("seeds=100"),
            "{seeds}"
        );
        assert!(href_of(&m, FLIP_DOWN_ANSWER_TESTID).contains("downAnswer=fast"));
        // A client without keys hears only about the outage; no outage, no note.
        let naive = model_markup(&sim::outage::scenario(StrategyName::Naive, 1))
            .unwrap()
            .into_string();
        assert!(!naive.contains(FLIP_KEY_CHECK_TESTID), "{naive}");
        assert!(model_markup(&Scenario::default()).is_none());
    }

    /// Flipped to the door, the note says why keyed recovers, and it does.
    #[test]
    fn flipped_to_the_door_keyed_recovers_and_the_note_says_why() {
        let s = key_check_flipped(&sim::outage::scenario(StrategyName::Keyed, 1));
        let m = model_markup(&s).unwrap().into_string();
        assert!(
            m.contains("which is why a keyed client can recover here"),
            "{m}"
        );
        assert!(m.contains("Look them up by the worker again"), "{m}");
        let stats = Simulation::new(&s).unwrap().run_to_end();
        assert!(stats.goodput_came_back(&s.provider.incident), "{stats:?}");
        let fast = down_answer_flipped(&s);
        let m = model_markup(&fast).unwrap().into_string();
        assert!(m.contains("While down, it answers 503 at the door"), "{m}");
        assert!(m.contains("Queue while down again"), "{m}");
    }
}

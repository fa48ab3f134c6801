//! A customer's story in words: each attempt as the client saw it and as the provider
//! did, the whole attempt in one sentence, and the scene links' text. The core
//! ([`crate::sim::story`]) keeps what happened; this says it.

use super::format::count;
use crate::sim::story::{AttemptStory, ClientSide, ProviderSide, Scene};

/// An instant of the run for people: "4,210 ms".
fn at(us: u64) -> String {
    format!("{} ms", count(us / 1_000))
}

/// The client's column: "sent at 4,210 ms → gave up waiting at 5,210 ms".
pub fn client_text(a: &AttemptStory) -> String {
    let sent = format!("sent at {}", at(a.sent_at_us));
    match a.client {
        ClientSide::Waiting => format!("{sent} → still waiting"),
        ClientSide::Answered { status, at_us } => {
            format!("{sent} → got {status} at {}", at(at_us))
        }
        ClientSide::TimedOut { at_us } => format!("{sent} → gave up waiting at {}", at(at_us)),
    }
}

/// The provider's column: "finished (slow) at 5,710 ms → 200: charged".
pub fn provider_text(a: &AttemptStory) -> String {
    let slow = |is_slow: bool| if is_slow { " (slow)" } else { "" };
    match a.provider {
        ProviderSide::Refused { status } => format!("refused on arrival with {status}"),
        ProviderSide::Processing {
            until_us,
            slow: is_slow,
        } => format!("processing{} until {}", slow(is_slow), at(until_us)),
        ProviderSide::Finished {
            status,
            at_us,
            charged,
            slow: is_slow,
            replayed,
        } => {
            let what = match (status, charged, replayed) {
                (_, true, _) => "charged".to_string(),
                (s, false, true) => format!("replayed the stored {s}, no new charge"),
                (409, ..) => "the key's first request was still running".to_string(),
                (400, ..) => "card declined".to_string(),
                (500, ..) => "failed, nothing charged".to_string(),
                _ => "nothing charged".to_string(),
            };
            format!(
                "finished{} at {} → {status}: {what}",
                slow(is_slow),
                at(at_us)
            )
        }
    }
}

/// The words that follow an attempt the provider charged after the client had stopped
/// waiting.
pub const BEHIND_CLIENTS_BACK: &str = " — after the client had stopped waiting";

/// The whole attempt in one line: "Attempt 1: sent at … ; provider finished … ."
pub fn sentence(a: &AttemptStory) -> String {
    let mut s = format!(
        "Attempt {}: {}; provider {}",
        a.attempt,
        client_text(a),
        provider_text(a)
    );
    if a.charged_behind_clients_back() {
        s.push_str(BEHIND_CLIENTS_BACK);
    }
    s.push('.');
    s
}

/// A scene's link text.
pub const fn scene_label(scene: Scene) -> &'static str {
    match scene {
        Scene::DoubleCharge => "Show me a double charge",
        Scene::ChargedAfterTimeout => "Show me a charge after the client gave up",
        Scene::Conflict => "Show me a 409",
        Scene::Replay => "Show me a replayed answer",
        Scene::Declined => "Show me a declined card",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::story::Story;
    use crate::sim::{Scenario, Simulation, StrategyName};

    fn story(strategy: StrategyName, seed: u64, scene: Scene) -> Story {
        let mut sim = Simulation::new(&Scenario::article(strategy, seed)).unwrap();
        sim.run_to_end();
        let record = sim.record().unwrap();
        let customer = scene.find(record).expect("the scene is in this run");
        Story::of(record, customer)
    }

    #[test]
    fn a_double_charge_reads_as_a_charge_behind_the_clients_back() {
        let story = story(StrategyName::TimeoutNoKey, 1, Scene::DoubleCharge);
        let first = sentence(&story.attempts[0]);
        assert!(first.starts_with("Attempt 1: sent at "), "{first}");
        assert!(first.contains("gave up waiting at"), "{first}");
        assert!(
            first.ends_with(" → 200: charged — after the client had stopped waiting."),
            "{first}"
        );
    }

    #[test]
    fn a_keyed_timeout_reads_as_a_409_then_a_replay() {
        let story = story(StrategyName::Pool, 1, Scene::Conflict);
        let texts: Vec<String> = story.attempts.iter().map(provider_text).collect();
        assert!(
            texts
                .iter()
                .any(|t| t.contains("409: the key's first request was still running")),
            "{texts:?}"
        );
        assert!(
            texts.last().unwrap().contains("replayed the stored 200"),
            "{texts:?}"
        );
        assert!(client_text(&story.attempts[1]).contains(" → got 409 at "));
    }

    #[test]
    fn every_column_reads_well() {
        let a = AttemptStory {
            attempt: 2,
            request: 9,
            key: None,
            sent_at_us: 4_210_400,
            client: ClientSide::Waiting,
            provider: ProviderSide::Processing {
                until_us: 5_710_000,
                slow: true,
            },
        };
        assert_eq!(client_text(&a), "sent at 4,210 ms → still waiting");
        assert_eq!(provider_text(&a), "processing (slow) until 5,710 ms");
        assert_eq!(
            sentence(&a),
            "Attempt 2: sent at 4,210 ms → still waiting; provider processing (slow) until \
             5,710 ms."
        );
        let a = AttemptStory {
            provider: ProviderSide::Refused { status: 429 },
            ..a
        };
        assert_eq!(provider_text(&a), "refused on arrival with 429");
        let finished = |status, charged| AttemptStory {
            provider: ProviderSide::Finished {
                status,
                at_us: 17_000,
                charged,
                slow: false,
                replayed: false,
            },
            ..a.clone()
        };
        for (status, words) in [
            (400, "400: card declined"),
            (500, "500: failed, nothing charged"),
            (503, "503: nothing charged"),
        ] {
            assert_eq!(
                provider_text(&finished(status, false)),
                format!("finished at 17 ms → {words}")
            );
        }
        assert_eq!(scene_label(Scene::Conflict), "Show me a 409");
    }
}

//! A customer's story in words: each attempt as the client saw it and as the provider
//! did, the whole attempt in one sentence, and the scene links' text. The core
//! ([`sim::story`]) keeps what happened; this says it.

use crate::shared::format::count;
use crate::shared::markup::escape;
use sim::story::{AttemptStory, ClientSide, ProviderSide, Scene, Story};
use std::fmt::Write;

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

/// The client's side as the table's data attributes read it: kind, status, instant.
fn client_attrs(a: &AttemptStory) -> (&'static str, String, String) {
    match a.client {
        ClientSide::Waiting => ("waiting", String::new(), String::new()),
        ClientSide::Answered { status, at_us } => {
            ("answered", status.to_string(), at_us.to_string())
        }
        ClientSide::TimedOut { at_us } => ("timedOut", String::new(), at_us.to_string()),
    }
}

/// The provider's side as the table's data attributes read it: kind, status, instant,
/// and whether it charged.
fn provider_attrs(a: &AttemptStory) -> (&'static str, String, String, bool) {
    match a.provider {
        ProviderSide::Refused { status } => ("refused", status.to_string(), String::new(), false),
        ProviderSide::Processing { until_us, .. } => {
            ("processing", String::new(), until_us.to_string(), false)
        }
        ProviderSide::Finished {
            status,
            at_us,
            charged,
            ..
        } => ("finished", status.to_string(), at_us.to_string(), charged),
    }
}

/// One customer's attempts side by side, as markup: a heading ("Customer 17: 3 attempts,
/// charged 2 times", marked as harm when charged more than once), then one row per
/// attempt with the client's view, the provider's, and data attributes the tests read.
pub fn table_markup(story: &Story) -> String {
    let n = story.attempts.len();
    let plural = |k: usize| if k == 1 { "" } else { "s" };
    let harm_class = |harm: bool| if harm { " class=\"rll-harm-text\"" } else { "" };
    let mut out = format!(
        "<div data-testid=\"story\" data-customer=\"{c}\" data-charges=\"{ch}\">\
         <h3{h}>Customer {c}: {n} attempt{pn}, charged {ch} time{pc}</h3>\
         <div class=\"rll-table-scroll\"><table class=\"rll-story-table\"><thead><tr>\
         <th scope=\"col\">#</th><th scope=\"col\">The client saw</th>\
         <th scope=\"col\">The provider did</th></tr></thead><tbody>",
        c = story.customer,
        ch = story.charges,
        h = harm_class(story.charges > 1),
        pn = plural(n),
        pc = plural(story.charges as usize),
    );
    for a in &story.attempts {
        let (ck, cs, ca) = client_attrs(a);
        let (pk, ps, pa, charged) = provider_attrs(a);
        let harm = story.is_harm(a);
        let key = escape(a.key.as_deref().unwrap_or_default());
        let _ = write!(
            out,
            "<tr data-attempt=\"{}\" data-sent-at-us=\"{}\" data-key=\"{key}\" \
             data-client-kind=\"{ck}\" data-client-status=\"{cs}\" data-client-at-us=\"{ca}\" \
             data-provider-kind=\"{pk}\" data-provider-status=\"{ps}\" data-provider-at-us=\"{pa}\" \
             data-charged=\"{charged}\"{}><th scope=\"row\">{}</th><td>{}",
            a.attempt,
            a.sent_at_us,
            if harm { " class=\"rll-harm\"" } else { "" },
            a.attempt,
            escape(&client_text(a)),
        );
        if a.key.is_some() {
            let _ = write!(
                out,
                "<span class=\"rll-key\"> key <code>{key}</code></span>"
            );
        }
        let _ = write!(out, "</td><td>{}", escape(&provider_text(a)));
        if a.charged_behind_clients_back() {
            let _ = write!(
                out,
                "<strong{}>{}</strong>",
                harm_class(harm),
                escape(BEHIND_CLIENTS_BACK)
            );
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table></div></div>");
    out
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

/// The scene links as markup: one button per scene, disabled (and saying why) when the
/// run has none. `found` is each scene with the first customer showing it; the UI reads
/// a click by the button's `data-scene`.
pub fn scenes_markup(found: &[(Scene, Option<u32>)]) -> String {
    found
        .iter()
        .map(|(scene, customer)| {
            let none = if customer.is_none() {
                " disabled title=\"None in this run\""
            } else {
                ""
            };
            format!(
                "<button type=\"button\" class=\"rll-link\" data-scene=\"{}\"{none}>{}</button>",
                scene.as_str(),
                scene_label(*scene)
            )
        })
        .collect()
}

/// What the "Customer #" field says to a number it cannot open.
pub fn no_such_customer(customers: u32) -> String {
    format!(
        "Enter a customer number from 1 to {}.",
        count(customers.into())
    )
}

/// The "Customer #" field and its Open button, as markup: the UI reads the field when
/// Enter is pressed in it or the button (`data-action="open"`) is clicked.
pub const GOTO_MARKUP: &str = concat!(
    "<label for=\"rll-goto\">Customer #</label>",
    "<input id=\"rll-goto\" type=\"text\" inputmode=\"numeric\" autocomplete=\"off\">",
    "<button type=\"button\" data-action=\"open\">Open</button>"
);

/// The story's place before a customer is picked, as markup.
pub const NO_STORY_MARKUP: &str = "<p class=\"rll-caption\">Pick a customer in the grid, or one of the scenes above, to see their story.</p>";

/// The open story as markup, or what to do to open one.
pub fn story_markup(story: Option<&Story>) -> String {
    story.map_or_else(|| NO_STORY_MARKUP.to_string(), table_markup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::story::Story;
    use sim::{Scenario, Simulation, StrategyName};

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

    #[test]
    fn the_table_gives_each_attempt_a_row_with_both_sides_and_marks_the_harm() {
        let s = story(StrategyName::TimeoutNoKey, 1, Scene::DoubleCharge);
        let m = table_markup(&s);
        assert!(m.starts_with(&format!(
            "<div data-testid=\"story\" data-customer=\"{}\" data-charges=\"{}\"><h3 class=\"rll-harm-text\">Customer {}: {} attempts, charged {} times</h3>",
            s.customer, s.charges, s.customer, s.attempts.len(), s.charges
        )), "{m}");
        assert_eq!(m.matches("<tr data-attempt=").count(), s.attempts.len());
        // The first attempt charged after the client gave up: a harm, said in words.
        let first = &m[m.find("<tr data-attempt=\"1\"").unwrap()..];
        let first = &first[..first.find("</tr>").unwrap()];
        assert!(first.contains("data-client-kind=\"timedOut\""), "{first}");
        assert!(
            first.contains("data-provider-kind=\"finished\" data-provider-status=\"200\""),
            "{first}"
        );
        assert!(
            first.contains("data-charged=\"true\" class=\"rll-harm\""),
            "{first}"
        );
        assert!(
            first.contains(&escape(&client_text(&s.attempts[0]))),
            "{first}"
        );
        assert!(
            first.contains(&format!(
                "<strong class=\"rll-harm-text\">{BEHIND_CLIENTS_BACK}</strong>"
            )),
            "{first}"
        );
        // Without a key, no key is shown.
        assert!(!m.contains("rll-key"), "{m}");
        let keyed = story(StrategyName::Pool, 1, Scene::Conflict);
        let m = table_markup(&keyed);
        let key = keyed.attempts[0].key.clone().unwrap();
        assert!(m.contains(&format!("data-key=\"{key}\"")), "{m}");
        assert!(
            m.contains(&format!(
                "<span class=\"rll-key\"> key <code>{key}</code></span>"
            )),
            "{m}"
        );
        assert!(!m.contains("<h3 class="), "charged once is no harm: {m}");
    }

    #[test]
    fn before_a_customer_is_picked_the_story_says_how_to_pick_one() {
        assert_eq!(story_markup(None), NO_STORY_MARKUP);
        assert!(NO_STORY_MARKUP.contains("Pick a customer"));
        assert_eq!(
            no_such_customer(1_000),
            "Enter a customer number from 1 to 1,000."
        );
    }

    #[test]
    fn a_scene_the_run_lacks_is_a_disabled_button_saying_so() {
        let markup = scenes_markup(&[(Scene::Conflict, Some(12)), (Scene::Declined, None)]);
        assert!(markup.contains(&format!(
            "data-scene=\"{}\">{}</button>",
            Scene::Conflict.as_str(),
            scene_label(Scene::Conflict)
        )));
        assert!(markup.contains(&format!(
            "data-scene=\"{}\" disabled title=\"None in this run\">",
            Scene::Declined.as_str()
        )));
    }
}

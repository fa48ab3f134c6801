//! A customer's story in words: each attempt as the client saw it and as the provider
//! did, the whole attempt in one sentence, and the scene links' text. The core
//! ([`sim::story`]) keeps what happened; this says it, and writes the story panel's
//! markup with the nodes the UI writes and reads (the scene links, the "Customer #"
//! field, the story's place).

use crate::run::opening::back_to_opening;
use crate::shared::format::count;
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};
use sim::story::{AttemptStory, ClientSide, ProviderSide, Scene, Story};

/// An instant of the run for people: "4,210 ms".
pub fn at(us: u64) -> String {
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
            earlier,
        } => {
            let what = match (status, charged, replayed) {
                (_, true, _) => "charged".to_string(),
                (s, false, true) if earlier => {
                    format!(
                        "replayed last month's stored {s} for the same key, no charge this month"
                    )
                }
                (s, false, true) => format!("replayed the stored {s}, no new charge"),
                (409, ..) => "the key's first request was still running".to_string(),
                (422, ..) => "the key was stored with another body: refused".to_string(),
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
pub fn table_markup(story: &Story) -> Markup {
    let n = story.attempts.len();
    let plural = |k: usize| if k == 1 { "" } else { "s" };
    let harm_class = |harm: bool| harm.then_some("rll-harm-text");
    html! {
        div data-testid="story" data-customer=(story.customer) data-charges=(story.charges) {
            h3 class=[harm_class(story.charges > 1 || story.is_lost())] {
                "Customer " (story.customer) ": " (n) " attempt" (plural(n))
                ", charged " (story.charges) " time" (plural(story.charges as usize))
                @if story.is_lost() { ", yet told the charge was made" }
            }
            div.rll-table-scroll {
                table.rll-story-table {
                    thead {
                        tr {
                            th scope="col" { "#" }
                            th scope="col" { "The client saw" }
                            th scope="col" { "The provider did" }
                        }
                    }
                    tbody {
                        @for a in &story.attempts {
                            @let (ck, cs, ca) = client_attrs(a);
                            @let (pk, ps, pa, charged) = provider_attrs(a);
                            @let harm = story.is_harm(a);
                            @let key = a.key.as_deref().unwrap_or_default();
                            tr data-attempt=(a.attempt) data-sent-at-us=(a.sent_at_us) data-key=(key)
                                data-client-kind=(ck) data-client-status=(cs) data-client-at-us=(ca)
                                data-provider-kind=(pk) data-provider-status=(ps) data-provider-at-us=(pa)
                                data-charged=(charged) class=[harm.then_some("rll-harm")] {
                                th scope="row" { (a.attempt) }
                                td {
                                    (client_text(a))
                                    @if a.key.is_some() { span.rll-key { " key " code { (key) } } }
                                }
                                td {
                                    (provider_text(a))
                                    @if a.charged_behind_clients_back() {
                                        strong class=[harm_class(harm)] { (BEHIND_CLIENTS_BACK) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A scene's link text.
pub const fn scene_label(scene: Scene) -> &'static str {
    match scene {
        Scene::DoubleCharge => "Show me a double charge",
        Scene::ChargedAfterTimeout => "Show me a charge after the client gave up",
        Scene::Conflict => "Show me a 409",
        Scene::Replay => "Show me a replayed answer",
        Scene::Declined => "Show me a declined card",
        Scene::LostCharge => "Show me a lost charge",
        Scene::KeyReused => "Show me a 422",
    }
}

/// A scene's button.
pub const fn scene_slot(scene: Scene) -> Slot {
    match scene {
        Scene::DoubleCharge => slot!("scene-double-charge"),
        Scene::ChargedAfterTimeout => slot!("scene-charged-after-timeout"),
        Scene::Conflict => slot!("scene-conflict"),
        Scene::Replay => slot!("scene-replay"),
        Scene::Declined => slot!("scene-declined"),
        Scene::LostCharge => slot!("scene-lost-charge"),
        Scene::KeyReused => slot!("scene-key-reused"),
    }
}

/// The scene links as markup: one button per scene, disabled (and saying why) when the
/// run has none; a rare scene ([`Scene::is_rare`]) only when the run has one. `found` is
/// each scene with the first customer showing it; the UI reads a click by the button's
/// slot ([`scene_slot`]).
pub fn scenes_markup(found: &[(Scene, Option<u32>)]) -> Markup {
    html! {
        @for (scene, customer) in found.iter().filter(|(s, c)| !s.is_rare() || c.is_some()) {
            @let none = customer.is_none();
            button.rll-link type="button" data-slot=(scene_slot(*scene)) data-scene=(scene.as_str())
                disabled[none] title=[none.then_some("None in this run")] { (scene_label(*scene)) }
        }
    }
}

/// What the "Customer #" field says to a number it cannot open.
pub fn no_such_customer(customers: u32) -> String {
    format!(
        "Enter a customer number from 1 to {}.",
        count(customers.into())
    )
}

/// The scene links' place.
pub const SCENES: Slot = slot!("scenes");
/// The "Customer #" field.
pub const GOTO: Slot = slot!("goto");
/// The field's Open button.
pub const GOTO_OPEN: Slot = slot!("goto-open");
/// Why the number typed cannot be opened, hidden while it can.
pub const GOTO_ERROR: Slot = slot!("goto-error");
/// The open story's place.
pub const STORY: Slot = slot!("story");
/// Back to the opening, where this customer's story is drawn (hidden unless it is).
pub const TO_OPENING: Slot = slot!("to-opening");

/// What the story's place says before a customer is picked.
pub const NO_STORY: &str =
    "Pick a customer in the grid, or one of the scenes above, to see their story.";

/// The open story as markup, or what to do to open one.
pub fn story_markup(story: Option<&Story>) -> Markup {
    match story {
        Some(story) => table_markup(story),
        None => html! { p.rll-caption { (NO_STORY) } },
    }
}

/// What the story panel shows: each scene with the first customer showing it, the open
/// story, why the number typed cannot be opened, and the customer whose story the
/// opening tells, while theirs is open here.
#[derive(Clone, Debug, PartialEq)]
pub struct PanelState {
    /// Each scene, with the first customer showing it.
    pub found: Vec<(Scene, Option<u32>)>,
    /// The open story.
    pub story: Option<Story>,
    /// Why the number typed cannot be opened, if it cannot.
    pub error: Option<String>,
    /// The customer the opening tells, while their story is open here.
    pub told: Option<u32>,
}

/// The story panel ([`Live`]): the scene links, the "Customer #" field and its Open
/// button (the UI opens the number typed on Enter in the field or a click on the
/// button), the field's message, the way back to the opening, and the story. The scene
/// links and the story are lists, written again as markup when they change; the field
/// is never drawn again, so what the reader types stays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panel;

impl Live for Panel {
    type State = PanelState;

    fn shape(&self, _: &PanelState) -> u64 {
        0
    }

    fn draw(&self, st: &PanelState, fill: &mut Fill) -> Markup {
        html! {
            div.rll-scenes {
                span.rll-scene-links data-slot=(SCENES) { (fill.markup(SCENES, scenes_markup(&st.found))) }
                span.rll-goto {
                    label for="rll-goto" { "Customer #" }
                    input #rll-goto type="text" inputmode="numeric" autocomplete="off" data-slot=(GOTO);
                    button type="button" data-slot=(GOTO_OPEN) { "Open" }
                }
            }
            p.rll-field-help.rll-error role="alert" data-slot=(GOTO_ERROR) hidden[fill.flag(GOTO_ERROR, "hidden", st.error.is_none())] {
                (fill.text(GOTO_ERROR, st.error.clone().unwrap_or_default()))
            }
            button.rll-quiet type="button" data-slot=(TO_OPENING) data-testid="to-opening" hidden[fill.flag(TO_OPENING, "hidden", st.told.is_none())] {
                (fill.text(TO_OPENING, st.told.map(back_to_opening).unwrap_or_default()))
            }
            div data-slot=(STORY) { (fill.markup(STORY, story_markup(st.story.as_ref()))) }
        }
    }
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
                earlier: false,
            },
            ..a.clone()
        };
        for (status, words) in [
            (400, "400: card declined"),
            (422, "422: the key was stored with another body: refused"),
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

    /// Next month, with the customer's id as the key: the lost charge's story says so,
    /// and the 422's.
    #[test]
    fn next_month_under_a_reused_key_the_story_tells_the_lost_charge_and_the_422() {
        use sim::next_month::ChargeRound;
        use sim::strategy::charge::KeyScope;
        let mut s = sim::Scenario::article(StrategyName::Keyed, 1);
        s.client.key_scope = KeyScope::Customer;
        s.round = ChargeRound::NextMonth;
        let mut sim = sim::Simulation::new(&s).unwrap();
        sim.run_to_end();
        let record = sim.record().unwrap();
        let lost = Story::of(record, Scene::LostCharge.find(record).unwrap());
        assert!(lost.is_lost(), "{lost:?}");
        let m = table_markup(&lost).into_string();
        assert!(
            m.contains("charged 0 times, yet told the charge was made</h3>"),
            "{m}"
        );
        assert!(m.contains("rll-harm-text"), "{m}");
        assert!(
            m.contains(
                "→ 200: replayed last month's stored 200 for the same key, no charge this month"
            ),
            "{m}"
        );
        let refused = Story::of(record, Scene::KeyReused.find(record).unwrap());
        assert_eq!(refused.customer % sim::next_month::NEW_PRICE_EVERY, 0);
        assert!(!refused.is_lost());
        let m = table_markup(&refused).into_string();
        assert!(
            m.contains("→ 422: the key was stored with another body: refused"),
            "{m}"
        );
        // The two scenes are offered only when a run has them.
        let m = scenes_markup(&[
            (Scene::Conflict, None),
            (Scene::LostCharge, None),
            (Scene::KeyReused, Some(10)),
        ])
        .into_string();
        assert!(m.contains("data-scene=\"conflict\""), "{m}");
        assert!(!m.contains("lost-charge"), "{m}");
        assert!(m.contains("data-scene=\"key-reused\""), "{m}");
    }

    #[test]
    fn the_table_gives_each_attempt_a_row_with_both_sides_and_marks_the_harm() {
        let s = story(StrategyName::TimeoutNoKey, 1, Scene::DoubleCharge);
        let m = table_markup(&s).into_string();
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
            first.contains(&html! { (client_text(&s.attempts[0])) }.into_string()),
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
        let m = table_markup(&keyed).into_string();
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
        let none = story_markup(None).into_string();
        assert_eq!(none, format!("<p class=\"rll-caption\">{NO_STORY}</p>"));
        assert!(NO_STORY.contains("Pick a customer"));
        let panel = Panel
            .markup(&PanelState {
                found: Scene::ALL.map(|s| (s, None)).to_vec(),
                story: None,
                error: None,
                told: None,
            })
            .into_string();
        assert!(
            panel.ends_with(&format!("data-slot=\"story\">{none}</div>")),
            "{panel}"
        );
        for slot in [SCENES, GOTO, GOTO_OPEN, GOTO_ERROR, STORY] {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(panel.matches(&attr).count(), 1, "{slot:?}");
        }
        assert!(
            panel.contains("id=\"rll-goto\""),
            "the tests type in #rll-goto"
        );
        assert_eq!(
            no_such_customer(1_000),
            "Enter a customer number from 1 to 1,000."
        );
    }

    #[test]
    fn a_scene_the_run_lacks_is_a_disabled_button_saying_so() {
        let markup =
            scenes_markup(&[(Scene::Conflict, Some(12)), (Scene::Declined, None)]).into_string();
        let mut names = std::collections::BTreeSet::new();
        for scene in Scene::ALL {
            assert!(names.insert(scene_slot(scene).name()), "{scene:?}");
        }
        assert!(markup.contains(&format!(
            "data-slot=\"{}\"",
            scene_slot(Scene::Declined).name()
        )));
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

    #[test]
    fn the_panel_draws_what_it_fills_and_an_error_changes_only_its_line() {
        let told = story(StrategyName::TimeoutNoKey, 1, Scene::DoubleCharge);
        let quiet = PanelState {
            found: Scene::ALL.map(|s| (s, None)).to_vec(),
            story: None,
            error: None,
            told: None,
        };
        let open = PanelState {
            found: Scene::ALL.map(|s| (s, Some(3))).to_vec(),
            told: Some(told.customer),
            story: Some(told),
            error: Some(no_such_customer(10)),
        };
        for st in [&quiet, &open] {
            crate::shared::live::check_drawn(&Panel, st).unwrap();
        }
        let m = Panel.markup(&quiet).into_string();
        assert!(
            m.contains(NO_STORY) && m.contains("data-testid=\"to-opening\" hidden>"),
            "{m}"
        );
        let fill = |s: &PanelState| {
            let mut fill = Fill::default();
            Panel.draw(s, &mut fill);
            fill
        };
        let wrong = PanelState {
            error: Some(no_such_customer(10)),
            ..quiet.clone()
        };
        let changed: Vec<Slot> = fill(&wrong)
            .changed_since(&fill(&quiet))
            .map(|(hole, _)| hole.slot)
            .collect();
        assert_eq!(changed, [GOTO_ERROR, GOTO_ERROR]);
    }
}

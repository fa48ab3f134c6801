//! The guided walk's card, at the top of the stage (the strategy buttons above it show
//! which step it is on): the step's setup and question, three
//! choices, then the reveal once the step's run is done, with its moment marked on the
//! stage (playhead, callout, the customer's story). Words, choices and moments come from
//! [`page::run::tour`]; this file only shows them and moves between steps.

use crate::run::run_state::RunState;
use crate::run::use_playback::PlayState;
use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use crate::shared::page_query;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::tour::{self, STEPS};
use wasm_bindgen::JsCast;

/// The `localStorage` key set once the walk was left or finished: later visits with no
/// query open the page without it.
const SEEN_KEY: &str = "rll-walk-seen";

/// True if this browser left or finished the walk before (false if storage is off).
pub fn seen_before() -> bool {
    storage().is_some_and(|s| s.get_item(SEEN_KEY).ok().flatten().is_some())
}

fn mark_seen() {
    if let Some(s) = storage() {
        let _ = s.set_item(SEEN_KEY, "1");
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The card, while `state.tour` holds a step.
#[component]
pub fn TourCard(
    /// The run view the walk plays on.
    state: RunState,
) -> impl IntoView {
    let playback = state.playback;
    let card = NodeRef::<Div>::new();
    let step = move || state.tour.get().unwrap_or(0);
    let strategy = move || tour::strategy(step());
    // The reader's prediction, forgotten when the step changes.
    let picked = RwSignal::new(None::<u64>);
    watch(move || {
        state.tour.track();
        picked.set(None);
    });
    // The step's run, run ahead so its choices are the run's numbers.
    let ahead = move || {
        state.draft.track();
        state.seed_text.track();
        let sc = state.scenario_for(strategy()).ok()?;
        tour::foresee(&sc).ok().map(|stats| (sc, stats))
    };
    // True once this step's strategy has finished its run.
    let done = Memo::new(move |_| {
        playback.state.get() == PlayState::Done
            && playback.scenario.with(|s| s.as_ref().map(|s| s.strategy)) == Some(strategy())
    });
    // Its final counters (the playhead may show an earlier instant).
    let final_stats = move || playback.with_sim(|sim| sim.snapshot().stats);
    // Once it is done, its moment is marked on the stage; the last one ends the walk.
    watch(move || {
        if !done.get() {
            return;
        }
        let s = strategy();
        let m = playback
            .with_sim(|sim| {
                sim.record()
                    .and_then(|r| tour::moment(s, r, sim.scenario().customers))
            })
            .flatten();
        if let Some(m) = m {
            playback.seek(Some(m.at_us));
            playback.harm.set(m.harm);
            state.customer.set(Some(m.customer));
        }
        if untrack(step) + 1 == STEPS {
            mark_seen();
        }
    });
    let go = move |to: usize| {
        playback.reset();
        state.customer.set(None);
        state.dismiss_ghost();
        state.selected.set(tour::strategy(to));
        state.tour.set(Some(to));
        state.record_tour(true);
        if let Some(el) = card.get_untracked() {
            let _ = el.focus();
        }
    };
    let leave = move || {
        mark_seen();
        state.tour.set(None);
        // A first visit that ran nothing has no query to take the walk out of.
        if page_query::read().tour {
            state.record_tour(false);
        }
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.ctrl_key() || ev.alt_key() || ev.meta_key() || typing(&ev) {
            return;
        }
        if let Some(to) = tour::step_for_key(step(), &ev.key(), ev.shift_key()) {
            // Handled on the card (no event delegation in this build), before the
            // stage's window listener, which skips a handled key.
            ev.prevent_default();
            go(to);
        }
    };
    // The card is the page layer's markup, set once; two effects write its parts in
    // place (so a focused choice keeps its focus), and one handler reads its clicks.
    let find = move |selector: &str| card.get()?.query_selector(selector).ok()?;
    // The step: its number, setup, question, choices and buttons.
    watch(move || {
        let (n, s) = (step(), strategy());
        let setup = tour::setup(s, &state.draft.get());
        let values = ahead().map(|(sc, stats)| tour::step_choices(s, &sc, &stats));
        let Some(el) = card.get() else { return };
        let _ = el.set_attribute("data-step", &(n + 1).to_string());
        let text = |selector: &str, words: &str| {
            if let Some(part) = find(selector) {
                part.set_text_content(Some(words));
            }
        };
        text("[data-testid=tour-setup]", &setup);
        text("[data-tour=question]", tour::question(s));
        text("[data-testid=tour-next]", &tour::next_label(n));
        if let Some(back) = find("[data-testid=tour-back]") {
            let _ = back.toggle_attribute_with_force("hidden", n == 0);
        }
        // The buttons are written again only when the numbers change.
        let key = values.as_ref().map_or(String::new(), |v| {
            v.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        });
        if let Some(choices) = find("[data-tour=choices]") {
            if choices.get_attribute("data-values").as_deref() != Some(key.as_str()) {
                choices
                    .set_inner_html(&values.map(|v| tour::choices_markup(&v)).unwrap_or_default());
                let _ = choices.set_attribute("data-values", &key);
            }
        }
    });
    // The reader's pick, the right answer once the run is done, the reveal and the hint.
    watch(move || {
        let (picked, done) = (picked.get(), done.get());
        let s = strategy();
        let stats = done.then(final_stats).flatten();
        let right = stats.as_ref().map(|st| tour::answer(s, st));
        if let Some(choices) = card
            .get()
            .and_then(|c| c.query_selector_all("[data-testid=tour-choice]").ok())
        {
            for b in (0..choices.length()).filter_map(|i| choices.item(i)) {
                let Ok(b) = b.dyn_into::<web_sys::Element>() else {
                    continue;
                };
                let v = b
                    .get_attribute("data-value")
                    .and_then(|v| v.parse::<u64>().ok());
                let _ = b.set_attribute(
                    "aria-pressed",
                    if v.is_some() && v == picked {
                        "true"
                    } else {
                        "false"
                    },
                );
                let _ = b
                    .class_list()
                    .toggle_with_force("rll-tour-right", v.is_some() && v == right);
            }
        }
        if let Some(reveal) = find("[data-testid=tour-reveal]") {
            match (&stats, right) {
                (Some(st), Some(answer)) => {
                    let _ = reveal.set_attribute("data-answer", &answer.to_string());
                    if let Some(words) = find("[data-tour=reveal]") {
                        words.set_text_content(Some(&tour::reveal(s, st, picked)));
                    }
                    let _ = reveal.remove_attribute("hidden");
                }
                _ => {
                    let _ = reveal.set_attribute("hidden", "");
                }
            }
        }
        if let Some(hint) = find("[data-tour=hint]") {
            hint.set_text_content(Some(tour::hint(done, picked.is_some())));
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(button) =
            target_as::<web_sys::Element>(&ev).and_then(|e| e.closest("button").ok().flatten())
        else {
            return;
        };
        if let Some(v) = button
            .get_attribute("data-value")
            .and_then(|v| v.parse::<u64>().ok())
        {
            picked.set(Some(v));
            state.run(strategy());
            return;
        }
        match button.get_attribute("data-tour-go").as_deref() {
            Some("back") => go(step().saturating_sub(1)),
            Some("next") if step() + 1 < STEPS => go(step() + 1),
            Some("next" | "leave") => leave(),
            _ => {}
        }
    };
    view! {
        <div class="rll-tour" data-testid="tour" data-step="1" tabindex="-1" role="region" aria-label="Guided walk"
            node_ref=card inner_html=tour::CARD_MARKUP on:keydown=handler(on_key) on:click=handler(on_click)></div>
    }
}

/// True if the key went to a field that types (none in the card today, but a field added
/// to it keeps its arrows).
fn typing(ev: &leptos::ev::KeyboardEvent) -> bool {
    target_as::<web_sys::Element>(ev)
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// The card for `state`, as the walk's module gives it to the run page.
pub fn walk_card(state: RunState) -> AnyView {
    view! { <TourCard state/> }.into_any()
}

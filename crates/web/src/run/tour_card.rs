//! The guided walk's card, at the top of the stage (the strategy buttons above it show
//! which step it is on): the step's setup and question, three
//! choices, then the reveal once the step's run is done, with its moment marked on the
//! stage (the harm's mark, the customer's marks and story) and the playhead at the end.
//! Words, choices and moments come from
//! [`page::run::tour`], and so is the card, a live widget ([`Card`]); this file only
//! says what it shows and moves between steps.

use crate::run::run_state::RunState;
use crate::run::use_playback::PlayState;
use crate::shared::bind;
use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use crate::shared::live;
use crate::shared::page_query;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::query::{Story, Walk};
use page::run::tour::{self, Card, CardState, Go, CARD, CHOICE, CHOICE_VALUE, STEPS};
use wasm_bindgen::JsCast;

/// The card, while `state.tour` holds a step.
#[component]
pub fn TourCard(
    /// The run view the walk plays on.
    state: RunState,
) -> impl IntoView {
    let playback = state.playback();
    let card = NodeRef::<Div>::new();
    let step = move || state.tour().get().unwrap_or(0);
    let strategy = move || tour::strategy(step());
    // The reader's prediction, forgotten when the step changes.
    let picked = RwSignal::new(None::<u64>);
    watch(move || {
        state.tour().track();
        picked.set(None);
    });
    // The step's run, run ahead so its choices are the run's numbers: again only when
    // the step's scenario changes (a plain cache: a memo of its own type would cost the
    // module its own copy of the memo's machinery).
    let ahead = std::cell::RefCell::new(None::<(sim::Scenario, Option<Vec<u64>>)>);
    let choices = move || {
        state.draft().track();
        state.seed_field().0.track();
        let s = strategy();
        let sc = state.scenario_for(s).ok()?;
        let mut ahead = ahead.borrow_mut();
        if let Some((_, values)) = ahead.as_ref().filter(|(at, _)| *at == sc) {
            return values.clone();
        }
        let values = tour::foresee(&sc)
            .ok()
            .map(|stats| tour::step_choices(s, &sc, &stats));
        *ahead = Some((sc, values.clone()));
        values
    };
    // True once this step's strategy has finished its run.
    let done = Memo::new(move |_| {
        playback.state().get() == PlayState::Done
            && playback.scenario().with(|s| s.as_ref().map(|s| s.strategy)) == Some(strategy())
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
        // The playhead stays at the end, so the clock and every counter read what the
        // reveal says; the moment is pointed at on the timeline (a harm's mark, and the
        // customer's marks picked out with their story open).
        if let Some(m) = m {
            playback.point_at(m.harm);
            state.open_story(Some(m.customer));
        }
    });
    let go = move |to: usize| {
        state.go_to_step(to, tour::strategy(to));
        let el = card
            .get_untracked()
            .and_then(|root| bind::find(&root, CARD));
        if let Some(el) = el.and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    };
    let leave = move || {
        state.close_walk();
        // A first visit that ran nothing has no query to take the walk out of.
        if page_query::read::<(Story, Walk)>().walk().tour {
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
    // The card is the page layer's live widget: drawn once, then written in place (so a
    // focused choice keeps its focus); one handler reads its clicks.
    let shown = live::view(Card, move || CardState {
        step: step(),
        draft: state.draft().get(),
        choices: choices(),
        picked: picked.get(),
        done: done.get().then(final_stats).flatten(),
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(choice) = bind::hit(&ev, CHOICE) {
            if let Some(v) = choice
                .get_attribute(CHOICE_VALUE)
                .and_then(|v| v.parse::<u64>().ok())
            {
                picked.set(Some(v));
                state.run(strategy());
            }
            return;
        }
        match Go::ALL
            .into_iter()
            .find(|g| bind::hit(&ev, g.slot()).is_some())
        {
            Some(Go::Back) => go(step().saturating_sub(1)),
            Some(Go::Next) if step() + 1 < STEPS => go(step() + 1),
            Some(Go::Next | Go::Leave) => leave(),
            None => {}
        }
    };
    view! {
        <div style="display:contents" node_ref=card on:keydown=handler(on_key) on:click=handler(on_click)>{shown}</div>
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

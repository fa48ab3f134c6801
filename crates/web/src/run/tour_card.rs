//! The guided walk's card, at the top of the stage (the strategy buttons above it show
//! which step it is on): the step's setup and question, three
//! choices, then the reveal once the step's run is done, with its moment marked on the
//! stage (the harm's mark, the customer's marks and story) and the playhead at the end.
//! Words, choices and moments come from
//! [`page::run::tour`]; this file only shows them and moves between steps.

use crate::run::run_state::RunState;
use crate::run::use_playback::PlayState;
use crate::shared::bind;
use crate::shared::dom::{set_attr, set_class, set_flag, set_text, target_as};
use crate::shared::erase::{handler, watch};
use crate::shared::page_query;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::query::{Story, Walk};
use page::run::tour::{
    self, Go, CARD_LABEL, CHOICE, CHOICES, CHOICES_SHOWN, CHOICE_VALUE, HINT, QUESTION, REVEAL,
    REVEAL_WORDS, SETUP, STEPS,
};

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
    // The step's run, run ahead so its choices are the run's numbers.
    let ahead = move || {
        state.draft().track();
        state.seed_field().0.track();
        let sc = state.scenario_for(strategy()).ok()?;
        tour::foresee(&sc).ok().map(|stats| (sc, stats))
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
        if let Some(el) = card.get_untracked() {
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
    // The card is the page layer's markup, set once; one effect per part writes it in
    // place (so a focused choice keeps its focus), and one handler reads its clicks.
    watch(move || {
        let n = step();
        if let Some(el) = card.get() {
            set_attr(&el, "data-step", &(n + 1).to_string());
        }
    });
    bind::node(card, SETUP, move |el| {
        set_text(el, Some(&tour::setup(strategy(), &state.draft().get())));
    });
    bind::node(card, QUESTION, move |el| {
        set_text(el, Some(tour::question(strategy())));
    });
    bind::node(card, Go::Next.slot(), move |el| {
        set_text(el, Some(&tour::next_label(step())));
    });
    bind::node(card, Go::Back.slot(), move |el| {
        set_flag(el, "hidden", step() == 0)
    });
    // The choices, written again only when the numbers change.
    bind::node(card, CHOICES, move |el| {
        let s = strategy();
        let values = ahead().map(|(sc, stats)| tour::step_choices(s, &sc, &stats));
        let key = values.as_deref().map_or(String::new(), tour::choices_key);
        if el.get_attribute(CHOICES_SHOWN).as_deref() != Some(key.as_str()) {
            let markup = values.map(|v| tour::choices_markup(&v).into_string());
            el.set_inner_html(&markup.unwrap_or_default());
            set_attr(el, CHOICES_SHOWN, &key);
        }
    });
    // The right answer, once the step's run is done.
    let right = move || {
        let stats = done.get().then(final_stats).flatten()?;
        Some((tour::answer(strategy(), &stats), stats))
    };
    // The reader's pick, and the right one once the run is done.
    bind::each(card, CHOICE, move |b| {
        let (picked, right) = (picked.get(), right().map(|(answer, _)| answer));
        let v = b
            .get_attribute(CHOICE_VALUE)
            .and_then(|v| v.parse::<u64>().ok());
        let on = v.is_some() && v == picked;
        set_attr(b, "aria-pressed", if on { "true" } else { "false" });
        set_class(b, "rll-tour-right", v.is_some() && v == right);
    });
    bind::node(card, REVEAL, move |el| match right() {
        Some((answer, stats)) => {
            set_attr(el, "data-answer", &answer.to_string());
            if let Some(words) = bind::find(el, REVEAL_WORDS) {
                set_text(
                    &words,
                    Some(&tour::reveal(strategy(), &stats, picked.get())),
                );
            }
            set_flag(el, "hidden", false);
        }
        None => set_flag(el, "hidden", true),
    });
    bind::node(card, HINT, move |el| {
        set_text(el, Some(tour::hint(done.get(), picked.get().is_some())));
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
        <div class="rll-tour" data-testid="tour" data-step="1" tabindex="-1" role="region" aria-label=CARD_LABEL
            node_ref=card inner_html=tour::card_markup().into_string() on:keydown=handler(on_key) on:click=handler(on_click)></div>
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

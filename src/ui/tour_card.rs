//! The guided walk's card, at the top of the stage: the step's setup and question, three
//! choices, then the reveal once the step's run is done, with its moment marked on the
//! stage (playhead, callout, the customer's story). Words, choices and moments come from
//! [`crate::page::tour`]; this file only shows them and moves between steps.

use super::run_state::RunState;
use super::use_playback::PlayState;
use crate::page::format::count;
use crate::page::titles::strategy_label;
use crate::page::tour::{self, STEPS};
use crate::sim::StrategyName;
use leptos::html::Div;
use leptos::prelude::*;

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
    Effect::new(move |_| {
        state.tour.track();
        picked.set(None);
    });
    // The step's run, run ahead so its choices are the run's numbers.
    let ahead = Memo::new(move |_| {
        state.draft.track();
        state.seed_text.track();
        let sc = state.scenario_for(strategy()).ok()?;
        tour::foresee(&sc).ok().map(|stats| (sc, stats))
    });
    // The finished run of this step's strategy: its final counters.
    let done = Memo::new(move |_| {
        let here = playback.state.get() == PlayState::Done
            && playback.scenario.with(|s| s.as_ref().map(|s| s.strategy)) == Some(strategy());
        here.then(|| playback.with_sim(|sim| sim.snapshot().stats))
            .flatten()
    });
    // Once it is done, its moment is marked on the stage; the last one ends the walk.
    Effect::new(move |_| {
        if done.with(Option::is_none) {
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
        state.record_tour(false);
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
    let choices = move || {
        let Some((sc, stats)) = ahead.get() else {
            return view! { <p>"Fix the numbers above to run this step."</p> }.into_any();
        };
        let s = strategy();
        tour::step_choices(s, &sc, &stats)
            .into_iter()
            .map(|v| {
                let right = move || done.with(|d| d.as_ref().map(|st| tour::answer(s, st) == v));
                view! {
                    <button
                        type="button"
                        data-testid="tour-choice"
                        data-value=v
                        aria-pressed=move || (picked.get() == Some(v)).to_string()
                        class:rll-tour-right=move || right() == Some(true)
                        on:click=move |_| {
                            picked.set(Some(v));
                            state.run(s);
                        }
                    >
                        {count(v)}
                    </button>
                }
            })
            .collect_view()
            .into_any()
    };
    let reveal = move || {
        let s = strategy();
        match done.get() {
            Some(stats) => view! {
                <p data-testid="tour-reveal" data-answer=tour::answer(s, &stats) aria-live="polite">
                    <strong>{tour::reveal(s, &stats, picked.get())}</strong>
                    " " {tour::MARKED}
                </p>
            }
            .into_any(),
            None => view! {
                <p class="rll-tour-hint">
                    {move || if picked.get().is_some() { "Watch it run: Space pauses." } else { "Pick one, and the run starts." }}
                </p>
            }
            .into_any(),
        }
    };
    view! {
        <div
            class="rll-tour"
            data-testid="tour"
            data-step=move || step() + 1
            tabindex="-1"
            role="region"
            aria-label="Guided walk"
            node_ref=card
            on:keydown=on_key
        >
            <ol class="rll-tour-steps">
                {StrategyName::ALL
                    .iter()
                    .enumerate()
                    .map(|(i, &s)| view! {
                        <li aria-current=move || (step() == i).then_some("step")>{strategy_label(s)}</li>
                    })
                    .collect_view()}
            </ol>
            <p data-testid="tour-setup">{move || tour::setup(strategy(), &state.draft.get())}</p>
            <p><strong>{move || tour::question(strategy())}</strong></p>
            <div class="rll-tour-choices" role="group" aria-label="Your prediction">{choices}</div>
            {reveal}
            <div class="rll-tour-nav">
                {move || (step() > 0).then(|| view! {
                    <button type="button" class="rll-quiet" data-testid="tour-back" on:click=move |_| go(step() - 1)>"← Back"</button>
                })}
                <button
                    type="button"
                    data-testid="tour-next"
                    on:click=move |_| if step() + 1 < STEPS { go(step() + 1) } else { leave() }
                >
                    {move || tour::next_label(step())}
                </button>
                <button type="button" class="rll-quiet" data-testid="tour-leave" on:click=move |_| leave()>"Leave the walk"</button>
            </div>
            <p class="rll-tour-keys">"With the focus in this card, ← and → move through the walk."</p>
        </div>
    }
}

/// True if the key went to a field that types (none in the card today, but a field added
/// to it keeps its arrows).
fn typing(ev: &leptos::ev::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

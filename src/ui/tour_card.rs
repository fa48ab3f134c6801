//! The guided walk's card, at the top of the stage (the strategy buttons above it show
//! which step it is on): the step's setup and question, three
//! choices, then the reveal once the step's run is done, with its moment marked on the
//! stage (playhead, callout, the customer's story). Words, choices and moments come from
//! [`crate::page::tour`]; this file only shows them and moves between steps.

use super::dom::target_as;
use super::erase::{handler, watch};
use super::page_query;
use super::run_state::RunState;
use super::use_playback::PlayState;
use crate::page::format::count;
use crate::page::tour::{self, STEPS};
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
    let choices = move || {
        let (sc, stats) = ahead()?;
        let s = strategy();
        let right = tour::answer(s, &stats);
        Some(
            tour::step_choices(s, &sc, &stats)
                .into_iter()
                .map(|v| {
                    view! {
                        <button
                            type="button"
                            data-testid="tour-choice"
                            data-value=v
                            aria-pressed=move || (picked.get() == Some(v)).to_string()
                            class:rll-tour-right=move || v == right && done.get()
                            on:click=handler(move |_| {
                                picked.set(Some(v));
                                state.run(s);
                            })
                        >
                            {count(v)}
                        </button>
                    }
                })
                .collect_view(),
        )
    };
    let reveal = move || {
        let s = strategy();
        let stats = done.get().then(final_stats).flatten()?;
        Some(view! {
            <p data-testid="tour-reveal" data-answer=tour::answer(s, &stats) aria-live="polite">
                <strong>{tour::reveal(s, &stats, picked.get())}</strong>
                " " {tour::MARKED}
            </p>
        })
    };
    let hint = move || {
        (!done.get()).then(|| {
            if picked.get().is_some() {
                "Watch it run: Pause, above, stops it where it is."
            } else {
                "Pick one, and the run starts."
            }
        })
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
            on:keydown=handler(on_key)
        >
            <p>
                <span class="rll-tour-title">"Guided walk · "</span>
                <span data-testid="tour-setup">{move || tour::setup(strategy(), &state.draft.get())}</span>
            </p>
            <div class="rll-tour-ask">
                <p><strong>{move || tour::question(strategy())}</strong></p>
                <div class="rll-tour-choices" role="group" aria-label="Your prediction">{choices}</div>
            </div>
            {reveal}
            <p class="rll-tour-hint">{hint}</p>
            <div class="rll-tour-nav">
                {move || (step() > 0).then(|| view! {
                    <button type="button" class="rll-quiet" data-testid="tour-back" on:click=handler(move |_| go(step() - 1))>"← Back"</button>
                })}
                <button
                    type="button"
                    data-testid="tour-next"
                    on:click=handler(move |_| if step() + 1 < STEPS { go(step() + 1) } else { leave() })
                >
                    {move || tour::next_label(step())}
                </button>
                <button type="button" class="rll-quiet" data-testid="tour-leave" on:click=handler(move |_| leave())>"Leave the walk"</button>
                <span class="rll-tour-keys">"With the focus in this card, ← and → move through the walk."</span>
            </div>
        </div>
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

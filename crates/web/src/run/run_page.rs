//! The run page: one strategy played back. It is the first page most readers open, so
//! its module holds only what it shows (docs/sizes-and-speeds.md).

use crate::run::hand_over;
use crate::run::intro::Intro;
use crate::run::motion_note::MotionNote;
use crate::run::run_keys::RunKeys;
use crate::run::run_state::RunState;
use crate::run::run_view::{FlowCard, Panels, RunView, WalkCard};
use crate::run::use_playback::PlayState;
use crate::run::verdict_card::VerdictCard;
use crate::shared::erase::watch;
use crate::shared::frame::Frame;
use crate::shared::page_query;
use crate::shared::use_media::use_reduced_motion;
use crate::shared::view_tabs::ViewTabs;
use leptos::prelude::*;
use page::run::keys::KeyAction;
use page::run::query::RunQuery;
use page::run::tour;
use page::{Query, Section, Speed, View};
use sim::story::Scene;
use sim::Scenario;

/// The page.
#[component]
pub fn RunPage(
    /// What the link asks for.
    query: RunQuery,
    /// The guided walk's card: given in the walk's module only (docs/sizes-and-speeds.md).
    walk: Option<WalkCard>,
    /// The opening story the bare address opens on: given in the bare address's module only.
    opening: Option<WalkCard>,
    /// What runs large instant runs in a simulation worker: given in the run page's and
    /// the walk's modules; the bare address's goes without, to keep a first visit's
    /// download as it was (docs/sizes-and-speeds.md), and runs them itself.
    worker_runs: Option<fn() -> std::rc::Rc<dyn crate::run::use_playback::HandOff>>,
    /// Goodput over time: given in the run page's module only; the bare address's and the
    /// walk's point to it (docs/traffic.md).
    flow: Option<FlowCard>,
    /// What lies around the stage: given in every module but the run page's first
    /// (`rate-limit-lab-stage`), which hands its run to the whole page's
    /// ([`hand_over`]).
    panels: Option<Panels>,
    /// What takes the page over from that first module: given in the run page's module
    /// only, as `run.html` alone starts one ([`hand_over::take_over`]).
    take_over: Option<fn(RunState) -> bool>,
) -> impl IntoView {
    let reduced = use_reduced_motion();
    let state = RunState::new(
        &query,
        query.base.playback_speed(reduced.get_untracked()),
        // The first module leaves the address as the link opened it: the page's module
        // reads the link (and what could not be used of it) from there, and writes the
        // run it takes over.
        panels.map(|_| RunState::write_url as crate::run::run_state::UrlWriter),
        walk.is_some(),
        match worker_runs {
            Some(_) => page::shared::budget::Workload::WorkerRun,
            None => page::shared::budget::Workload::Run,
        },
    );
    let playback = state.playback();
    if panels.is_none() {
        hand_over::keep(playback);
    }
    if let Some(worker_runs) = worker_runs {
        playback.hand_off_with(worker_runs());
    }
    // The guided walk: asked for by the URL (the page layer decides).
    if walk.is_some() && tour::opens_walk(&query) {
        let step = query.walk().step;
        state.open_walk(step, tour::strategy(step));
    }
    // The run page's first module, if it was on screen: its run goes on here.
    let handed = take_over.is_some_and(|take_over| take_over(state));
    // A linked run plays at once, except on a phone watching it animate: there the page
    // opens on its verdict, and the run starts when its stage scrolls into view.
    let narrow = query.autostart() && !query.base.embed && is_narrow();
    if query.autostart() && !handed {
        if narrow && playback.speed().get_untracked() != Speed::Instant {
            state.wait_for_stage();
        } else {
            state.run(state.selected().get_untracked());
        }
    }
    // `customer=double-charge`: the first customer the run shows it for, once it is done.
    let scene = StoredValue::new(query.story().scene);
    watch(move || {
        if playback.state().get() != PlayState::Done {
            return;
        }
        if let Some(scene) = scene.get_value() {
            scene_pending_done(scene, state);
        }
        scene.set_value(None);
    });
    // The open story is part of the URL, and Back/Forward move through what was chosen.
    watch(move || {
        state.customer().track();
        state.record_story();
    });
    let popstate = window_event_listener(leptos::ev::popstate, move |_| {
        state.restore(&page_query::read());
    });
    on_cleanup(move || popstate.remove());
    // The presenter's layout is a class on the document, read by the stylesheet.
    if query.base.present {
        if let Some(root) = document().document_element() {
            let _ = root.class_list().add_1("rll-present");
        }
    }
    // At the bare address, the opening story stands first, above the provider's rules.
    let lead = opening
        .filter(|_| query_is_empty())
        .map(|opening| opening(state));
    let verdict = narrow
        .then(|| state.scenario_for(state.selected().get_untracked()).ok())
        .flatten()
        .map(|scenario| view! { <VerdictCard scenario/> });
    // The links to the other pages carry the seed and numbers being edited.
    let scenario = Signal::derive(move || Scenario {
        seed: state.seed_field().0.seed().unwrap_or(1),
        ..state.draft().get()
    });
    // What the footer's command prints: the run on screen, or the one the buttons would
    // start, with the story that is open.
    let shown = Signal::derive(move || {
        let run = playback.scenario().get().unwrap_or_else(|| Scenario {
            strategy: state.selected().get(),
            ..scenario.get()
        });
        let mut q: RunQuery = Query::for_run(&run, Speed::Instant);
        q.own.0.customer = state.customer().get();
        q
    });
    view! {
        <Frame
            section=Section::Charges
            problems=query.base.problems.clone()
            scenario
            view=Signal::stored(View::Run)
            run_state=Signal::derive(move || playback.state().get().as_str())
            shown
            words=page::site::words::RUN_WORDS
        >
            {lead}
            <MotionNote playback reduced/>
            {verdict}
            <Intro scenario=state.draft().into()/>
            <ViewTabs current=View::Run scenario/>
            <RunView state walk flow panels/>
            <RunKeys
                state
                on_step=move |action| match action {
                    KeyAction::StepRequest(forward) => { playback.step(false, forward); }
                    KeyAction::StepHarm(forward) => { playback.step(true, forward); }
                    _ => {}
                }
            />
        </Frame>
    }
}

/// True if the page's address has no query at all.
fn query_is_empty() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_none_or(|s| s.len() <= 1)
}

/// A phone-sized screen, where the stage cannot share the first screen with the intro.
fn is_narrow() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(max-width: 699px)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Opens the story of the first customer showing `scene` in the finished run, if any.
fn scene_pending_done(scene: Scene, state: RunState) {
    if state.customer().get_untracked().is_some() {
        return;
    }
    let found = state
        .playback()
        .with_sim(|sim| sim.record().and_then(|r| scene.find(r)))
        .flatten();
    if found.is_some() {
        state.open_story(found);
    }
}

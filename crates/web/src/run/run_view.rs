//! The run view: one strategy played back, with its counters, timeline, customers and
//! code.

use crate::run::break_button::BreakButton;
use crate::run::code_view::CodeView;
use crate::run::controls::Controls;
use crate::run::customer_grid::CustomerGrid;
use crate::run::export_buttons::ExportButtons;
use crate::run::harm_switch::HarmSwitch;
use crate::run::key_counters::KeyCounters;
use crate::run::knobs::Knobs;
use crate::run::params_panel::ParamsPanel;
use crate::run::run_state::RunState;
use crate::run::run_timeline::{Legend, Playhead, RunTimeline};
use crate::run::stats_panel::StatsPanel;
use crate::run::strategy_note::StrategyNote;
use crate::run::strategy_picker::StrategyPicker;
use crate::run::summary::Summary;
use crate::run::use_playback::{PlayState, Playback};
use crate::shared::dom::set_flag;
use crate::shared::erase::watch;
use crate::shared::later::{after_next_paint, Later};
use crate::shared::live;
use crate::shared::observe::{last_entry, use_observer};
use crate::shared::progress::Progress;
use crate::shared::story_panel::StoryPanel;
use leptos::prelude::*;
use page::run::code::CODE_TITLE;
use page::run::stage::{
    key_stats, unrecorded_sentence, FlowElsewhere, GRID_TITLE, RUN_TITLE, STAGE_ID,
};
use page::Speed;

/// Builds the guided walk's card for a run view's state.
pub type WalkCard = fn(RunState) -> AnyView;

/// Builds goodput over time for a run, in the run page's module only.
pub type FlowCard = fn(Playback) -> AnyView;

/// The run view.
#[component]
pub fn RunView(
    /// The run view's state.
    state: RunState,
    /// The guided walk's card, in the module that carries the walk.
    walk: Option<WalkCard>,
    /// Goodput over time, in the module that carries the chart; the others point to it.
    flow: Option<FlowCard>,
    /// What lies around the stage: in every module but the run page's first.
    panels: Option<Panels>,
) -> impl IntoView {
    let (playback, selected, draft) = (state.playback(), state.selected(), state.draft());
    let (seed, seed_error) = state.seed_field();
    let customer = state.story_selection();
    // Without a record the timeline and grid are hidden, not drawn empty: the document is
    // marked (the run page is never in a shadow root, unlike a widget), and the
    // stylesheet hides what needs a record and shows the notes that say why
    // (`.rll-if-recorded`, `.rll-unrecorded-note`).
    let recorded = move || {
        playback
            .scenario()
            .with(|s| s.as_ref().is_none_or(|s| s.record))
    };
    let stage = NodeRef::<leptos::html::Div>::new();
    // The customer pointed at in the grid, whose marks the timeline highlights.
    let hovered = RwSignal::new(None::<u32>);
    let around = move |place| {
        panels.map(|panels| {
            panels(Around {
                place,
                state,
                hovered,
                flow,
            })
        })
    };
    let key_fields = Signal::derive(move || key_stats(selected.get()).to_vec());
    // The guided walk's card, mounted once while the walk is open (not on every step).
    let walking = Memo::new(move |_| state.tour().with(Option::is_some));
    // A watched run brings the stage into view, so the controls, the clock, the
    // timeline and its counters share the screen while it plays: after the frame, once
    // what `Later` builds is there (a run that plays as the page loads would otherwise
    // scroll a page not yet tall enough to bring the stage to the top).
    watch(move || {
        let watched = playback.state().get() == PlayState::Running
            && playback.speed().get_untracked() != Speed::Instant;
        if let (true, Some(el)) = (watched, stage.get_untracked()) {
            after_next_paint(move || bring_into_view(&el));
        }
    });
    // A linked run on a phone waits for its stage to scroll into view before playing.
    use_observer::<web_sys::IntersectionObserver, _>(stage, move |entries| {
        let seen = last_entry::<web_sys::IntersectionObserverEntry>(&entries)
            .is_some_and(|e| e.is_intersecting());
        if seen {
            state.start_waiting_run();
        }
    });
    // The mark is on the document's root, which no widget draws: written here.
    watch(move || {
        let unrecorded = !recorded();
        if let Some(root) = document().document_element() {
            set_flag(&root, "data-unrecorded", unrecorded);
        }
    });
    let scale = if state.present() { 4.0 / 3.0 } else { 1.0 };
    view! {
        <section class="rll-run" aria-labelledby="rll-run-title">
            <h2 id="rll-run-title">{RUN_TITLE}</h2>
            <StrategyNote strategy=selected.into() scenario=draft.into()/>
            <ParamsPanel state/>
            <div class="rll-stage" id=STAGE_ID node_ref=stage data-testid="stage">
                <div class="rll-stage-bar">
                    <StrategyPicker selected=selected.into() on_pick=Callback::new(move |s| state.run(s))/>
                    <Controls
                        playback
                        seed
                        seed_error=seed_error
                        run_error=state.run_error()
                        on_run=Callback::new(move |()| state.run(selected.get_untracked()))
                        on_new_seed=Callback::new(move |()| state.new_seed())
                    />
                    <Progress playback/>
                </div>
                // Below the control bar, built a frame later: on a phone the bar's buttons
                // are what a reader reaches first, and these lie under them.
                <div class="rll-stage-plot">
                    <Later>
                    {move || walk.filter(|_| walking.get()).map(|card| card(state))}
                    {unrecorded_note()}
                    <div class="rll-if-recorded">
                        <RunTimeline playback scale ghost=state.ghost_record() ghost_on=Signal::derive(move || state.ghost().with(Option::is_some)) open_story=customer highlight=hovered.into()>
                            <Playhead playback scale/>
                            <figcaption><Legend/></figcaption>
                        </RunTimeline>
                    </div>
                    </Later>
                </div>
                <div class="rll-stage-side">
                    <Later>
                    <KeyCounters playback fields=key_fields before=Signal::derive(move || state.ghost().with(|g| g.as_ref().map(|g| g.stats.clone())))/>
                    {around(Place::Side)}
                    </Later>
                </div>
                // The tools and knobs, under the timeline on a wide screen and after the
                // counters on a narrow one: what the page's first module draws (the bar,
                // the timeline, the counters) stays where it stood when they arrive.
                {panels.map(|_| view! { <div class="rll-stage-more"><Later>{around(Place::Plot)}</Later></div> })}
            </div>
        </section>
        <Later>
        {around(Place::Below)}
        </Later>
    }
}

/// What lies around the stage on the whole run page: the panels the run page's first
/// module goes without (`rate-limit-lab-stage`, docs/sizes-and-speeds.md, "The run
/// page's first module"), so that module carries none of their code. The stage's bar,
/// timeline and counters are in both; these come with the whole page's module.
pub type Panels = fn(Around) -> AnyView;

/// Where around the stage a part of [`Panels`] goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Under the timeline (after the counters on a narrow screen): goodput over time,
    /// the break and harm switches, the knobs.
    Plot,
    /// Under the counters: the summary and the exports.
    Side,
    /// Under the stage: the counters panel, the customers and their stories, the code.
    Below,
}

/// What a part of [`Panels`] is given.
#[derive(Clone, Copy)]
pub struct Around {
    /// Where it goes.
    place: Place,
    /// The run view's state.
    state: RunState,
    /// The customer pointed at in the grid, whose marks the timeline highlights.
    hovered: RwSignal<Option<u32>>,
    /// Goodput over time, in the module that carries the chart.
    flow: Option<FlowCard>,
}

/// The whole run page's [`Panels`].
pub fn panels(around: Around) -> AnyView {
    let Around {
        place,
        state,
        hovered,
        flow,
    } = around;
    let (playback, selected, draft) = (state.playback(), state.selected(), state.draft());
    let customer = state.story_selection();
    match place {
        Place::Plot => view! {
            // Traffic that keeps arriving only; it needs no record, so it is outside the
            // part a run with none hides.
            {match flow {
                Some(card) => card(playback),
                None => elsewhere(playback).into_any(),
            }}
            // Under the picture, not on it: the marks a break makes are drawn there.
            <div class="rll-stage-tools">
                <BreakButton state/>
                <HarmSwitch playback/>
            </div>
            <Knobs state/>
        }
        .into_any(),
        Place::Side => view! {
            <Summary playback/>
            <ExportButtons playback/>
        }
        .into_any(),
        Place::Below => view! {
            <StatsPanel playback/>
            <section class="rll-see" aria-labelledby="rll-grid-title">
                <h2 id="rll-grid-title">{GRID_TITLE}</h2>
                {unrecorded_note()}
                <div class="rll-if-recorded">
                    <CustomerGrid playback selected=customer hovered/>
                    <StoryPanel source=playback selected=customer told=state.opening_customer()/>
                </div>
            </section>
            <section class="rll-see" aria-labelledby="rll-code-title">
                <h2 id="rll-code-title">{CODE_TITLE}</h2>
                <CodeView strategy=selected.into() scenario=draft.into()/>
            </section>
        }
        .into_any(),
    }
}

/// Under traffic that keeps arriving, in a module without the chart: where it is drawn
/// (empty, and hidden by the stylesheet, for a batch), the page layer's live widget.
fn elsewhere(playback: Playback) -> impl IntoView {
    live::view(FlowElsewhere, move || {
        playback
            .scenario()
            .with(|s| s.as_ref().filter(|s| !s.traffic.is_batch()).cloned())
    })
}

/// Scrolls `el` to the top of the viewport, only on screens tall and wide enough to hold
/// the stage (a phone keeps its place).
fn bring_into_view(el: &web_sys::HtmlDivElement) {
    let Some(w) = web_sys::window() else { return };
    let wide = w
        .match_media("(min-width: 1000px) and (min-height: 600px)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches());
    if wide && el.get_bounding_client_rect().top().abs() > 1.0 {
        el.scroll_into_view();
    }
}

/// Says that a run too large to keep a record has no timeline, grid or story (the same
/// note, one function, above the stage and above the grid); hidden by the stylesheet
/// while there is one.
fn unrecorded_note() -> impl IntoView {
    view! {
        <p class="rll-callout rll-unrecorded-note" data-testid="unrecorded-note">
            {unrecorded_sentence()}
        </p>
    }
}

//! The run page: one strategy played back. It is the first page most readers open, so
//! its module holds only what it shows (README, "Sizes").

use super::frame::Frame;
use super::intro::Intro;
use super::run_keys::RunKeys;
use super::run_state::RunState;
use super::run_view::RunView;
use super::use_media::use_reduced_motion;
use super::view_tabs::ViewTabs;
use crate::page::keys::KeyAction;
use crate::page::{parse_seed, PageQuery, Section, Speed, View};
use crate::sim::Scenario;
use leptos::prelude::*;

/// The page.
#[component]
pub fn RunPage(
    /// What the link asks for.
    query: PageQuery,
) -> impl IntoView {
    let reduced = use_reduced_motion();
    let state = RunState::new(&query, query.playback_speed(reduced.get_untracked()), true);
    let playback = state.playback;
    if query.autostart() {
        state.run(state.selected.get_untracked());
    }
    // The links to the other pages carry the seed and numbers being edited.
    let scenario = Signal::derive(move || Scenario {
        seed: parse_seed(&state.seed_text.get()).unwrap_or(1),
        ..state.draft.get()
    });
    // What the footer's command prints: the run on screen, or the one the buttons would
    // start, with the story that is open.
    let shown = Signal::derive(move || {
        let run = playback.scenario.get().unwrap_or_else(|| Scenario {
            strategy: state.selected.get(),
            ..scenario.get()
        });
        PageQuery {
            customer: state.customer.get(),
            ..PageQuery::for_run(&run, Speed::Instant)
        }
    });
    let motion_note = move || {
        (reduced.get() && playback.speed.get() == Speed::Instant).then(|| {
            view! {
                <p class="rll-notice" data-testid="motion-note">
                    "Your system asks for reduced motion, so runs play instantly. "
                    <button type="button" class="rll-link" on:click=move |_| playback.set_speed(Speed::X10)>"Animate anyway"</button>
                </p>
            }
        })
    };
    view! {
        <Frame
            section=Section::Charges
            problems=query.problems.clone()
            scenario
            view=Signal::stored(View::Run)
            run_state=Signal::derive(move || playback.state.get().as_str())
            shown
        >
            {motion_note}
            <Intro scenario=state.draft.into()/>
            <ViewTabs current=View::Run scenario/>
            <RunView state/>
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

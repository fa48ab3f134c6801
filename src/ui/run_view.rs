//! The run view: one strategy played back, with its counters, timeline, customers and
//! code.

use super::code_view::CodeView;
use super::controls::Controls;
use super::customer_grid::CustomerGrid;
use super::progress::Progress;
use super::run_timeline::RunTimeline;
use super::stats_panel::StatsPanel;
use super::story_panel::StoryPanel;
use super::strategy_note::StrategyNote;
use super::strategy_picker::StrategyPicker;
use super::summary::Summary;
use super::use_playback::Playback;
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;

/// Everything the run view shares with the page around it.
#[derive(Clone, Copy)]
pub struct RunState {
    /// The playback.
    pub playback: Playback,
    /// The strategy selected.
    pub selected: RwSignal<StrategyName>,
    /// The seed field's text.
    pub seed_text: RwSignal<String>,
    /// Why the seed or scenario cannot run, if it cannot.
    pub seed_error: RwSignal<Option<String>>,
    /// The customer whose story is open.
    pub customer: RwSignal<Option<u32>>,
    /// Runs a strategy with the current seed.
    pub run: Callback<StrategyName>,
    /// Picks a random seed and runs.
    pub new_seed: Callback<()>,
}

/// The run view.
#[component]
pub fn RunView(state: RunState, defaults: Scenario) -> impl IntoView {
    let RunState {
        playback,
        selected,
        seed_text,
        seed_error,
        customer,
        run,
        new_seed,
    } = state;
    view! {
        <section class="rll-run" aria-labelledby="rll-run-title">
            <h2 id="rll-run-title">"Send the charges"</h2>
            <StrategyPicker selected=selected.into() on_pick=run/>
            <StrategyNote strategy=selected.into() client=defaults.client.clone() provider=defaults.provider.clone()/>
            <Controls
                playback
                seed_text
                seed_error=seed_error.into()
                on_run=Callback::new(move |()| run.run(selected.get_untracked()))
                on_new_seed=new_seed
            />
            <Progress playback/>
            <Summary playback/>
        </section>
        <StatsPanel playback/>
        <section class="rll-see" aria-labelledby="rll-timeline-title">
            <h2 id="rll-timeline-title">"Every request, over time"</h2>
            <p class="rll-caption">
                "One row per customer, one mark per request at the moment it was sent. "
                "Below: how full the provider's rate window and in-flight slots were."
            </p>
            <RunTimeline playback/>
        </section>
        <section class="rll-see" aria-labelledby="rll-grid-title">
            <h2 id="rll-grid-title">"Every customer"</h2>
            <CustomerGrid playback selected=customer/>
            <StoryPanel playback selected=customer/>
        </section>
        <section class="rll-see" aria-labelledby="rll-code-title">
            <h2 id="rll-code-title">"The code that ran"</h2>
            <CodeView strategy=selected.into() client=defaults.client.clone()/>
        </section>
    }
}

//! The run view: one strategy played back, with its counters, timeline, customers and
//! code.

use super::code_view::CodeView;
use super::controls::Controls;
use super::customer_grid::CustomerGrid;
use super::export_buttons::ExportButtons;
use super::params_panel::ParamsPanel;
use super::progress::Progress;
use super::run_state::RunState;
use super::run_timeline::RunTimeline;
use super::stats_panel::StatsPanel;
use super::story_panel::StoryPanel;
use super::strategy_note::StrategyNote;
use super::strategy_picker::StrategyPicker;
use super::summary::Summary;
use crate::page::format::count;
use crate::sim::budget::RECORD_MAX_CUSTOMERS;
use leptos::prelude::*;

/// The run view.
#[component]
pub fn RunView(
    /// The run view's state.
    state: RunState,
) -> impl IntoView {
    let RunState {
        playback,
        selected,
        seed_text,
        seed_error,
        customer,
        draft,
        ..
    } = state;
    let recorded = move || {
        playback
            .scenario
            .with(|s| s.as_ref().is_none_or(|s| s.record))
    };
    let unrecorded_note = move || {
        (!recorded()).then(|| {
            view! {
                <p class="rll-callout">
                    "Runs above " {count(RECORD_MAX_CUSTOMERS.into())}
                    " customers keep no per-request record, so there is no timeline, grid or story: the counters above are the whole result."
                </p>
            }
        })
    };
    view! {
        <section class="rll-run" aria-labelledby="rll-run-title">
            <h2 id="rll-run-title">"Send the charges"</h2>
            <StrategyPicker selected=selected.into() on_pick=Callback::new(move |s| state.run(s))/>
            <StrategyNote strategy=selected.into() scenario=draft.into()/>
            <ParamsPanel state/>
            <Controls
                playback
                seed_text
                seed_error=seed_error.into()
                on_run=Callback::new(move |()| state.run(selected.get_untracked()))
                on_new_seed=Callback::new(move |()| state.new_seed())
            />
            <Progress playback/>
            <Summary playback/>
            <ExportButtons playback/>
        </section>
        <StatsPanel playback compact=false/>
        <section class="rll-see" aria-labelledby="rll-timeline-title">
            <h2 id="rll-timeline-title">"Every request, over time"</h2>
            <p class="rll-caption">
                "One row per customer, one mark per request at the moment it was sent. "
                "Below: how full the provider's rate window and in-flight slots were."
            </p>
            {unrecorded_note}
            <RunTimeline playback/>
        </section>
        <section class="rll-see" aria-labelledby="rll-grid-title">
            <h2 id="rll-grid-title">"Every customer"</h2>
            {unrecorded_note}
            <CustomerGrid playback selected=customer/>
            <StoryPanel playback selected=customer/>
        </section>
        <section class="rll-see" aria-labelledby="rll-code-title">
            <h2 id="rll-code-title">"The code that ran"</h2>
            <CodeView strategy=selected.into() scenario=draft.into()/>
        </section>
    }
}

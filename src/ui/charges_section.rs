//! Calling theirs: the provider's rules, then one of three views of the charges.

use super::compare_view::CompareView;
use super::intro::Intro;
use super::run_state::RunState;
use super::run_view::RunView;
use super::sweep_view::SweepView;
use crate::query::View;
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;

/// What the URL asked of the sweep view.
#[derive(Clone, Copy, Debug)]
pub struct SweepRequest {
    /// One strategy, or `None` for all six.
    pub strategy: Option<StrategyName>,
    /// Seeds to run.
    pub seeds: u64,
    /// Start as soon as the view shows.
    pub autostart: bool,
}

/// The tab label of a view.
fn view_label(v: View) -> &'static str {
    match v {
        View::Run => "Run one strategy",
        View::Compare => "Compare all six",
        View::Sweep => "Sweep seeds",
    }
}

/// The charges section.
#[component]
pub fn ChargesSection(
    view: RwSignal<View>,
    state: RunState,
    sweep: SweepRequest,
    on_view: Callback<View>,
) -> impl IntoView {
    let base = move || Scenario {
        seed: state.seed().unwrap_or(1),
        ..state.draft.get_untracked()
    };
    view! {
        <Intro scenario=state.draft.into()/>
        <nav class="rll-tabs" aria-label="Views">
            {View::ALL
                .map(|v| {
                    view! {
                        <button type="button" class="rll-tab" data-view=v.as_str()
                            aria-current=move || (view.get() == v).then_some("page")
                            on:click=move |_| on_view.run(v)>
                            {view_label(v)}
                        </button>
                    }
                })
                .collect_view()}
        </nav>
        {move || match view.get() {
            View::Run => view! { <RunView state/> }.into_any(),
            View::Compare => view! {
                <section class="rll-see">
                    <h2>"All six, side by side"</h2>
                    <CompareView base=base()/>
                </section>
            }
            .into_any(),
            View::Sweep => view! {
                <section class="rll-see">
                    <h2>"Sweep seeds"</h2>
                    <SweepView base=base() strategy=sweep.strategy seeds=sweep.seeds autostart=sweep.autostart/>
                </section>
            }
            .into_any(),
        }}
    }
}

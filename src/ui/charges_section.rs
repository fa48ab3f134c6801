//! Calling theirs: the provider's rules, then one of three views of the charges.

use super::compare_view::CompareView;
use super::intro::Intro;
use super::run_view::{RunState, RunView};
use super::sweep_view::SweepView;
use crate::query::{parse_seed, View};
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
    run_state: RunState,
    sweep: SweepRequest,
    on_view: Callback<View>,
) -> impl IntoView {
    let defaults = Scenario::default();
    let seed = move || parse_seed(&run_state.seed_text.get_untracked()).unwrap_or(1);
    view! {
        <Intro config=defaults.provider.clone()/>
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
            View::Run => view! { <RunView state=run_state defaults=Scenario::default()/> }.into_any(),
            View::Compare => view! {
                <section class="rll-see">
                    <h2>"All six, side by side"</h2>
                    <CompareView base=Scenario { seed: seed(), ..Scenario::default() }/>
                </section>
            }
            .into_any(),
            View::Sweep => view! {
                <section class="rll-see">
                    <h2>"Sweep seeds"</h2>
                    <SweepView base=Scenario::default() strategy=sweep.strategy seeds=sweep.seeds autostart=sweep.autostart/>
                </section>
            }
            .into_any(),
        }}
    }
}

//! Publishing yours: run an experiment.

use super::experiment_view::ExperimentView;
use crate::page::lab::settings::{self, LabSettings};
use crate::page::links::{experiment_href, href};
use crate::page::{Section, View};
use crate::sim::lab::ExperimentName;
use crate::sim::Scenario;
use crate::ui::erase::handler;
use leptos::prelude::*;

/// A button label for each experiment.
fn title(e: ExperimentName) -> &'static str {
    match e {
        ExperimentName::Burst => "Boundary burst",
        ExperimentName::Units => "Header units",
        ExperimentName::Clients => "Blind, obedient, proactive",
        ExperimentName::Neighbour => "Noisy neighbour",
        ExperimentName::Memory => "Memory cost",
        ExperimentName::Herd => "Thundering herd",
    }
}

/// The limits section. The experiment `chosen` when it mounts runs as the page loads,
/// and reruns whenever one of its knobs moves.
#[component]
pub fn LimitsSection(
    /// The link's seed and numbers, kept in the address as experiments are picked.
    scenario: Scenario,
    /// The experiment on screen.
    chosen: RwSignal<Option<ExperimentName>>,
    /// Every knob's value, kept in the address as they move.
    lab_settings: RwSignal<LabSettings>,
) -> impl IntoView {
    let seed = scenario.seed;
    let headers_link = href(Section::Headers, View::Run, &scenario);
    let scenario = StoredValue::new(scenario);
    let sync = move || {
        let link = scenario.with_value(|s| {
            lab_settings.with_untracked(|l| experiment_href(chosen.get_untracked(), s, l))
        });
        super::super::page_query::replace(&link);
    };
    let changed = Callback::new(move |()| sync());
    let pick = move |e: ExperimentName| {
        chosen.set(Some(e));
        sync();
    };
    view! {
        <section class="rll-see" data-testid="limits"
            data-state=move || if chosen.get().is_some() { "done" } else { "idle" }
            data-experiment=move || chosen.get().map(|e| e.as_str()).unwrap_or("")>
            <h2>"Publishing your limit"</h2>
            <p>
                "The other side of the same problem: you run the API. Which limiter do you put in front of it, "
                "what do you tell callers in the headers, and what do careless clients do with what you tell them? "
                "Each experiment runs in simulated time, from seed " {seed.to_string()} ". "
                "The headers themselves, and a reader for them, are on "
                <a href=headers_link>"the headers page"</a> "."
            </p>
            <div class="rll-picker rll-experiments" role="group" aria-label="Experiments">
                {ExperimentName::ALL
                    .into_iter()
                    .enumerate()
                    .map(|(i, e)| {
                        view! {
                            <button type="button" class="rll-strategy" data-experiment=e.as_str()
                                aria-pressed=move || (chosen.get() == Some(e)).to_string()
                                on:click=handler(move |_| pick(e))>
                                <span class="rll-step">{i + 1}</span>
                                <span>{title(e)}</span>
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            {move || match chosen.get() {
                None => view! { <p class="rll-caption">"Pick an experiment to run it."</p> }.into_any(),
                Some(e) => {
                    // Every run is new: comparing results would only cost bytes.
                    let result = Memo::new_with_compare(
                        move |_| lab_settings.with(|l| settings::run_on_page(e, seed, l)),
                        |_, _| true,
                    );
                    view! { <h3>{title(e)}</h3><ExperimentView experiment=e result settings=lab_settings changed/> }.into_any()
                }
            }}
        </section>
    }
}

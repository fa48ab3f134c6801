//! Publishing yours: run an experiment.

use super::experiment_view::ExperimentView;
use super::fleet_view::{FleetView, RaceHost};
use crate::shared::bind;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::prelude::*;
use page::limits::query::experiment_href;
use page::limits::settings::{self, LabSettings};
use page::limits::view::{
    experiment_slot, experiment_title, Picker, LIMITS, LIMITS_TITLE, PICK_AN_EXPERIMENT,
};
use page::query::links::href;
use page::{Section, View};
use sim::lab::ExperimentName;
use sim::Scenario;

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
        crate::shared::page_query::replace(&link);
    };
    let changed = Callback::new(move |()| sync());
    let pick = move |e: ExperimentName| {
        chosen.set(Some(e));
        sync();
    };
    // The opening paragraph and the experiment buttons are the page layer's live
    // widget, which presses the one on screen; one handler reads which was clicked.
    let picker = live::view(
        Picker {
            seed,
            headers_href: headers_link,
        },
        move || chosen.get(),
    );
    let on_pick = move |ev: web_sys::MouseEvent| {
        let picked = ExperimentName::ALL
            .into_iter()
            .find(|e| bind::hit(&ev, experiment_slot(*e)).is_some());
        if let Some(e) = picked {
            pick(e);
        }
    };
    view! {
        // The section's state is on its own element, around the experiment's Leptos
        // view, which a live widget's box cannot hold: two attributes bound here.
        <section class="rll-see" data-testid="limits" data-slot={LIMITS.name()}
            data-state=move || if chosen.get().is_some() { "done" } else { "idle" }
            data-experiment=move || chosen.get().map_or("", |e| e.as_str())
            on:click=handler(on_pick)>
            <h2>{LIMITS_TITLE}</h2>
            {picker}
            {move || match chosen.get() {
                None => view! { <p class="rll-caption">{PICK_AN_EXPERIMENT}</p> }.into_any(),
                // The fleet, drawn by its own module, then the race its store can lose, stepped.
                Some(ExperimentName::Fleet) => view! {
                    <h3>{experiment_title(ExperimentName::Fleet)}</h3>
                    <FleetView seed settings=lab_settings changed/>
                    <RaceHost/>
                }.into_any(),
                Some(e) => {
                    // Every run is new: comparing results would only cost bytes.
                    let result = Memo::new_with_compare(
                        move |_| lab_settings.with(|l| settings::run_on_page(e, seed, l)),
                        |_, _| true,
                    );
                    view! { <h3>{experiment_title(e)}</h3><ExperimentView experiment=e result settings=lab_settings changed/> }.into_any()
                }
            }}
        </section>
    }
}

//! Publishing yours: run an experiment.

use super::experiment_view::ExperimentView;
use super::fleet_view::{FleetView, RaceHost};
use crate::shared::bind;
use crate::shared::dom::set_attr;
use crate::shared::erase::handler;
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::query::experiment_href;
use page::limits::settings::{self, LabSettings};
use page::limits::view::{
    experiment_slot, experiment_title, experiments_markup, limits_intro_markup, EXPERIMENTS_LABEL,
    LIMITS, LIMITS_TITLE, PICK_AN_EXPERIMENT,
};
use page::query::links::href;
use page::{Section, View};
use sim::lab::ExperimentName;
use sim::Scenario;

/// The limits section. The experiment `chosen` when it mounts runs as the page loads,
/// and reruns whenever one of its knobs moves.
#[component]
pub fn LimitsSection(
    /// The page's root, under which the section is found by its slot.
    root: bind::Root,
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
    // The section's state, found under the page's root by its slot; the buttons are the
    // page layer's markup: one effect per button presses the one on screen, and one
    // handler reads which was clicked.
    bind::node(root, LIMITS, move |section| {
        let on = chosen.get();
        set_attr(
            section,
            "data-state",
            if on.is_some() { "done" } else { "idle" },
        );
        set_attr(section, "data-experiment", on.map_or("", |e| e.as_str()));
    });
    let picker = NodeRef::<Div>::new();
    for e in ExperimentName::ALL {
        bind::node(picker, experiment_slot(e), move |el| {
            let pressed = chosen.get() == Some(e);
            set_attr(el, "aria-pressed", if pressed { "true" } else { "false" });
        });
    }
    let on_pick = move |ev: web_sys::MouseEvent| {
        let picked = ExperimentName::ALL
            .into_iter()
            .find(|e| bind::hit(&ev, experiment_slot(*e)).is_some());
        if let Some(e) = picked {
            pick(e);
        }
    };
    view! {
        <section class="rll-see" data-testid="limits" data-state="idle" data-experiment="" data-slot={LIMITS.name()}>
            <h2>{LIMITS_TITLE}</h2>
            <p inner_html=limits_intro_markup(seed, &headers_link).into_string()></p>
            <div class="rll-picker rll-experiments" role="group" aria-label=EXPERIMENTS_LABEL node_ref=picker
                inner_html=experiments_markup().into_string() on:click=handler(on_pick)></div>
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

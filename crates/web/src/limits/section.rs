//! Publishing yours: run an experiment.

use super::experiment_view::ExperimentView;
use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::settings::{self, LabSettings};
use page::limits::view::{
    experiment_title, experiments_markup, limits_intro_markup, PICK_AN_EXPERIMENT,
};
use page::shared::links::{experiment_href, href};
use page::{Section, View};
use sim::lab::ExperimentName;
use sim::Scenario;
use wasm_bindgen::JsCast;

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
    // The buttons are the page layer's markup; one effect presses the one on screen and
    // writes the section's state, and one handler reads which was clicked.
    let picker = NodeRef::<Div>::new();
    watch(move || {
        let on = chosen.get();
        let Some(picker) = picker.get() else { return };
        if let Some(section) = picker.parent_element() {
            let _ = section.set_attribute("data-state", if on.is_some() { "done" } else { "idle" });
            let _ = section.set_attribute("data-experiment", on.map_or("", |e| e.as_str()));
        }
        if let Ok(buttons) = picker.query_selector_all("[data-experiment]") {
            for b in (0..buttons.length()).filter_map(|i| buttons.item(i)) {
                if let Ok(b) = b.dyn_into::<web_sys::Element>() {
                    let pressed =
                        b.get_attribute("data-experiment").as_deref() == on.map(|e| e.as_str());
                    let _ = b.set_attribute("aria-pressed", if pressed { "true" } else { "false" });
                }
            }
        }
    });
    let on_pick = move |ev: web_sys::MouseEvent| {
        let picked = target_as::<web_sys::Element>(&ev)
            .and_then(|e| e.closest("[data-experiment]").ok().flatten())
            .and_then(|b| b.get_attribute("data-experiment"))
            .and_then(|name| ExperimentName::ALL.into_iter().find(|e| e.as_str() == name));
        if let Some(e) = picked {
            pick(e);
        }
    };
    view! {
        <section class="rll-see" data-testid="limits" data-state="idle" data-experiment="">
            <h2>"Publishing your limit"</h2>
            <p inner_html=limits_intro_markup(seed, &headers_link)></p>
            <div class="rll-picker rll-experiments" role="group" aria-label="Experiments" node_ref=picker
                inner_html=experiments_markup() on:click=handler(on_pick)></div>
            {move || match chosen.get() {
                None => view! { <p class="rll-caption">{PICK_AN_EXPERIMENT}</p> }.into_any(),
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

//! The compare page's controls: the seed, and every number of the run page's "Change the
//! numbers" panel (the page layer's one table of parameters, with the same ranges and
//! refusals). Each keystroke reads the whole form; when everything can be used, every
//! strategy's run is made again.

use crate::run::params_form::ParamsForm;
use crate::shared::bind;
use crate::shared::dom::value_of;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::prelude::*;
use page::compare::explore::{compare_params_caption, read_form, CompareSeed, COMPARE_SEED};
use page::shared::params::PARAMS;
use page::Query;
use sim::Scenario;

/// The seed field and the parameter fields.
#[component]
pub fn CompareControls(
    /// The seed and numbers the fields start with.
    start: Scenario,
    /// What is on screen: it marks the numbers that differ from the article's.
    shown: RwSignal<Query<()>>,
    /// Called with each usable scenario the fields make.
    on_change: Callback<Scenario>,
) -> impl IntoView {
    let seed_text = RwSignal::new(start.seed.to_string());
    let texts: Vec<RwSignal<String>> = PARAMS
        .iter()
        .map(|p| RwSignal::new(p.read(&start)))
        .collect();
    let errors: Vec<RwSignal<Option<String>>> =
        PARAMS.iter().map(|_| RwSignal::new(None)).collect();
    let seed_error = RwSignal::new(None::<String>);
    let problems = RwSignal::new(Vec::<String>::new());
    let (texts_c, errors_c) = (texts.clone(), errors.clone());
    let recheck = move || {
        let all: Vec<String> = texts_c.iter().map(|t| t.get_untracked()).collect();
        let read = read_form(&seed_text.get_untracked(), &all);
        for (e, msg) in errors_c.iter().zip(read.field_errors) {
            e.set(msg);
        }
        seed_error.set(read.seed_error);
        problems.set(read.problems);
        if let Some(s) = read.scenario {
            on_change.run(s);
        }
    };
    let recheck_seed = recheck.clone();
    let on_edit = Callback::new(move |()| recheck());
    // The seed field is the page layer's live widget: its `aria-invalid` and help line
    // follow whether the seed typed can be used; the input handler reads what was typed.
    let on_input = move |ev: web_sys::Event| {
        if let Some(text) = bind::hit(&ev, COMPARE_SEED).and_then(|e| value_of(&e)) {
            seed_text.set(text);
            recheck_seed();
        }
    };
    view! {
        <div style="display:contents" on:input=handler(on_input)>
            {live::view(CompareSeed { seed: start.seed }, move || seed_error.get())}
        </div>
        <ParamsForm
            texts
            errors
            problems=problems.into()
            scenario=Signal::derive(move || shown.with(|q| q.base.scenario.clone()))
            caption=compare_params_caption()
            workload=page::shared::budget::Workload::Compare
            on_edit
        />
    }
}

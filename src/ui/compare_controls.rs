//! The compare page's controls: the seed, and every number of the run page's "Change the
//! numbers" panel (the page layer's one table of parameters, with the same ranges and
//! refusals). Each keystroke reads the whole form; when everything can be used, every
//! strategy's run is made again.

use super::params_form::ParamsForm;
use crate::page::explore::{compare_params_caption, compare_seed_help, read_form};
use crate::page::params::PARAMS;
use crate::page::PageQuery;
use crate::sim::Scenario;
use leptos::prelude::*;

/// The seed field and the parameter fields.
#[component]
pub fn CompareControls(
    /// The seed and numbers the fields start with.
    start: Scenario,
    /// What is on screen: it marks the numbers that differ from the article's.
    shown: RwSignal<PageQuery>,
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
    view! {
        <div class="rll-controls rll-compare-controls">
            <div class="rll-field">
                <label class="rll-field-label" for="rll-compare-seed">"Seed"</label>
                <input
                    id="rll-compare-seed"
                    type="text"
                    inputmode="numeric"
                    autocomplete="off"
                    data-testid="compare-seed"
                    aria-describedby="rll-compare-seed-help"
                    aria-invalid=move || seed_error.get().is_some().to_string()
                    prop:value=move || seed_text.get()
                    on:input:target=move |ev| {
                        seed_text.set(ev.target().value());
                        recheck_seed();
                    }
                />
                <span id="rll-compare-seed-help" class="rll-field-help" class:rll-error=move || seed_error.get().is_some()>
                    {move || seed_error.get().unwrap_or_else(compare_seed_help)}
                </span>
            </div>
        </div>
        <ParamsForm
            texts
            errors
            problems=problems.into()
            scenario=Signal::derive(move || shown.with(|q| q.scenario.clone()))
            caption=compare_params_caption()
            on_edit
        />
    }
}

//! The compare page's controls: the seed, and every number of the run page's "Change the
//! numbers" panel (the page layer's one table of parameters, with the same ranges and
//! refusals). Each keystroke reads the whole form; when everything can be used, every
//! strategy's run is made again.

use crate::run::params_form::ParamsForm;
use crate::shared::dom::{target_as, value_of};
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::explore::{
    compare_params_caption, compare_seed_help, compare_seed_markup, read_form,
};
use page::shared::params::PARAMS;
use page::PageQuery;
use sim::Scenario;

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
    // The seed field is the page layer's markup; one effect writes whether its seed can
    // be used, and the input handler reads what was typed.
    let root = NodeRef::<Div>::new();
    watch(move || {
        let error = seed_error.get();
        let Some(root) = root.get() else { return };
        if let Ok(Some(input)) = root.query_selector("input") {
            let _ = input.set_attribute(
                "aria-invalid",
                if error.is_some() { "true" } else { "false" },
            );
        }
        if let Ok(Some(help)) = root.query_selector("[data-help]") {
            let _ = help
                .class_list()
                .toggle_with_force("rll-error", error.is_some());
            help.set_text_content(Some(&error.unwrap_or_else(compare_seed_help)));
        }
    });
    let on_input = move |ev: web_sys::Event| {
        if let Some(text) = target_as::<web_sys::Element>(&ev).and_then(|e| value_of(&e)) {
            seed_text.set(text);
            recheck_seed();
        }
    };
    view! {
        <div class="rll-controls rll-compare-controls" node_ref=root inner_html=compare_seed_markup(start.seed)
            on:input=handler(on_input)></div>
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

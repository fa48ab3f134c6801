//! "Change the numbers": a field for every parameter of the provider and the client, with
//! its range, an inline message for anything that cannot be used, and a reset to the
//! article's values. The run page and the compare page each hold the texts and decide
//! what an edit does; the form is the same.
//!
//! The form is the page layer's markup, set once; one effect writes what an edit changes
//! and one input handler reads the field by its `data-param` (README, "Sizes").

use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use crate::shared::later::painted;
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::markup::items_markup;
use page::shared::params::PARAMS;
use page::shared::params_form::{
    changed_count, changed_text, field_help, form_markup, RESET_TESTID,
};
use sim::Scenario;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

/// The panel, folded away unless the numbers already differ from the article's.
#[component]
pub fn ParamsForm(
    /// One text per entry of `PARAMS`.
    texts: Vec<RwSignal<String>>,
    /// Why each text cannot be used, if it cannot.
    errors: Vec<RwSignal<Option<String>>>,
    /// Why the texts cannot be used together, if they cannot.
    problems: Signal<Vec<String>>,
    /// The numbers in use, to mark the ones that differ from the article's.
    scenario: Signal<Scenario>,
    /// What the caption says an edit does.
    #[prop(into)]
    caption: String,
    /// Called after every edit (and after a reset).
    on_edit: Callback<()>,
    /// Folded, fill the fields in after the first paint (the run page, where the form lies
    /// above the stage: its markup is in the first frame, so nothing below it moves, but
    /// the 70-odd lookups that fill it are not). The compare page fills them at once: its
    /// first card comes a few frames later, and the fill would land before it.
    #[prop(optional)]
    fill_after_paint: bool,
) -> impl IntoView {
    let root = NodeRef::<Div>::new();
    let open = scenario.with_untracked(|d| changed_count(d) > 0);
    let find = move |selector: &str| root.get()?.query_selector(selector).ok()?;
    let (texts_w, errors_w) = (texts.clone(), errors.clone());
    let filled = painted(open || !fill_after_paint);
    // Every field's value (left alone while it already matches, so the caret stays), its
    // message and its changed mark; the summary's count and the problems.
    watch(move || {
        if !filled.get() {
            return;
        }
        for (i, p) in PARAMS.iter().enumerate() {
            let (text, error) = (texts_w[i].get(), errors_w[i].get());
            if let Some(input) = find(&format!("[data-param={}]", p.key))
                .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
            {
                if input.value() != text {
                    input.set_value(&text);
                }
                let invalid = if error.is_some() { "true" } else { "false" };
                let _ = input.set_attribute("aria-invalid", invalid);
            }
            if let Some(help) = find(&format!("[data-param-help={}]", p.key)) {
                help.set_text_content(Some(&field_help(p, error.as_deref())));
                let _ = help
                    .class_list()
                    .toggle_with_force("rll-error", error.is_some());
            }
            if let Some(field) = find(&format!("[data-param-field={}]", p.key)) {
                let changed = scenario.with(|d| !p.is_default(d));
                let _ = field
                    .class_list()
                    .toggle_with_force("rll-param-changed", changed);
            }
        }
        if let Some(tail) = find("[data-params-changed]") {
            tail.set_text_content(Some(&changed_text(scenario.with(changed_count))));
        }
        if let Some(list) = find("[data-params-problems]") {
            let problems = problems.get();
            list.set_inner_html(&items_markup(&problems).into_string());
            let _ = list.toggle_attribute_with_force("hidden", problems.is_empty());
        }
    });
    let texts_i = texts.clone();
    let on_input = move |ev: web_sys::Event| {
        let Some(input) = target_as::<HtmlInputElement>(&ev) else {
            return;
        };
        let key = input.get_attribute("data-param").unwrap_or_default();
        if let Some(i) = PARAMS.iter().position(|p| p.key == key) {
            texts_i[i].set(input.value());
            on_edit.run(());
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let reset = target_as::<Element>(&ev)
            .is_some_and(|e| e.get_attribute("data-testid").as_deref() == Some(RESET_TESTID));
        if reset {
            let d = Scenario::default();
            for (p, t) in PARAMS.iter().zip(&texts) {
                t.set(p.read(&d));
            }
            on_edit.run(());
        }
    };
    view! {
        <div node_ref=root inner_html=form_markup(open, &caption).into_string() on:input=handler(on_input) on:click=handler(on_click)></div>
    }
}

//! "Change the numbers": a field for every parameter of the provider and the client, with
//! its range, an inline message for anything that cannot be used, and a reset to the
//! article's values. The run page and the compare page each hold the texts and decide
//! what an edit does; the form is the same.
//!
//! The form is the page layer's markup, set once; one effect writes every field (its
//! value, message and changed mark), one the summary's count and one the problems, each
//! finding its nodes by their slots, and one input handler reads the field by its
//! parameter's key (docs/architecture.md, "Drawing").

use crate::shared::bind;
use crate::shared::dom::{set_attr, set_class, set_flag, set_text, set_value, value_of};
use crate::shared::erase::handler;
use crate::shared::later::painted;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::params_form::{
    changed_count, changed_text, field_help, form_markup, CHANGED, FIELD, FIELD_KEY, HELP, INPUT,
    INPUT_KEY, PROBLEMS, RESET,
};
use page::shared::budget::Workload;
use page::shared::markup::items_markup;
use page::shared::params::PARAMS;
use sim::Scenario;

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
    /// What the page runs: the customers field states the page's own range.
    workload: Workload,
) -> impl IntoView {
    let root = NodeRef::<Div>::new();
    let open = scenario.with_untracked(|d| changed_count(d) > 0);
    let (texts_w, errors_w) = (texts.clone(), errors.clone());
    let filled = painted(open || !fill_after_paint);
    // Each field: its value (left alone while it already matches, so the caret stays),
    // its message and its changed mark.
    bind::each(root, FIELD, move |field| {
        if !filled.get() {
            return;
        }
        let key = field.get_attribute(FIELD_KEY).unwrap_or_default();
        let Some(i) = PARAMS.iter().position(|p| p.key == key) else {
            return;
        };
        let (p, error) = (&PARAMS[i], errors_w[i].get());
        if let Some(input) = bind::find(field, INPUT) {
            set_value(&input, &texts_w[i].get());
            let invalid = if error.is_some() { "true" } else { "false" };
            set_attr(&input, "aria-invalid", invalid);
        }
        if let Some(help) = bind::find(field, HELP) {
            set_text(&help, Some(&field_help(p, error.as_deref(), workload)));
            set_class(&help, "rll-error", error.is_some());
        }
        let changed = scenario.with(|d| !p.is_default(d));
        set_class(field, "rll-param-changed", changed);
    });
    // The summary's count, and why the numbers cannot be used together.
    bind::node(root, CHANGED, move |el| {
        if filled.get() {
            set_text(el, Some(&changed_text(scenario.with(changed_count))));
        }
    });
    bind::node(root, PROBLEMS, move |el| {
        if filled.get() {
            problems.with(|p| {
                el.set_inner_html(&items_markup(p).into_string());
                set_flag(el, "hidden", p.is_empty());
            });
        }
    });
    let texts_i = texts.clone();
    let on_input = move |ev: web_sys::Event| {
        let Some(input) = bind::hit(&ev, INPUT) else {
            return;
        };
        let key = input.get_attribute(INPUT_KEY).unwrap_or_default();
        if let Some(i) = PARAMS.iter().position(|p| p.key == key) {
            texts_i[i].set(value_of(&input).unwrap_or_default());
            on_edit.run(());
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, RESET).is_some() {
            let d = Scenario::default();
            for (p, t) in PARAMS.iter().zip(&texts) {
                t.set(p.read(&d));
            }
            on_edit.run(());
        }
    };
    view! {
        <div node_ref=root inner_html=form_markup(open, &caption, workload).into_string() on:input=handler(on_input) on:click=handler(on_click)></div>
    }
}

//! "Change the numbers": a field for every parameter of the provider and the client, with
//! its range, an inline message for anything that cannot be used, and a reset to the
//! article's values. The run page and the compare page each hold the texts and decide
//! what an edit does; the form is the same.
//!
//! The form is the page layer's live widget (`page::run::params_form::ParamsForm`):
//! drawn once, then only what an edit changes is written (a field's value, message and
//! changed mark, the summary's count, the problems); one input handler reads the field
//! by its parameter's key (docs/architecture.md, "Drawing").

use crate::shared::bind;
use crate::shared::dom::value_of;
use crate::shared::erase::handler;
use crate::shared::later::painted;
use crate::shared::live;
use leptos::prelude::*;
use page::run::params_form::{
    changed_count, FieldState, FormState, ParamsForm as Form, INPUT, INPUT_KEY, RESET,
};
use page::shared::budget::Workload;
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
    /// the writes that fill it are not). The compare page fills them at once: its first
    /// card comes a few frames later, and the fill would land before it.
    #[prop(optional)]
    fill_after_paint: bool,
    /// What the page runs: the customers field states the page's own range.
    workload: Workload,
) -> impl IntoView {
    let open = scenario.with_untracked(|d| changed_count(d) > 0);
    let (texts_w, errors_w) = (texts.clone(), errors.clone());
    let filled = painted(open || !fill_after_paint);
    // Each field (its value, left alone while it already matches so the caret stays, its
    // message and its changed mark), the summary's count, and the problems; blank until
    // filled.
    let form = Form {
        open,
        caption,
        workload,
    };
    let view = live::view(form, move || {
        if !filled.get() {
            return FormState::default();
        }
        scenario.with(|d| FormState {
            fields: PARAMS
                .iter()
                .zip(texts_w.iter().zip(&errors_w))
                .map(|(p, (t, e))| FieldState {
                    text: t.get(),
                    error: e.get(),
                    changed: !p.is_default(d),
                })
                .collect(),
            changed: changed_count(d),
            problems: problems.get(),
        })
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
        <div on:input=handler(on_input) on:click=handler(on_click)>{view}</div>
    }
}

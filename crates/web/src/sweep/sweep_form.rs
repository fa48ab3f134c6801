//! What the two sweep forms share in the browser: the form's state written back into
//! the page layer's markup (each field's value, the help line or why the form cannot
//! run, Cancel enabled only while a sweep runs), and the handler that hands each field's
//! text to the form by its `data-field`.

use crate::shared::dom::{field_of, set_value, value_of};
use crate::shared::erase::watch;
use leptos::html::Div;
use leptos::prelude::*;
use page::sweep::sweep_forms::Fields;
use page::sweep::sweep_progress::SweepState;

/// Keeps the form in `root` showing `form`'s fields, `problem` (or `help` while there is
/// none) and whether a sweep runs; returns the handler for its `input` and `change`
/// events.
pub fn bind_form<F: Fields + Send + Sync + 'static>(
    root: NodeRef<Div>,
    form: RwSignal<F>,
    problem: RwSignal<Option<String>>,
    state: RwSignal<SweepState>,
    help: fn() -> String,
) -> impl Fn(web_sys::Event) + Copy + 'static {
    let find = move |selector: &str| root.get()?.query_selector(selector).ok()?;
    watch(move || {
        form.with(|f| {
            for field in F::FIELDS {
                if let (Some(el), Some(value)) =
                    (find(&format!("[data-field={field}]")), f.get(field))
                {
                    set_value(&el, value);
                }
            }
        });
    });
    watch(move || {
        let (problem, running) = (problem.get(), state.get() == SweepState::Running);
        if let Some(line) = find("[data-help]") {
            line.set_text_content(Some(&problem.clone().unwrap_or_else(help)));
            let _ = line
                .class_list()
                .toggle_with_force("rll-error", problem.is_some());
        }
        if let Some(cancel) = find("[data-action=cancel]") {
            let _ = cancel.toggle_attribute_with_force("disabled", !running);
        }
    });
    move |ev: web_sys::Event| {
        if let Some((el, field)) = field_of(&ev, "data-field") {
            let text = value_of(&el).unwrap_or_default();
            form.update(|f| f.set(&field, text));
        }
    }
}

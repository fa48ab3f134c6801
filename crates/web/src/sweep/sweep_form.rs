//! What the two sweep forms share in the browser: the form's state written back into
//! the page layer's markup (each field's value, the help line or why the form cannot
//! run, Cancel enabled only while a sweep runs), and the handler that hands each field's
//! text to the form by the field whose slot it is.

use crate::shared::bind::{self, Root};
use crate::shared::dom::{set_class, set_flag, set_text, set_value, value_of};
use leptos::prelude::*;
use page::sweep::sweep_forms::{Fields, CANCEL, HELP};
use page::sweep::sweep_progress::SweepState;

/// Keeps the form under `root` showing `form`'s fields, `problem` (or `help` while there
/// is none) and whether a sweep runs; returns the handler for its `input` and `change`
/// events.
pub fn bind_form<F: Fields + Send + Sync + 'static>(
    root: Root,
    form: RwSignal<F>,
    problem: RwSignal<Option<String>>,
    state: RwSignal<SweepState>,
    help: fn() -> String,
) -> impl Fn(web_sys::Event) + Copy + 'static {
    for &field in F::FIELDS {
        bind::node(root, field.slot(), move |el| {
            form.with(|f| {
                if let Some(value) = f.get(field) {
                    set_value(el, value);
                }
            });
        });
    }
    bind::node(root, HELP, move |el| {
        problem.with(|p| {
            set_text(el, Some(&p.clone().unwrap_or_else(help)));
            set_class(el, "rll-error", p.is_some());
        });
    });
    bind::node(root, CANCEL, move |el| {
        set_flag(el, "disabled", state.get() != SweepState::Running);
    });
    move |ev: web_sys::Event| {
        let edited = F::FIELDS
            .iter()
            .find_map(|&f| bind::hit(&ev, f.slot()).map(|el| (f, el)));
        if let Some((field, el)) = edited {
            let text = value_of(&el).unwrap_or_default();
            form.update(|f| f.set(field, text));
        }
    }
}

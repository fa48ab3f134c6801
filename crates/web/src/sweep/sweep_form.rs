//! What the two sweep forms share in the browser: the handler that hands each field's
//! text to the form by the field whose slot it is. What the form shows (each field's
//! value, the help line or why the form cannot run, Cancel enabled only while a sweep
//! runs) is drawn with its view (`page::sweep::views`).

use crate::shared::bind;
use crate::shared::dom::value_of;
use leptos::prelude::*;
use page::sweep::sweep_forms::Fields;

/// The handler for the `input` and `change` events of `form`'s fields.
pub fn on_field<F: Fields + Send + Sync + 'static>(
    form: RwSignal<F>,
) -> impl Fn(web_sys::Event) + Copy + 'static {
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

//! The run page's "Change the numbers": the shared form over the run state's texts.
//! Changes apply to the next run (the knobs rerun at once).

use crate::run::params_form::ParamsForm;
use crate::run::run_state::RunState;
use leptos::prelude::*;
use page::run::stage::PARAMS_CAPTION;

/// The panel, folded away unless the run already uses other numbers.
#[component]
pub fn ParamsPanel(
    /// The run view whose numbers are edited.
    state: RunState,
) -> impl IntoView {
    let (texts, errors) = state.form_fields();
    view! {
        <ParamsForm
            texts
            errors
            problems=state.combined().into()
            scenario=state.draft().into()
            caption=PARAMS_CAPTION
            workload=state.room().workload
            on_edit=Callback::new(move |()| state.recheck())
            fill_after_paint=true
        />
    }
}

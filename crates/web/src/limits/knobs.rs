//! The controls of one limits experiment: a slider for each number and a row of buttons
//! for each choice. They are the page layer's live widget (`page::limits::view::Knobs`),
//! which writes each knob's value as the settings move (from a control, or from a drag
//! on a chart); here their events move the settings. A slider cannot leave its range.

use crate::shared::bind;
use crate::shared::dom::target_as;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::prelude::*;
use page::limits::settings::{knobs_of, Knob, LabSettings};
use page::limits::view::{knob_slot, Knobs, CHOICE, CHOICE_KEY};
use sim::lab::ExperimentName;

/// The knobs of `experiment`, moving `settings`; `changed` is called when a move ends.
#[component]
pub fn LabKnobs(
    /// Whose knobs.
    experiment: ExperimentName,
    /// Every knob's value.
    settings: RwSignal<LabSettings>,
    /// Called after a knob moved (to keep the address in step).
    changed: Callback<()>,
) -> impl IntoView {
    // The knob whose control an event happened in.
    let knob_of = move |ev: &web_sys::Event| {
        knobs_of(experiment).find(|k| bind::hit(ev, knob_slot(k.id)).is_some())
    };
    // Moves knob `k` to slider position `pos`.
    let set = move |k: &Knob, pos: u64| settings.update(|s| *s = s.with_position(k.id, pos));
    view! {
        <div class="rll-controls rll-knobs" data-testid="knobs"
            on:input=handler(move |ev: web_sys::Event| {
                let Some(input) = target_as::<web_sys::HtmlInputElement>(&ev) else {
                    return;
                };
                if let (Some(k), Ok(pos)) = (knob_of(&ev), input.value().parse::<u64>()) {
                    set(k, pos);
                }
            })
            // The address follows when a slider is let go, not on every step (browsers
            // refuse a flood of replaceState).
            on:change=handler(move |_| changed.run(()))
            on:click=handler(move |ev: web_sys::MouseEvent| {
                let value = bind::hit(&ev, CHOICE).and_then(|b| b.get_attribute(CHOICE_KEY));
                if let (Some(k), Some(value)) = (knob_of(&ev), value) {
                    if let Ok(pos) = k.parse(&value) {
                        set(k, pos);
                        changed.run(());
                    }
                }
            })>
            {live::view(Knobs { experiment }, move || settings.get())}
        </div>
    }
}

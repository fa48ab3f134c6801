//! The controls of one limits experiment: a slider for each number and a row of buttons
//! for each choice. The page layer writes them once ([`knobs_html`]) with every range,
//! stop and word; here their events move the settings, and whenever the settings move
//! (from a control, or from a drag on a chart) every control shows its value again, one
//! effect per knob, each finding its control by the slot the markup named it with.
//! A slider cannot leave its range.

use crate::shared::bind;
use crate::shared::dom::{set_attr, set_text, set_value, target_as};
use crate::shared::erase::handler;
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::settings::{knobs_of, Knob, LabSettings, Range};
use page::limits::view::{knob_slot, knobs_html, CHOICE, CHOICE_KEY, KNOB_VALUE, SLIDER};
use sim::lab::ExperimentName;

/// Shows knob `k` at its value `v` in its control `el`: the slider's position and words,
/// or which of its buttons is pressed.
fn show(el: &web_sys::Element, k: &Knob, v: u64) {
    if let Range::Choice(_) = k.range {
        for (i, b) in bind::find_all(el, CHOICE).iter().enumerate() {
            set_attr(
                b,
                "aria-pressed",
                if i as u64 == v { "true" } else { "false" },
            );
        }
        return;
    }
    let shown = k.shown(v);
    if let Some(out) = bind::find(el, KNOB_VALUE) {
        set_text(&out, Some(&shown));
    }
    if let Some(input) = bind::find(el, SLIDER) {
        set_value(&input, &k.position(v).to_string());
        set_attr(&input, "aria-valuetext", &shown);
    }
}

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
    let root = NodeRef::<Div>::new();
    for k in knobs_of(experiment) {
        bind::node(root, knob_slot(k.id), move |el| {
            show(el, k, settings.with(|s| s.get(k.id)));
        });
    }
    // The knob whose control an event happened in.
    let knob_of = move |ev: &web_sys::Event| {
        knobs_of(experiment).find(|k| bind::hit(ev, knob_slot(k.id)).is_some())
    };
    // Moves knob `k` to slider position `pos`.
    let set = move |k: &Knob, pos: u64| settings.update(|s| *s = s.with_position(k.id, pos));
    let markup = settings
        .with_untracked(|s| knobs_html(experiment, s))
        .into_string();
    view! {
        <div class="rll-controls rll-knobs" data-testid="knobs" node_ref=root inner_html=markup
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
        </div>
    }
}

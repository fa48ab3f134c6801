//! The controls of one limits experiment: a slider for each number and a row of buttons
//! for each choice. The page layer writes them once ([`knobs_html`]) with every range,
//! stop and word; here their events move the settings, and whenever the settings move
//! (from a control, or from a drag on a chart) every control shows its value again.
//! A slider cannot leave its range.

use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::settings::{knob, knobs_of, LabSettings, Range};
use page::limits::view::knobs_html;
use sim::lab::ExperimentName;
use wasm_bindgen::JsCast;

/// Shows every knob of `experiment` at its value in `s`, under `root`.
fn show(root: &web_sys::Element, experiment: ExperimentName, s: &LabSettings) {
    for k in knobs_of(experiment) {
        let v = s.get(k.id);
        let find = |sel: String| root.query_selector(&sel).ok().flatten();
        if let Some(out) = find(format!("[data-knob-value=\"{}\"]", k.key)) {
            out.set_text_content(Some(&k.shown(v)));
        }
        if let Some(input) = find(format!("input[data-knob=\"{}\"]", k.key))
            .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            input.set_value(&k.position(v).to_string());
            let _ = input.set_attribute("aria-valuetext", &k.shown(v));
        }
        if let Range::Choice(names) = k.range {
            for (i, name) in names.iter().enumerate() {
                if let Some(b) = find(format!("[data-knob=\"{}\"] [data-value=\"{name}\"]", k.key))
                {
                    let _ = b.set_attribute(
                        "aria-pressed",
                        if i as u64 == v { "true" } else { "false" },
                    );
                }
            }
        }
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
    watch(move || {
        let s = settings.get();
        if let Some(root) = root.get() {
            show(&root, experiment, &s);
        }
    });
    // Moves the knob `key` to slider position `pos`.
    let set = move |key: &str, pos: u64| {
        if let Some(k) = knob(key) {
            settings.update(|s| *s = s.with_position(k.id, pos));
        }
    };
    let markup = settings.with_untracked(|s| knobs_html(experiment, s));
    view! {
        <div class="rll-controls rll-knobs" data-testid="knobs" node_ref=root inner_html=markup
            on:input=handler(move |ev| {
                let Some(input) = target_as::<web_sys::HtmlInputElement>(&ev) else {
                    return;
                };
                if let (Some(key), Ok(pos)) = (input.get_attribute("data-knob"), input.value().parse::<u64>()) {
                    set(&key, pos);
                }
            })
            // The address follows when a slider is let go, not on every step (browsers
            // refuse a flood of replaceState).
            on:change=handler(move |_| changed.run(()))
            on:click=handler(move |ev: web_sys::MouseEvent| {
                let Some(button) = target_as::<web_sys::Element>(&ev).and_then(|e| e.closest("button[data-value]").ok().flatten()) else {
                    return;
                };
                let key = button.closest("[data-knob]").ok().flatten().and_then(|g| g.get_attribute("data-knob"));
                let value = button.get_attribute("data-value");
                if let (Some(key), Some(value)) = (key, value) {
                    if let Some(pos) = knob(&key).and_then(|k| k.parse(&value).ok()) {
                        set(&key, pos);
                        changed.run(());
                    }
                }
            })>
        </div>
    }
}

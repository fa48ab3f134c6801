//! The controls of one limits experiment: a slider for each number and a row of buttons
//! for each choice. Every knob's range, stops and words come from
//! [`crate::page::lab::settings`]; a slider cannot leave its range.

use crate::page::lab::settings::{knobs_of, Knob, LabSettings, Range};
use crate::sim::lab::ExperimentName;
use leptos::prelude::*;

/// The knobs of `experiment`, moving `settings`; `changed` is called after each move.
#[component]
pub fn LabKnobs(
    /// Whose knobs.
    experiment: ExperimentName,
    /// Every knob's value.
    settings: RwSignal<LabSettings>,
    /// Called after a knob moved (to keep the address in step).
    changed: Callback<()>,
) -> impl IntoView {
    let knob_view = move |k: &'static Knob| {
        let id = format!("rll-knob-{}", k.key);
        let value = move || settings.with(|s| s.get(k.id));
        let set = move |pos: u64| {
            settings.update(|s| *s = s.with_position(k.id, pos));
            changed.run(());
        };
        match k.range {
            Range::Choice(names) => view! {
                <div class="rll-field">
                    <span class="rll-field-label" id=id.clone()>{k.label}</span>
                    <div class="rll-segmented" role="group" aria-labelledby=id data-knob=k.key>
                        {names
                            .iter()
                            .enumerate()
                            .map(|(i, name)| {
                                let i = i as u64;
                                view! {
                                    <button type="button" data-value=*name
                                        aria-pressed=move || (value() == i).to_string()
                                        on:click=move |_| set(i)>{*name}</button>
                                }
                            })
                            .collect_view()}
                    </div>
                </div>
            }
            .into_any(),
            _ => {
                let (lo, hi) = k.slider();
                view! {
                    <div class="rll-field rll-knob">
                        <label class="rll-field-label" for=id.clone()>
                            {k.label} ": " <output data-knob-value=k.key>{move || k.shown(value())}</output>
                        </label>
                        <input id=id type="range" data-knob=k.key min=lo.to_string() max=hi.to_string() step="1"
                            aria-valuetext=move || k.shown(value())
                            prop:value=move || k.position(value()).to_string()
                            on:input:target=move |ev| {
                                if let Ok(pos) = ev.target().value().parse::<u64>() {
                                    set(pos);
                                }
                            }/>
                    </div>
                }
                .into_any()
            }
        }
    };
    view! {
        <div class="rll-controls rll-knobs" data-testid="knobs">
            {knobs_of(experiment).map(knob_view).collect_view()}
        </div>
    }
}

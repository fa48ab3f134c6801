//! The knobs beside the run: a slider for each parameter a reader reaches for. Moving
//! one reruns the strategy on the same seed at once (on release only, above
//! [`LIVE_MAX_CUSTOMERS`] customers), and the run before stays as a ghost.

use super::run_state::RunState;
use crate::page::format::count;
use crate::page::knobs::{KNOBS, LIVE_MAX_CUSTOMERS};
use crate::page::params::PARAMS;
use leptos::prelude::*;

/// The sliders, and a line saying what the ghost is.
#[component]
pub fn Knobs(
    /// The run view whose numbers the knobs turn.
    state: RunState,
) -> impl IntoView {
    let live = move || state.draft.with(|d| d.customers <= LIVE_MAX_CUSTOMERS);
    let knobs = KNOBS
        .iter()
        .map(|knob| {
            let i = PARAMS.iter().position(|p| p.key == knob.key).unwrap_or(0);
            let text = state.texts.with_value(|t| t[i]);
            let spec = knob.spec();
            let id = format!("rll-knob-{}", knob.key);
            view! {
                <div class="rll-knob">
                    <label for=id.clone()>
                        {spec.label} " "
                        <span class="rll-num" data-knob-value=knob.key>{move || text.get()}</span>
                        {(!spec.unit.is_empty()).then(|| format!(" {}", spec.unit))}
                    </label>
                    <input
                        id=id
                        type="range"
                        data-knob=knob.key
                        min=knob.min
                        max=knob.max
                        step=knob.step
                        prop:value=move || knob.position(&text.get()).to_string()
                        on:input:target=move |ev| {
                            if let Ok(v) = ev.target().value().parse() {
                                state.turn(knob, v, live());
                            }
                        }
                        on:change:target=move |ev| {
                            if let (false, Ok(v)) = (live(), ev.target().value().parse()) {
                                state.turn(knob, v, true);
                            }
                        }
                    />
                </div>
            }
        })
        .collect_view();
    let ghost_line = move || {
        state.ghost.with(|g| {
            g.as_ref().map(|g| {
                let changed: Vec<String> = PARAMS
                    .iter()
                    .filter(|p| state.draft.with(|d| p.read(d)) != p.read(&g.scenario))
                    .map(|p| format!("{} {}", p.label, p.read(&g.scenario)))
                    .collect();
                view! {
                    <p class="rll-ghost-line" data-testid="ghost">
                        "Faint: the run before, with "
                        <span data-testid="ghost-values">{changed.join(", ")}</span>
                        ". "
                        <button type="button" class="rll-link" data-testid="ghost-dismiss" on:click=move |_| state.dismiss_ghost()>"Forget it"</button>
                    </p>
                }
            })
        })
    };
    view! {
        <div class="rll-knobs" data-testid="knobs">
            <div class="rll-knobs-grid">{knobs}</div>
            <p class="rll-caption">
                {move || if live() {
                    "Each move reruns this strategy on the same seed.".to_string()
                } else {
                    format!("Above {} customers a knob reruns when you let go.", count(LIVE_MAX_CUSTOMERS.into()))
                }}
            </p>
            {ghost_line}
        </div>
    }
}

//! Change the numbers: every parameter of the provider and the client, with its range,
//! an inline message for anything that cannot be used, and a reset to the article's values.

use super::run_state::RunState;
use crate::page::params::{ParamGroup, PARAMS};
use crate::sim::Scenario;
use leptos::prelude::*;

/// The panel, folded away unless the run already uses other numbers.
#[component]
pub fn ParamsPanel(
    /// The run view whose numbers are edited.
    state: RunState,
) -> impl IntoView {
    let draft = state.draft;
    let start = draft.get_untracked();
    let texts = state.texts.get_value();
    let errors = state.errors.get_value();
    let combined = state.combined;
    let changed = move || draft.with(|d| PARAMS.iter().filter(|p| !p.is_default(d)).count());
    let open = PARAMS.iter().any(|p| !p.is_default(&start));
    let recheck = move || state.recheck();
    let texts_r = texts.clone();
    let reset = move |_| {
        let d = Scenario::default();
        for (p, t) in PARAMS.iter().zip(&texts_r) {
            t.set(p.read(&d));
        }
        state.recheck();
    };
    let group = move |g: ParamGroup, title: &'static str| {
        let fields = PARAMS
            .iter()
            .enumerate()
            .filter(|(_, p)| p.group() == g)
            .map(|(i, p)| {
                let (text, error) = (texts[i], errors[i]);
                let id = format!("rll-param-{}", p.key);
                let help = format!("{id}-help");
                let changed = move || draft.with(|d| !p.is_default(d));
                view! {
                    <div class="rll-param" class:rll-param-changed=changed>
                        <label for=id.clone()>{p.label}</label>
                        <div class="rll-param-input">
                            <input
                                id=id
                                type="text"
                                data-param=p.key
                                autocomplete="off"
                                spellcheck="false"
                                aria-describedby=help.clone()
                                aria-invalid=move || error.get().is_some().to_string()
                                prop:value=move || text.get()
                                on:input:target=move |ev| {
                                    text.set(ev.target().value());
                                    recheck();
                                }
                            />
                            <span class="rll-unit">{p.unit}</span>
                        </div>
                        <span id=help class="rll-field-help" class:rll-error=move || error.get().is_some() data-param-help=p.key>
                            {move || error.get().unwrap_or_else(|| format!("{} · default {}", p.range_text(), p.default_text()))}
                        </span>
                    </div>
                }
            })
            .collect_view();
        view! {
            <fieldset class="rll-params-group">
                <legend>{title}</legend>
                <div class="rll-params-grid">{fields}</div>
            </fieldset>
        }
    };
    view! {
        <details class="rll-details rll-params" open=open data-testid="params">
            <summary>
                "Change the numbers"
                {move || match changed() {
                    0 => " (the article's values)".to_string(),
                    n => format!(" ({n} changed)"),
                }}
            </summary>
            <p class="rll-caption">"Changes apply to the next run. Every value has a range; anything outside it is refused, never quietly adjusted."</p>
            {group(ParamGroup::Provider, "The provider")}
            {group(ParamGroup::Client, "The client")}
            {move || {
                let msgs = combined.get();
                (!msgs.is_empty()).then(|| view! { <ul class="rll-field-help rll-error" role="alert">{msgs.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul> })
            }}
            <button type="button" data-testid="params-reset" on:click=reset>"Reset to the article's values"</button>
        </details>
    }
}

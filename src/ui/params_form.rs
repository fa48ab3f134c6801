//! "Change the numbers": a field for every parameter of the provider and the client, with
//! its range, an inline message for anything that cannot be used, and a reset to the
//! article's values. The run page and the compare page each hold the texts and decide
//! what an edit does; the form is the same.

use super::later::Later;
use crate::page::params::{ParamGroup, PARAMS};
use crate::sim::Scenario;
use leptos::prelude::*;

/// The panel, folded away unless the numbers already differ from the article's.
#[component]
pub fn ParamsForm(
    /// One text per entry of `PARAMS`.
    texts: Vec<RwSignal<String>>,
    /// Why each text cannot be used, if it cannot.
    errors: Vec<RwSignal<Option<String>>>,
    /// Why the texts cannot be used together, if they cannot.
    problems: Signal<Vec<String>>,
    /// The numbers in use, to mark the ones that differ from the article's.
    scenario: Signal<Scenario>,
    /// What the caption says an edit does.
    #[prop(into)]
    caption: String,
    /// Called after every edit (and after a reset).
    on_edit: Callback<()>,
) -> impl IntoView {
    let changed = move || scenario.with(|d| PARAMS.iter().filter(|p| !p.is_default(d)).count());
    let open = scenario.with_untracked(|d| PARAMS.iter().any(|p| !p.is_default(d)));
    let texts_r = texts.clone();
    let reset = move |_| {
        let d = Scenario::default();
        for (p, t) in PARAMS.iter().zip(&texts_r) {
            t.set(p.read(&d));
        }
        on_edit.run(());
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
                view! {
                    <div class="rll-param" class:rll-param-changed=move || scenario.with(|d| !p.is_default(d))>
                        <label for=id.clone()>{p.label}</label>
                        <div class="rll-param-input">
                            <input
                                id=id
                                type="text"
                                data-param=p.key
                                autocomplete="off"
                                spellcheck="false"
                                title=p.help()
                                aria-describedby=help.clone()
                                aria-invalid=move || error.get().is_some().to_string()
                                prop:value=move || text.get()
                                on:input:target=move |ev| {
                                    text.set(ev.target().value());
                                    on_edit.run(());
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
            <p class="rll-caption">{caption}</p>
            // A field per parameter, folded away on most visits: built after the first paint, so
            // they do not hold back what the page opens on (README, "Time to ready"). Open
            // from the start, they are built at once, or the page below would move.
            <Later now=open>
            {group(ParamGroup::Provider, "The provider")}
            {group(ParamGroup::Client, "The client")}
            </Later>
            {move || {
                let msgs = problems.get();
                (!msgs.is_empty()).then(|| view! { <ul class="rll-field-help rll-error" role="alert">{msgs.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul> })
            }}
            <button type="button" data-testid="params-reset" on:click=reset>"Reset to the article's values"</button>
        </details>
    }
}

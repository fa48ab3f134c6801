//! The compare page's controls: the seed, and every number of the run page's "Change the
//! numbers" panel (the page layer's one table of parameters, with the same ranges and
//! refusals). Each keystroke reads the whole form; when everything can be used, the six
//! runs are made again.

use crate::page::explore::read_form;
use crate::page::params::{ParamGroup, PARAMS};
use crate::page::PageQuery;
use crate::sim::Scenario;
use leptos::prelude::*;

/// The seed field and the parameter fields.
#[component]
pub fn CompareControls(
    /// The seed and numbers the fields start with.
    start: Scenario,
    /// What is on screen: it marks the numbers that differ from the article's.
    shown: RwSignal<PageQuery>,
    /// Called with each usable scenario the fields make.
    on_change: Callback<Scenario>,
) -> impl IntoView {
    let seed_text = RwSignal::new(start.seed.to_string());
    let texts: Vec<RwSignal<String>> = PARAMS
        .iter()
        .map(|p| RwSignal::new(p.read(&start)))
        .collect();
    let errors: Vec<RwSignal<Option<String>>> =
        PARAMS.iter().map(|_| RwSignal::new(None)).collect();
    let seed_error = RwSignal::new(None::<String>);
    let problems = RwSignal::new(Vec::<String>::new());
    let (texts_c, errors_c) = (texts.clone(), errors.clone());
    let recheck = move || {
        let all: Vec<String> = texts_c.iter().map(|t| t.get_untracked()).collect();
        let read = read_form(&seed_text.get_untracked(), &all);
        for (e, msg) in errors_c.iter().zip(read.field_errors) {
            e.set(msg);
        }
        seed_error.set(read.seed_error);
        problems.set(read.problems);
        if let Some(s) = read.scenario {
            on_change.run(s);
        }
    };
    let changed =
        move || shown.with(|q| PARAMS.iter().filter(|p| !p.is_default(&q.scenario)).count());
    let open = PARAMS.iter().any(|p| !p.is_default(&start));
    let group = |g: ParamGroup, title: &'static str| {
        let fields = PARAMS
            .iter()
            .enumerate()
            .filter(|(_, p)| p.group() == g)
            .map(|(i, p)| {
                let (text, error, recheck) = (texts[i], errors[i], recheck.clone());
                let id = format!("rll-param-{}", p.key);
                let help = format!("{id}-help");
                view! {
                    <div class="rll-param" class:rll-param-changed=move || shown.with(|q| !p.is_default(&q.scenario))>
                        <label for=id.clone()>{p.label}</label>
                        <div class="rll-param-input">
                            <input
                                id=id
                                type="text"
                                data-param=p.key
                                autocomplete="off"
                                spellcheck="false"
                                title=p.help
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
    let recheck_seed = recheck.clone();
    let (texts_r, recheck_r) = (texts.clone(), recheck.clone());
    let reset = move |_| {
        let article = Scenario::default();
        for (p, t) in PARAMS.iter().zip(&texts_r) {
            t.set(p.read(&article));
        }
        recheck_r();
    };
    view! {
        <div class="rll-controls rll-compare-controls">
            <div class="rll-field">
                <label class="rll-field-label" for="rll-compare-seed">"Seed"</label>
                <input
                    id="rll-compare-seed"
                    type="text"
                    inputmode="numeric"
                    autocomplete="off"
                    data-testid="compare-seed"
                    aria-describedby="rll-compare-seed-help"
                    aria-invalid=move || seed_error.get().is_some().to_string()
                    prop:value=move || seed_text.get()
                    on:input:target=move |ev| {
                        seed_text.set(ev.target().value());
                        recheck_seed();
                    }
                />
                <span id="rll-compare-seed-help" class="rll-field-help" class:rll-error=move || seed_error.get().is_some()>
                    {move || seed_error.get().unwrap_or_else(|| "The same seed gives the same dice to all six.".to_string())}
                </span>
            </div>
        </div>
        <details class="rll-details rll-params" open=open data-testid="params">
            <summary>
                "Change the numbers"
                {move || match changed() {
                    0 => " (the article's values)".to_string(),
                    n => format!(" ({n} changed)"),
                }}
            </summary>
            <p class="rll-caption">"All six run again as you type. Every value has a range; anything outside it is refused, never quietly adjusted."</p>
            {group(ParamGroup::Provider, "The provider")}
            {group(ParamGroup::Client, "The client")}
            {move || {
                let msgs = problems.get();
                (!msgs.is_empty()).then(|| view! { <ul class="rll-field-help rll-error" role="alert">{msgs.into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul> })
            }}
            <button type="button" data-testid="params-reset" on:click=reset>"Reset to the article's values"</button>
        </details>
    }
}

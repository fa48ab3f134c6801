//! The code next to the run: the strategy's own source file from the core, with the
//! lines that differ from the previous strategy marked, the shared loop, and a one-line
//! equivalent in a library people know. The files are fetched from next to the page
//! (`source/strategy/`, copied there by the build) when the view first shows them, so
//! they are the core's own files and none of their text is in the page's `.wasm`.

use super::strategy_picker::label;
use crate::page::code::{
    backoff_text, changed_lines, equivalent, repo_path, served_path, without_tests,
    SHARED_LOOP_PATH,
};
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The lab's own folder, as the loader found it (a blog may serve it from a sub-path).
fn lab_base() -> String {
    web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"rateLimitLabBase".into()).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// The text of `path` under the lab's folder, or why not.
async fn fetch_text(path: String) -> Result<String, String> {
    let url = format!("{}{path}", lab_base());
    let failed = || format!("Could not load {url}.");
    let window = web_sys::window().ok_or_else(failed)?;
    let response = JsFuture::from(window.fetch_with_str(&url))
        .await
        .map_err(|_| failed())?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| failed())?;
    if !response.ok() {
        return Err(format!("{} (HTTP {})", failed(), response.status()));
    }
    let text = response.text().map_err(|_| failed())?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(failed)
}

/// A fetched file: its path, and its text or why there is none.
type Loaded = Option<(String, Result<String, String>)>;

/// Fetches `path` into `into`, unless by the time it arrives `wanted` is another file
/// (a reader who clicks through the strategies quickly sees the last one picked).
fn load(path: String, into: RwSignal<Loaded>, wanted: Signal<String>) {
    leptos::task::spawn_local(async move {
        let text = fetch_text(path.clone()).await;
        if wanted.get_untracked() == path {
            into.set(Some((path, text)));
        }
    });
}

/// The text `loaded` holds for `path`, if it has arrived.
fn text_for(loaded: RwSignal<Loaded>, path: &str) -> Option<Result<String, String>> {
    loaded.with(|l| {
        l.as_ref()
            .filter(|(p, _)| p == path)
            .map(|(_, t)| t.clone())
    })
}

/// A file's lines, with the changed ones marked; or a line saying it is on its way.
fn lines_view(text: Option<Result<String, String>>, marks: impl Fn(&str) -> Vec<bool>) -> AnyView {
    match text {
        None => {
            view! { <span class="rll-line rll-comment">"// loading the file…"</span> }.into_any()
        }
        Some(Err(why)) => {
            view! { <span class="rll-line rll-comment" role="alert">{format!("// {why}")}</span> }
                .into_any()
        }
        Some(Ok(source)) => {
            let marks = marks(&source);
            source
                .lines()
                .zip(marks)
                .map(|(line, changed)| {
                    let comment = line.trim_start().starts_with("//");
                    view! {
                        <span class="rll-line" class:rll-changed=changed class:rll-comment=comment data-changed=changed.to_string()>
                            {line.to_string()}
                            "\n"
                        </span>
                    }
                })
                .collect_view()
                .into_any()
        }
    }
}

/// The strategy's file, its change marked, and its equivalents.
#[component]
pub fn CodeView(
    /// The strategy whose file to show.
    strategy: Signal<StrategyName>,
    /// The numbers the equivalents are configured with.
    scenario: Signal<Scenario>,
) -> impl IntoView {
    let file = RwSignal::new(None);
    let shared = RwSignal::new(None);
    let wanted = Signal::derive(move || served_path(strategy.get()));
    // Each strategy's file is fetched when it is picked (the browser caches it after).
    Effect::new(move |_| load(wanted.get(), file, wanted));
    let backoff = move || scenario.with(|s| backoff_text(&s.client));
    view! {
        <div class="rll-code-view" data-testid="code-view">
            <p>
                "This is the code that produced the numbers above: "
                <code>{move || repo_path(strategy.get())}</code>
                {move || {
                    strategy
                        .get()
                        .previous()
                        .map(|p| view! { <span>", written as " {label(p)} " plus one change, marked "<mark class="rll-mark-inline">"like this"</mark>"."</span> })
                }}
            </p>
            <pre class="rll-source" tabindex="0" aria-label="Strategy source code">
                <code data-file=move || repo_path(strategy.get())>
                    {move || {
                        let s = strategy.get();
                        lines_view(text_for(file, &served_path(s)), |text| changed_lines(s, text))
                    }}
                </code>
            </pre>
            <div class="rll-equivalent">
                <p class="rll-caption">
                    "An equivalent configuration in a library you may know (not the code that ran):"
                </p>
                <ul>
                    {move || {
                        scenario.with(|s| equivalent(strategy.get(), &s.client))
                            .into_iter()
                            .map(|(lib, code)| view! { <li><span class="rll-lib">{lib}</span> <code>{code}</code></li> })
                            .collect_view()
                    }}
                </ul>
            </div>
            <details class="rll-details" on:toggle=move |_| {
                if shared.with_untracked(Option::is_none) {
                    load(SHARED_LOOP_PATH.to_string(), shared, Signal::stored(SHARED_LOOP_PATH.to_string()));
                }
            }>
                <summary>"The loop every strategy shares (src/sim/strategy/charge.rs): take a turn, send, back off " {backoff} " · 2^(k−1)"</summary>
                <pre class="rll-source" tabindex="0">
                    <code>
                        {move || {
                            let text = text_for(shared, SHARED_LOOP_PATH)
                                .map(|t| t.map(|t| without_tests(&t).to_string()));
                            lines_view(text, |t| vec![false; t.lines().count()])
                        }}
                    </code>
                </pre>
            </details>
        </div>
    }
}

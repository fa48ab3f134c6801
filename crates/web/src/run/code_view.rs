//! The code next to the run: the strategy's own source file from the core, with the
//! lines that differ from the previous strategy marked, the shared loop, and equivalent
//! configurations in libraries people know (Python, Go, Java, JavaScript, Rust). The files
//! are fetched from next to the page (`source/strategy/` and `source/equivalents.txt`,
//! copied there by the build) when the view first shows them, so none of their text is
//! in the page's `.wasm`.

use crate::shared::erase::{handler, watch};
use crate::shared::fetch::fetch_text;
use leptos::prelude::*;
use page::run::code::{
    file_markup, served_path, shared_loop_caption, view_markup, without_tests, SHARED_LOOP_PATH,
};
use page::run::equivalents::EQUIVALENTS_PATH;
use sim::{Scenario, StrategyName};

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

/// The strategy's file, its change marked, and its equivalents in other libraries.
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
    watch(move || load(wanted.get(), file, wanted));
    // The equivalents are one file for every strategy, fetched once.
    let equivalents = RwSignal::new(None);
    let path = EQUIVALENTS_PATH.to_string();
    load(path.clone(), equivalents, Signal::stored(path));
    let caption = move || scenario.with(|s| shared_loop_caption(&s.client).into_string());
    let head = move || {
        let s = strategy.get();
        let text = text_for(file, &served_path(s));
        let text = text.as_ref().map(|t| t.as_deref().map_err(String::as_str));
        let eq = text_for(equivalents, EQUIVALENTS_PATH);
        let eq = eq.as_ref().map(|t| t.as_deref().map_err(String::as_str));
        scenario.with(|sc| view_markup(s, &sc.client, text, eq).into_string())
    };
    let shared_lines = move || {
        let text = text_for(shared, SHARED_LOOP_PATH);
        let text = text
            .as_ref()
            .map(|t| t.as_deref().map(without_tests).map_err(String::as_str));
        file_markup(text, |_| Vec::new()).into_string()
    };
    // The head is markup written by the page layer: one node instead of a view per part
    // costs the run page's module far less (docs/architecture.md, "Drawing").
    view! {
        <div class="rll-code-view" data-testid="code-view">
            <div inner_html=head></div>
            <details class="rll-details" on:toggle=handler(move |_| {
                if shared.with_untracked(Option::is_none) {
                    load(SHARED_LOOP_PATH.to_string(), shared, Signal::stored(SHARED_LOOP_PATH.to_string()));
                }
            })>
                <summary inner_html=caption></summary>
                <pre class="rll-source" tabindex="0">
                    <code inner_html=shared_lines></code>
                </pre>
            </details>
        </div>
    }
}

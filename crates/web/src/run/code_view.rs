//! The code next to the run: the strategy's own source file from the core, with the
//! lines that differ from the previous strategy marked, the shared loop, and equivalent
//! configurations in libraries people know (Python, Go, Java, JavaScript, Rust). The files
//! are fetched from next to the page (`source/strategy/` and `source/equivalents.txt`,
//! copied there by the build) when the view first shows them, so none of their text is
//! in the page's `.wasm`.

use crate::shared::bind;
use crate::shared::erase::{handler, watch};
use crate::shared::fetch::fetch_text;
use crate::shared::live;
use leptos::prelude::*;
use page::run::code::{
    served_path, CodeState, CodeView as Code, Fetched, CAPTION, SHARED_LOOP_PATH,
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
fn text_for(loaded: RwSignal<Loaded>, path: &str) -> Fetched {
    loaded.with(|l| {
        l.as_ref()
            .filter(|(p, _)| p == path)
            .map(|(_, t)| t.clone())
    })
}

/// The strategy's file, its change marked, and its equivalents in other libraries.
///
/// The view is the page layer's live widget (`page::run::code::CodeView`): each part is
/// written only when it differs, so new numbers leave the file's lines (and a reader's
/// scroll in them) alone.
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
    let code = live::view(Code, move || {
        let s = strategy.get();
        CodeState {
            strategy: s,
            client: scenario.with(|sc| sc.client.clone()),
            file: text_for(file, &served_path(s)),
            equivalents: text_for(equivalents, EQUIVALENTS_PATH),
            shared: text_for(shared, SHARED_LOOP_PATH),
        }
    });
    // The shared loop is fetched the first time its caption is clicked (or pressed with
    // a key, which clicks it), which opens it.
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, CAPTION).is_some() && shared.with_untracked(Option::is_none) {
            let path = SHARED_LOOP_PATH.to_string();
            load(path.clone(), shared, Signal::stored(path));
        }
    };
    view! {
        <div class="rll-code-view" data-testid="code-view" on:click=handler(on_click)>{code}</div>
    }
}

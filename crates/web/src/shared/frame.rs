//! What every page of the full lab shares: the title, messages about the link, the two
//! sections, and the footer with the command that gives the same numbers natively.

use crate::shared::bind;
use crate::shared::erase::{handler, watch};
use crate::shared::live;
use crate::shared::tabs::stay_on_current;
use leptos::prelude::*;
use page::site::sections::PageHead;
use page::site::words::{PageWords, SiteFooter};
use page::{Section, View};
use sim::Scenario;

/// A page of the lab: its header and section links, `children`, and the footer.
#[component]
pub fn Frame<Q: Send + Sync + 'static>(
    /// The section this page belongs to.
    section: Section,
    /// What could not be used from the link.
    problems: Vec<String>,
    /// The seed and numbers the section links carry.
    scenario: Signal<Scenario>,
    /// The view on screen, for `data-view`.
    view: Signal<View>,
    /// `idle`, `running`, `paused` or `done`, for `data-run-state`.
    run_state: Signal<&'static str>,
    /// What the page shows, for the tab's title and the footer's commands.
    shown: Signal<Q>,
    /// What the tab and the footer say of it: this page's own builders
    /// (`page::site::words::RUN_WORDS`, …, so the other pages' are not in its module).
    words: PageWords<Q>,
    /// The page's root, for a page whose content binds nodes outside its own markup.
    #[prop(optional)]
    root: bind::Root,
    children: Children,
) -> impl IntoView {
    // The root's state attributes, written by an effect: the root holds the page's own
    // views, so no live widget draws it, and as bindings they would cost every page's
    // module a reactive attribute type each (docs/sizes-and-speeds.md, "Techniques").
    watch(move || {
        let (state, view) = (run_state.get(), view.get());
        if let Some(el) = root.get() {
            let _ = el.set_attribute("data-run-state", state);
            let _ = el.set_attribute("data-view", view.as_str());
        }
    });
    // The header, the link's problems and the section links, then the footer: the page
    // layer's live widgets. The tab's title follows what the page shows too.
    watch(move || shown.with(|q| document().set_title(&(words.title)(q))));
    let head = live::view(PageHead { section, problems }, move || scenario.get());
    let footer = live::view(SiteFooter, move || shown.with(|q| words.lines(q)));
    view! {
        <div class="rll" node_ref=root data-run-state="idle" data-testid="app">
            <div style="display:contents" on:click=handler(stay_on_current)>{head}</div>
            {children()}
            {footer}
        </div>
    }
}

//! What every page of the full lab shares: the title, messages about the link, the two
//! sections, and the footer with the command that gives the same numbers natively.

use crate::shared::bind;
use crate::shared::erase::{handler, watch};
use crate::shared::tabs::stay_on_current;
use leptos::prelude::*;
use page::site::sections::{
    header_markup, problems_markup, sections_markup, SECTIONS, SECTIONS_LABEL,
};
use page::site::words::{footer_markup, PageWords, FOOTER};
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
    // The root's state attributes, the section links and the footer (with the tab's
    // title, which follows the same state), each written by an effect: as bindings they
    // cost every page's module a reactive attribute type each (docs/sizes-and-speeds.md, "Techniques").
    watch(move || {
        let (state, view) = (run_state.get(), view.get());
        if let Some(el) = root.get() {
            let _ = el.set_attribute("data-run-state", state);
            let _ = el.set_attribute("data-view", view.as_str());
        }
    });
    bind::node(root, SECTIONS, move |el| {
        el.set_inner_html(
            &scenario
                .with(|sc| sections_markup(section, sc))
                .into_string(),
        );
    });
    bind::node(root, FOOTER, move |el| {
        let footer = shown.with(|q| {
            document().set_title(&(words.title)(q));
            footer_markup(q, words)
        });
        el.set_inner_html(&footer.into_string());
    });
    view! {
        <div class="rll" node_ref=root data-run-state="idle" data-testid="app">
            <header class="rll-header" inner_html=header_markup(section).into_string()></header>
            {(!problems.is_empty()).then(|| view! {
                <div class="rll-notice" role="alert" data-testid="query-problems" inner_html=problems_markup(&problems).into_string()></div>
            })}
            <nav class="rll-sections" aria-label=SECTIONS_LABEL data-slot={SECTIONS.name()} on:click=handler(stay_on_current)></nav>
            {children()}
            <footer class="rll-footer" data-slot={FOOTER.name()}></footer>
        </div>
    }
}

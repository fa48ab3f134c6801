//! What every page of the full lab shares: the title, messages about the link, the two
//! sections, and the footer with the command that gives the same numbers natively.

use super::erase::handler;
use super::tabs::stay_on_current;
use crate::page::links::{footer_markup, HttpLines};
use crate::page::sections::{header_markup, problems_markup, sections_markup};
use crate::page::titles::title_for;
use crate::page::{PageQuery, Section, View};
use crate::sim::Scenario;
use leptos::prelude::*;

/// The page layer's commands for a page's real-time counterpart
/// ([`crate::page::links::http_cli_line`]).
pub type HttpOf = fn(&PageQuery) -> Option<HttpLines>;

/// A page of the lab: its header and section links, `children`, and the footer.
#[component]
pub fn Frame(
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
    /// What the page shows, for the footer's command that prints the same.
    shown: Signal<PageQuery>,
    /// The commands that run what the page shows for real, on the pages that have a
    /// real-time counterpart (a function, so the other pages carry none of its code).
    #[prop(optional_no_strip)]
    http: Option<HttpOf>,
    children: Children,
) -> impl IntoView {
    let tabs = move || scenario.with(|sc| sections_markup(section, sc));
    // The tab, history and bookmarks name the page and run on screen: set here, with the
    // footer's commands that follow the same state (one reactive closure, not another
    // effect, in every page's module).
    let footer = move || {
        shown.with(|q| {
            document().set_title(&title_for(q));
            footer_markup(q, http.and_then(|f| f(q)).as_ref())
        })
    };
    view! {
        <div class="rll" data-run-state=run_state data-view=move || view.get().as_str() data-testid="app">
            <header class="rll-header" inner_html=header_markup(section)></header>
            {(!problems.is_empty()).then(|| view! {
                <div class="rll-notice" role="alert" data-testid="query-problems" inner_html=problems_markup(&problems)></div>
            })}
            <nav class="rll-sections" aria-label="Sections" inner_html=tabs on:click=handler(stay_on_current)></nav>
            {children()}
            <footer class="rll-footer" inner_html=footer></footer>
        </div>
    }
}

//! What every page of the full lab shares: the title, messages about the link, the two
//! sections, and the footer with the command that gives the same numbers natively.

use super::notices::Notices;
use super::tabs::stay_on_current;
use crate::page::links::cli_line;
use crate::page::sections::{header_markup, sections_markup};
use crate::page::titles::title_for;
use crate::page::{PageQuery, Section, View};
use crate::sim::Scenario;
use leptos::prelude::*;

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
    /// More lines for the footer, from the pages that have them.
    #[prop(optional)]
    footer: Option<ViewFn>,
    children: Children,
) -> impl IntoView {
    let tabs = move || scenario.with(|sc| sections_markup(section, sc));
    view! {
        <div class="rll" data-run-state=run_state data-view=move || view.get().as_str() data-testid="app">
            <header class="rll-header" inner_html=header_markup(section)></header>
            <Notices messages=problems/>
            <nav class="rll-sections" aria-label="Sections" inner_html=tabs on:click=stay_on_current></nav>
            {children()}
            <footer class="rll-footer">
                <p>"The same numbers, natively: " <code data-testid="cli-command">{move || shown.with(|q| {
                    // The tab, history and bookmarks name the page and run on screen: set
                    // here, with the command that follows the same state (one reactive
                    // closure, not another effect, in every page's module).
                    document().set_title(&title_for(q));
                    cli_line(q)
                })}</code></p>
                {footer.map(|f| f.run())}
                <p>"A model, not a benchmark: no network, simulated time, one seeded random generator."</p>
            </footer>
        </div>
    }
}

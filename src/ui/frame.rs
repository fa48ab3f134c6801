//! What every page of the full lab shares: the title, messages about the link, the two
//! sections, and the footer with the command that gives the same numbers natively.

use super::notices::Notices;
use crate::page::format::count;
use crate::page::links::{cli_line, href};
use crate::page::sections::{section_text, SectionText};
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
    let SectionText { title, lede, .. } = section_text(section);
    let tabs = [Section::Charges, Section::Limits, Section::Headers].map(|s| {
        let name = section_text(s).tab;
        let sub = move || match s {
            Section::Charges => format!(
                "{} charges, ten clients",
                scenario.with(|d| count(d.customers.into()))
            ),
            Section::Limits => "limiters, clients, herds".to_string(),
            Section::Headers => "sent, and read".to_string(),
        };
        view! {
            <a class="rll-section-tab" data-section=s.as_str()
                href=move || scenario.with(|sc| href(s, View::Run, sc))
                aria-current=(s == section).then_some("page")
                on:click=move |ev| {
                    // The section on screen is already here: following the link would
                    // only reload it and lose the run.
                    if s == section {
                        ev.prevent_default();
                    }
                }>
                {name}
                <span class="rll-tab-sub">{sub}</span>
            </a>
        }
    });
    view! {
        <div class="rll" data-run-state=run_state data-view=move || view.get().as_str() data-testid="app">
            <header class="rll-header">
                <p class="rll-kicker">"rate-limit-lab"</p>
                <h1>{title}</h1>
                <p class="rll-lede">{lede}</p>
            </header>
            <Notices messages=problems/>
            <nav class="rll-sections" aria-label="Sections">{tabs}</nav>
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

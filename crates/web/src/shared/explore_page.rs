//! The compare page and the sweep page. Each is a module of its own (docs/sizes-and-speeds.md),
//! around the same frame, introduction and view tabs; both read the seed and numbers
//! from the link, so neither needs anything from the run page.

use crate::run::intro::Intro;
use crate::shared::frame::Frame;
use crate::shared::view_tabs::ViewTabs;
use leptos::prelude::*;
use page::site::words::PageWords;
use page::{Section, View};
use sim::Scenario;

/// A charges page other than the run page: `children` under a heading, in the frame.
#[component]
pub fn ExplorePage<Q: Send + Sync + 'static, H: IntoView + 'static>(
    /// What could not be used from the link.
    problems: Vec<String>,
    /// The view this page shows.
    view: View,
    /// The heading of the view.
    title: &'static str,
    /// What the page shows, for the footer's command and the title.
    shown: Signal<Q>,
    /// The seed and numbers the introduction and the links to other pages carry.
    scenario: Signal<Scenario>,
    /// `idle`, `running` or `done`, for `data-run-state`.
    run_state: Signal<&'static str>,
    /// What stands beside the heading (`()` for nothing: generic, so a page without it
    /// carries no code for it).
    beside: H,
    /// What the tab and the footer say of it (see [`Frame`]).
    words: PageWords<Q>,
    children: Children,
) -> impl IntoView {
    view! {
        <Frame
            section=Section::Charges
            problems
            scenario
            view=Signal::stored(view)
            run_state
            shown
            words
        >
            <Intro scenario/>
            <ViewTabs current=view scenario/>
            <section class="rll-see">
                <div class="rll-see-head">
                    <h2>{title}</h2>
                    {beside}
                </div>
                {children()}
            </section>
        </Frame>
    }
}

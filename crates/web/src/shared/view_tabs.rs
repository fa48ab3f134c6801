//! The charges section's four views, as links: each view is a page of its own
//! (docs/sizes-and-speeds.md). The view on screen does not reload itself.
//!
//! The tabs are the page layer's live widget (`page::run::intro::Tabs`): drawn once, and
//! on a change of the seed or the numbers only the links' addresses are written.

use crate::shared::erase::handler;
use crate::shared::live;
use crate::shared::tabs::stay_on_current;
use leptos::prelude::*;
use page::run::intro::Tabs;
use page::site::sections::VIEWS_LABEL;
use page::View;
use sim::Scenario;

/// The view tabs.
#[component]
pub fn ViewTabs(
    /// The view on screen.
    current: View,
    /// The seed and numbers the links carry.
    scenario: Signal<Scenario>,
) -> impl IntoView {
    let tabs = live::view(Tabs(current), move || scenario.get());
    view! { <nav class="rll-tabs" aria-label=VIEWS_LABEL on:click=handler(stay_on_current)>{tabs}</nav> }
}

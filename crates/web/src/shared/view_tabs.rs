//! The charges section's four views, as links: each view is a page of its own
//! (docs/sizes-and-speeds.md). The view on screen does not reload itself.

use crate::shared::erase::handler;
use crate::shared::tabs::stay_on_current;
use leptos::prelude::*;
use page::run::intro::tabs_markup;
use page::site::sections::VIEWS_LABEL;
use page::View;
use sim::Scenario;

/// The view tabs (the page layer's markup).
#[component]
pub fn ViewTabs(
    /// The view on screen.
    current: View,
    /// The seed and numbers the links carry.
    scenario: Signal<Scenario>,
) -> impl IntoView {
    let tabs = move || scenario.with(|s| tabs_markup(current, s).into_string());
    view! { <nav class="rll-tabs" aria-label=VIEWS_LABEL inner_html=tabs on:click=handler(stay_on_current)></nav> }
}

//! The charges section's three views, as links. A view on this page's own module
//! switches in place; another module's view loads that page.

use super::frame::page_href;
use crate::query::{PageQuery, Section, View};
use crate::sim::Scenario;
use leptos::prelude::*;

/// The tab label of a view.
fn label(v: View) -> &'static str {
    match v {
        View::Run => "Run one strategy",
        View::Compare => "Compare all six",
        View::Sweep => "Sweep seeds",
    }
}

/// The page `v` is on.
fn page_of(v: View) -> crate::query::Page {
    PageQuery {
        view: v,
        ..PageQuery::default()
    }
    .page()
}

/// The view tabs. `on_view` is called, instead of following the link, for a view served
/// by this page (`here`).
#[component]
pub fn ViewTabs(
    /// The view on screen.
    current: Signal<View>,
    /// The seed and numbers the links carry.
    scenario: Signal<Scenario>,
    /// The view this page's module opened with.
    here: View,
    /// Shows a view of this page.
    on_view: Callback<View>,
) -> impl IntoView {
    view! {
        <nav class="rll-tabs" aria-label="Views">
            {View::ALL
                .map(|v| {
                    view! {
                        <a class="rll-tab" data-view=v.as_str()
                            href=move || scenario.with(|s| page_href(Section::Charges, v, s))
                            aria-current=move || (current.get() == v).then_some("page")
                            on:click=move |ev| {
                                let new_tab = ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0;
                                if !new_tab && page_of(v) == page_of(here) {
                                    ev.prevent_default();
                                    on_view.run(v);
                                }
                            }>
                            {label(v)}
                        </a>
                    }
                })
                .collect_view()}
        </nav>
    }
}

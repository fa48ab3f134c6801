//! The charges section's four views, as links: each view is a page of its own (README,
//! "Sizes"). The view on screen does not reload itself.

use crate::page::links::href;
use crate::page::{Section, View};
use crate::sim::Scenario;
use leptos::prelude::*;

/// The tab label of a view.
fn label(v: View) -> &'static str {
    match v {
        View::Run => "Run one strategy",
        View::Compare => "Compare all ten",
        View::Sweep => "Sweep seeds",
        View::Matrix => "Every incident",
    }
}

/// The view tabs.
#[component]
pub fn ViewTabs(
    /// The view on screen.
    current: View,
    /// The seed and numbers the links carry.
    scenario: Signal<Scenario>,
) -> impl IntoView {
    view! {
        <nav class="rll-tabs" aria-label="Views">
            {View::ALL
                .map(|v| {
                    view! {
                        <a class="rll-tab" data-view=v.as_str()
                            href=move || scenario.with(|s| href(Section::Charges, v, s))
                            aria-current=(current == v).then_some("page")
                            on:click=move |ev| {
                                let new_tab = ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0;
                                if !new_tab && v == current {
                                    ev.prevent_default();
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

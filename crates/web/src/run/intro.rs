//! The introduction: the provider's rules (the page layer's live widget,
//! `page::run::intro::Intro`, every number read from its config).

use crate::shared::live;
use leptos::prelude::*;
use page::run::intro::Intro as Rules;
use sim::Scenario;

/// What the imperfect provider does, in a sentence per rule.
#[component]
pub fn Intro(
    /// The provider's rules and the batch to describe.
    scenario: Signal<Scenario>,
) -> impl IntoView {
    let rules = live::view(Rules, move || scenario.get());
    view! { <section class="rll-intro" aria-labelledby="rll-intro-title">{rules}</section> }
}

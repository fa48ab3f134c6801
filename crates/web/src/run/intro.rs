//! The introduction: the provider's rules (the page layer's markup, every number read
//! from its config).

use leptos::prelude::*;
use page::run::intro::intro_markup;
use sim::Scenario;

/// What the imperfect provider does, in a sentence per rule.
#[component]
pub fn Intro(
    /// The provider's rules and the batch to describe.
    scenario: Signal<Scenario>,
) -> impl IntoView {
    let markup = move || scenario.with(|s| intro_markup(s).into_string());
    view! { <section class="rll-intro" aria-labelledby="rll-intro-title" inner_html=markup></section> }
}

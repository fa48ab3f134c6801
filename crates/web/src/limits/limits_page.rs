//! The limits page: publishing a limit, and reading one.

use crate::limits::section::LimitsSection;
use crate::shared::frame::Frame;
use leptos::prelude::*;
use page::limits::query::experiment_query;
use page::limits::query::LimitsQuery;
use page::{Section, View};

/// The page.
#[component]
pub fn LimitsPage(
    /// What the link asks for.
    query: LimitsQuery,
) -> impl IntoView {
    let scenario = query.base.scenario.clone();
    let chosen = RwSignal::new(query.own.experiment);
    let lab_settings = RwSignal::new(query.own.settings.clone());
    let shown = Signal::derive({
        let scenario = scenario.clone();
        move || lab_settings.with(|l| experiment_query(chosen.get(), &scenario, l))
    });
    view! {
        <Frame
            section=Section::Limits
            problems=query.base.problems.clone()
            scenario=Signal::stored(scenario.clone())
            view=Signal::stored(View::Run)
            run_state=Signal::stored("idle")
            shown
            words=page::site::words::LIMITS_WORDS
        >
            <LimitsSection scenario chosen lab_settings/>
        </Frame>
    }
}

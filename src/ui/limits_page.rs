//! The limits page: publishing a limit, and reading one.

use super::frame::Frame;
use super::lab::LimitsSection;
use crate::page::{PageQuery, Section, View};
use leptos::prelude::*;

/// The page.
#[component]
pub fn LimitsPage(query: PageQuery) -> impl IntoView {
    let seed = query.seed;
    let scenario = query.seeded_scenario();
    view! {
        <Frame
            section=Section::Limits
            problems=query.problems.clone()
            scenario=Signal::stored(scenario)
            view=Signal::stored(View::Run)
            run_state=Signal::stored("idle")
            cli=Signal::stored(format!("cargo run --release --bin ratelab -- limits all --seed {seed}"))
        >
            <LimitsSection seed start=query.experiment/>
        </Frame>
    }
}

//! The explore page: all six strategies side by side, and the seed sweep. Both read
//! the seed and numbers from the link, so this page needs nothing from the run page.

use super::compare_view::CompareView;
use super::frame::{page_href, Frame};
use super::intro::Intro;
use super::page_query;
use super::sweep_view::SweepView;
use super::view_tabs::ViewTabs;
use crate::query::{PageQuery, Section, View};
use crate::sim::Scenario;
use leptos::prelude::*;

/// The page. A query for the run view (which this page does not serve) shows the
/// comparison.
#[component]
pub fn ExplorePage(query: PageQuery) -> impl IntoView {
    let start = match query.view {
        View::Run => View::Compare,
        v => v,
    };
    let view = RwSignal::new(start);
    let base = Scenario {
        seed: query.seed,
        ..query.scenario.clone()
    };
    let sweep_strategy = (!query.all_strategies).then_some(query.strategy).flatten();
    let (seeds, autostart) = (query.seeds, query.sweep_autostart());
    let links = base.clone();
    let show = move |v: View| {
        view.set(v);
        page_query::replace(&page_href(Section::Charges, v, &links));
    };
    let seed = base.seed;
    let cli = Signal::derive(move || match view.get() {
        View::Sweep => {
            "cargo run --release --bin ratelab -- charges --all --seeds 1..=200".to_string()
        }
        _ => format!("cargo run --release --bin ratelab -- charges --all --seed {seed}"),
    });
    let content = {
        let base = base.clone();
        move || match view.get() {
            View::Sweep => view! {
                <section class="rll-see">
                    <h2>"Sweep seeds"</h2>
                    <SweepView base=base.clone() strategy=sweep_strategy seeds autostart/>
                </section>
            }
            .into_any(),
            _ => view! {
                <section class="rll-see">
                    <h2>"All six, side by side"</h2>
                    <CompareView base=base.clone()/>
                </section>
            }
            .into_any(),
        }
    };
    let scenario = Signal::stored(base);
    view! {
        <Frame
            section=Section::Charges
            problems=query.problems.clone()
            scenario
            view=view.into()
            run_state=Signal::stored("idle")
            cli
        >
            <Intro scenario/>
            <ViewTabs current=view.into() scenario here=start on_view=Callback::new(show)/>
            {content}
        </Frame>
    }
}

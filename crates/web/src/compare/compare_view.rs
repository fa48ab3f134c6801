//! Every strategy on one seed: the seed and numbers to run them with, a table of
//! every stat, and a timeline each on one axis. Every change to the fields runs them all
//! again, and the address, the footer's command and the title follow.

use crate::compare::compare_controls::CompareControls;
use crate::run::strategy_picker::label;
use crate::shared::bind;
use crate::shared::canvas::{use_canvas, Surface};
use crate::shared::dom::{set_attr, set_flag};
use crate::shared::erase::watch;
use crate::shared::later::Later;
use crate::shared::live;
use crate::shared::page_query;
use crate::shared::timeline::{draw, Layout, Palette, TimelineData};
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use page::compare::explore::{
    timeline_label, CompareProblem, CompareResult, COMPARE_CAPTION, MULTIPLES, MULTIPLES_TITLE,
};
use page::query::links::compare_query;
use page::shared::budget::Workload;
use page::shared::words::Words;
use page::Query;
use sim::Stats;
use sim::{Scenario, Simulation, StrategyName};

/// Six runs of one scenario.
#[derive(Clone)]
struct Compared {
    /// The seed and numbers they ran with.
    scenario: Scenario,
    /// Each strategy's stats.
    runs: Vec<(StrategyName, Stats)>,
    /// The right end of the shared time axis.
    axis_end_us: u64,
}

/// The compare view for the seed and numbers of `shown` (its strategy is ignored).
#[component]
pub fn CompareView(
    /// What the page shows: read at the start, then set after each comparison.
    shown: RwSignal<Query<()>>,
    /// The page's `data-run-state`: `done` once every strategy has run.
    run_state: RwSignal<&'static str>,
) -> impl IntoView {
    let start = shown.with_untracked(|q| q.base.scenario.clone());
    let sims: StoredValue<Vec<Simulation>> = StoredValue::new(Vec::new());
    let compared = RwSignal::new(None::<Compared>);
    let problem = RwSignal::new(None::<String>);
    // All at once: about a millisecond each for the article's thousand customers.
    let run = move |base: Scenario, write_url: bool| {
        if let Err(too_large) = Workload::Compare.check(&base) {
            run_state.set("idle");
            return problem.set(Some(too_large.sentence()));
        }
        let mut all = Vec::new();
        for strategy in StrategyName::ALL {
            match Simulation::new(&Scenario {
                strategy,
                record: true,
                ..base.clone()
            }) {
                Ok(mut sim) => {
                    sim.run_to_end();
                    all.push(sim);
                }
                Err(e) => {
                    run_state.set("idle");
                    return problem.set(Some(e.sentence()));
                }
            }
        }
        problem.set(None);
        compared.set(Some(Compared {
            scenario: base.clone(),
            runs: all
                .iter()
                .map(|s| (s.scenario().strategy, s.stats()))
                .collect(),
            axis_end_us: all.iter().map(Simulation::now_us).max().unwrap_or(1),
        }));
        sims.set_value(all);
        let now_shown = compare_query(&base);
        if write_url {
            page_query::replace(&now_shown.to_query());
        }
        shown.set(now_shown);
        run_state.set("done");
    };
    run(start.clone(), false);
    // The view's state and seed, and whether there is a comparison to show, each written
    // by an effect (as bindings, each was a reactive attribute type of the compare page's
    // module). They stay outside the live widgets: their nodes hold Leptos' own children
    // (the numbers' form, the canvases), which a poured widget would replace.
    let root = NodeRef::<Div>::new();
    let seed = move || compared.with(|c| c.as_ref().map(|c| c.scenario.seed));
    watch(move || {
        let (state, seed) = (run_state.get(), seed());
        if let Some(root) = root.get() {
            set_attr(&root, "data-state", state);
            set_attr(
                &root,
                "data-seed",
                &seed.map_or(String::new(), |s| s.to_string()),
            );
        }
    });
    bind::node(root, MULTIPLES, move |el| {
        set_flag(el, "hidden", seed().is_none())
    });
    // The problem and the numbers, the page layer's live widgets.
    let problem_line = live::view(CompareProblem, move || problem.get());
    let numbers = live::view(CompareResult, move || {
        compared.with(|c| c.as_ref().map(|c| (c.scenario.clone(), c.runs.clone())))
    });
    view! {
        <div class="rll-compare" data-testid="compare" node_ref=root>
            <p class="rll-caption">{COMPARE_CAPTION}</p>
            <CompareControls start shown on_change=Callback::new(move |s| run(s, true))/>
            {problem_line}
            {numbers}
            <div data-slot={MULTIPLES.name()} hidden>
                <h3 class="rll-multiples-title">{MULTIPLES_TITLE}</h3>
                <div class="rll-multiples">
                    // Built after the first paint: the numbers above come first. Ten
                    // canvases measured, styled and drawn in the same frame held them back
                    // by about 0.4 s on a throttled phone (docs/sizes-and-speeds.md, "Time to ready").
                    <Later>
                    {StrategyName::ALL
                        .into_iter()
                        .enumerate()
                        .map(|(i, s)| view! { <SmallTimeline sims compared index=i title=label(s)/> })
                        .collect_view()}
                    </Later>
                </div>
            </div>
        </div>
    }
}

/// One of the small timelines, one per strategy.
#[component]
fn SmallTimeline(
    sims: StoredValue<Vec<Simulation>>,
    compared: RwSignal<Option<Compared>>,
    index: usize,
    title: &'static str,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let surface = use_canvas(canvas, Palette::read);
    watch(move || {
        let Some((el, Surface { palette, width })) = surface.get() else {
            return;
        };
        let Some(axis_end_us) = compared.with(|c| c.as_ref().map(|c| c.axis_end_us)) else {
            return;
        };
        sims.with_value(|v| {
            if let Some(sim) = v.get(index) {
                draw(
                    &el,
                    &palette,
                    width,
                    &TimelineData::of(sim, axis_end_us),
                    Layout::COMPACT,
                );
            }
        });
    });
    view! {
        <figure class="rll-multiple">
            <figcaption>{title}</figcaption>
            <canvas node_ref=canvas role="img" aria-label=timeline_label(title)></canvas>
        </figure>
    }
}

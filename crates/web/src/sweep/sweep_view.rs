//! Seed sweeps in the browser: many seeds, in batches that yield to the browser every
//! frame (on [`use_animation_frame`]), with progress and a cancel button; then each key
//! stat's distribution.
//!
//! The form is the page layer's markup ([`SeedSweepForm::markup`]), set once, as are the
//! results ([`sweep_result_markup`]); one effect writes back what the form's state
//! changes, and one delegated handler each reads typing and clicks.

use crate::shared::dom::target_as;
use crate::shared::erase::handler;
use crate::shared::use_animation_frame::{
    now_ms, step_for_a_frame, use_animation_frame, First, Next,
};
use crate::sweep::sweep_form::bind_form;
use crate::sweep::sweep_progress::SweepProgress;
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::format::dec;
use page::shared::links::sweep_query;
use page::shared::words::Words;
use page::sweep::histogram::sweep_result_markup;
use page::sweep::sweep_forms::{seed_sweep_help, SeedSweepForm};
use page::sweep::sweep_progress::SweepState;
use page::PageQuery;
use sim::sweep::{Distribution, SweepJob};
use sim::{Scenario, StatField, StrategyName};
use web_sys::Element;

/// The stats a sweep summarises.
const FIELDS: [StatField; 8] = [
    StatField::CustomersCharged,
    StatField::Duplicates,
    StatField::Requests,
    StatField::RateLimited,
    StatField::Overloaded,
    StatField::InProgressConflicts,
    StatField::MaxInflight,
    StatField::ElapsedMs,
];

/// One strategy's distributions over the seeds.
struct Row {
    /// The strategy swept.
    strategy: StrategyName,
    /// Each stat summarised, with its distribution over the seeds.
    fields: Vec<(StatField, Distribution)>,
}

/// A sweep in progress, and when it started.
struct Job {
    steps: SweepJob,
    started_ms: f64,
}

/// The sweep view.
#[component]
pub fn SweepView(
    /// The link's seed and numbers.
    base: Scenario,
    /// The strategy to sweep, or all with `None`.
    strategy: Option<StrategyName>,
    /// Seeds `1..=seeds`.
    seeds: u64,
    /// Start as the page loads.
    autostart: bool,
    /// The sweep on screen, as a page: set when a sweep starts.
    shown: RwSignal<PageQuery>,
    /// Where the sweep is (the page's `data-run-state` reads it).
    state: RwSignal<SweepState>,
) -> impl IntoView {
    let form = RwSignal::new(SeedSweepForm::new(strategy, seeds));
    let problem = RwSignal::new(None::<String>);
    let progress = RwSignal::new((0u64, 0u64));
    let rows = RwSignal::new(Vec::<Row>::new());
    let took_ms = RwSignal::new(0.0f64);
    let job: StoredValue<Option<Job>> = StoredValue::new(None);
    let frames = use_animation_frame();

    /// Runs seeds for one frame's budget; at the end, publishes the distributions.
    fn frame(
        job: StoredValue<Option<Job>>,
        state: RwSignal<SweepState>,
        progress: RwSignal<(u64, u64)>,
        rows: RwSignal<Vec<Row>>,
        took_ms: RwSignal<f64>,
    ) -> Next {
        let finished = step_for_a_frame(job, |j| &mut j.steps, progress);
        match finished {
            Some(true) => {
                let (results, started) = job.with_value(|j| {
                    let j = j.as_ref().expect("a finished job");
                    let results: Vec<Row> = j
                        .steps
                        .sweeps()
                        .iter()
                        .map(|(s, sw)| Row {
                            strategy: *s,
                            fields: FIELDS
                                .into_iter()
                                .filter_map(|f| sw.distribution(f).map(|d| (f, d)))
                                .collect(),
                        })
                        .collect();
                    (results, j.started_ms)
                });
                took_ms.set(now_ms() - started);
                rows.set(results);
                state.set(SweepState::Done);
                Next::Stop
            }
            Some(false) => Next::Frame,
            None => Next::Stop,
        }
    }

    let start = move || {
        let (strategies, seeds) = match form.with_untracked(SeedSweepForm::read) {
            Ok(read) => read,
            Err(why) => return problem.set(Some(why)),
        };
        let steps = match SweepJob::new(&base, &strategies, seeds) {
            Ok(steps) => steps,
            Err(e) => return problem.set(Some(e.sentence())),
        };
        problem.set(None);
        frames.stop();
        let total = steps.total();
        let one = (strategies.len() == 1).then(|| strategies[0]);
        job.set_value(Some(Job {
            steps,
            started_ms: now_ms(),
        }));
        rows.set(Vec::new());
        progress.set((0, total));
        state.set(SweepState::Running);
        let now_shown = sweep_query(one, seeds, &base);
        crate::shared::page_query::replace(&now_shown.to_query());
        shown.set(now_shown);
        frames.start(First::NextFrame, move || {
            frame(job, state, progress, rows, took_ms)
        });
    };
    let cancel = move || {
        frames.stop();
        state.set(SweepState::Cancelled);
    };
    if autostart {
        start();
    }

    let root = NodeRef::<Div>::new();
    let on_field = bind_form(root, form, problem, state, seed_sweep_help);
    let on_click = move |ev: web_sys::MouseEvent| {
        let action = target_as::<Element>(&ev)
            .and_then(|e| e.closest("button").ok().flatten())
            .and_then(|b| b.get_attribute("data-action"));
        match action.as_deref() {
            Some("run") => start(),
            Some("cancel") => cancel(),
            _ => {}
        }
    };
    let results = move || {
        rows.with(|rows| {
            rows.iter()
                .map(|row| sweep_result_markup(row.strategy, &row.fields))
                .collect::<String>()
        })
    };

    view! {
        <div class="rll-sweep" data-testid="sweep" data-state=move || state.get().as_str() data-took-ms=move || dec(took_ms.get(), 0)>
            <p class="rll-caption">
                "One seed is one roll of the dice. A sweep runs many seeds and shows how much each number moves: "
                "which results are the strategy, and which are luck."
            </p>
            <div node_ref=root inner_html=form.with_untracked(SeedSweepForm::markup)
                on:input=handler(on_field) on:change=handler(on_field) on:click=handler(on_click)></div>
            <SweepProgress label="Seeds run" progress state took_ms/>
            <div inner_html=results></div>
        </div>
    }
}

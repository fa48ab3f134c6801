//! Seed sweeps in the browser: many seeds, shared out between simulation workers (one per
//! core, [`workers`]) off the page's thread, with progress and a cancel button; then each
//! key stat's distribution. The results are the same however many workers ran them (a
//! run depends on its scenario and seed only; `page::sweep::share`). Where no worker can
//! start, the page runs the seeds itself, in batches that yield to the browser every frame
//! (on [`use_animation_frame`]).
//!
//! The view is the page layer's markup ([`seed_sweep_markup`]: the form, the progress
//! and where the results go), set once, as are the results ([`sweep_result_markup`]);
//! one effect per control writes back what the form's state and the sweep change, and
//! one delegated handler each reads typing and clicks.

use crate::shared::bind;
use crate::shared::dom::set_attr;
use crate::shared::erase::{handler, watch};
use crate::shared::use_animation_frame::{
    now_ms, step_for_a_frame, use_animation_frame, First, Next,
};
use crate::sweep::sweep_form::bind_form;
use crate::sweep::sweep_progress::{bind_progress, sweep_farm};
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::budget::SWEEP_MAX_CUSTOMERS;
use page::shared::format::dec;
use page::shared::links::sweep_query;
use page::shared::words::Words;
use page::sweep::histogram::sweep_result_markup;
use page::sweep::share::{take_values, Work};
use page::sweep::sweep_forms::{seed_sweep_help, SeedSweepForm, CANCEL, RUN};
use page::sweep::sweep_progress::SweepState;
use page::sweep::views::{seed_sweep_markup, RESULTS};
use page::PageQuery;
use sim::sweep::{Distribution, SweepJob};
use sim::{Scenario, StatField, StrategyName};

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

/// Each strategy's distributions, from a finished sweep.
fn rows_of(steps: &SweepJob) -> Vec<Row> {
    steps
        .sweeps()
        .iter()
        .map(|(s, sw)| Row {
            strategy: *s,
            fields: FIELDS
                .into_iter()
                .filter_map(|f| sw.distribution(f).map(|d| (f, d)))
                .collect(),
        })
        .collect()
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
    /// Load the workers once the page is idle, ready for the first sweep.
    warm: bool,
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
    // Workers the sweep on screen ran on (0: the page's own thread).
    let workers_used = RwSignal::new(0u32);
    let frames = use_animation_frame();
    // The workers' answers go into the sweep in order; the distributions are published
    // once every run is in. A worker's error stops the sweep and says why.
    let farm = sweep_farm(
        progress,
        state,
        problem,
        move |values| {
            job.update_value(|j| {
                if let Some(j) = j.as_mut() {
                    take_values(&mut j.steps, values);
                }
            });
        },
        move || publish(job, state, rows, took_ms),
    );

    /// Publishes a finished sweep's distributions.
    fn publish(
        job: StoredValue<Option<Job>>,
        state: RwSignal<SweepState>,
        rows: RwSignal<Vec<Row>>,
        took_ms: RwSignal<f64>,
    ) {
        let (results, started) = job.with_value(|j| {
            let j = j.as_ref().expect("a finished job");
            (rows_of(&j.steps), j.started_ms)
        });
        took_ms.set(now_ms() - started);
        rows.set(results);
        state.set(SweepState::Done);
    }

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
                publish(job, state, rows, took_ms);
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
        let steps = match SweepJob::new(&base, &strategies, seeds, SWEEP_MAX_CUSTOMERS) {
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
        let query = now_shown.to_query();
        crate::shared::page_query::replace(&query);
        shown.set(now_shown);
        // One worker per core, each handed a slice at a time; the page's own thread if
        // none can start.
        match farm.start(Work::Seeds.as_str(), query, total) {
            Some(n) => workers_used.set(n),
            None => {
                workers_used.set(0);
                frames.start(First::NextFrame, move || {
                    frame(job, state, progress, rows, took_ms)
                });
            }
        }
    };
    let cancel = move || {
        frames.stop();
        farm.stop();
        state.set(SweepState::Cancelled);
    };
    if autostart {
        start();
    } else if warm {
        // The page exists to run sweeps: its workers load once it is idle, so the first
        // sweep does not wait for them.
        request_idle_callback(move || farm.warm());
    }

    let root = NodeRef::<Div>::new();
    let on_field = bind_form(root, form, problem, state, seed_sweep_help);
    bind_progress(root, progress, state, took_ms, workers_used);
    bind::node(root, RESULTS, move |el| {
        let results = rows.with(|rows| {
            rows.iter()
                .map(|row| sweep_result_markup(row.strategy, &row.fields).into_string())
                .collect::<String>()
        });
        el.set_inner_html(&results);
    });
    // The view's state, how long a finished sweep took and on how many workers, for tests
    // and the page.
    watch(move || {
        let (state, took) = (state.get(), dec(took_ms.get(), 0));
        let used = workers_used.get().to_string();
        if let Some(root) = root.get() {
            set_attr(&root, "data-state", state.as_str());
            set_attr(&root, "data-took-ms", &took);
            set_attr(&root, "data-workers", &used);
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, RUN).is_some() {
            start();
        } else if bind::hit(&ev, CANCEL).is_some() {
            cancel();
        }
    };

    view! {
        <div class="rll-sweep" data-testid="sweep" node_ref=root inner_html=form.with_untracked(|f| seed_sweep_markup(f).into_string())
            on:input=handler(on_field) on:change=handler(on_field) on:click=handler(on_click)></div>
    }
}

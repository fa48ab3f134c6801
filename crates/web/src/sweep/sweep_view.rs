//! Seed sweeps in the browser: many seeds, shared out between simulation workers (one per
//! core, [`workers`]) off the page's thread, with progress and a cancel button; then each
//! key stat's distribution. The results are the same however many workers ran them (a
//! run depends on its scenario and seed only; `page::sweep::share`). Where no worker can
//! start, the page runs the seeds itself, in batches that yield to the browser every frame
//! (on [`SweepTask`]).
//!
//! The view is the page layer's markup ([`seed_sweep_markup`]: the form, the progress
//! and where the results go), set once, as are the results ([`sweep_result_markup`]);
//! one effect per control writes back what the form's state and the sweep change, and
//! one delegated handler each reads typing and clicks.

use crate::shared::bind;
use crate::shared::dom::set_attr;
use crate::shared::erase::{handler, watch};
use crate::sweep::sweep_form::bind_form;
use crate::sweep::sweep_task::SweepTask;
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::budget::SWEEP_MAX_CUSTOMERS;
use page::shared::format::dec;
use page::shared::words::Words;
use page::shared::worker_message::{Answer, Work};
use page::sweep::histogram::sweep_result_markup;
use page::sweep::query::sweep_query;
use page::sweep::query::SweepQuery;
use page::sweep::share::take_stats;
use page::sweep::sweep_forms::{seed_sweep_help, SeedSweepForm, CANCEL, RUN};
use page::sweep::sweep_progress::SweepState;
use page::sweep::views::{seed_sweep_markup, RESULTS};
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
    shown: RwSignal<SweepQuery>,
    /// Where the sweep is (the page's `data-run-state` reads it).
    state: RwSignal<SweepState>,
) -> impl IntoView {
    let form = RwSignal::new(SeedSweepForm::new(strategy, seeds));
    let problem = RwSignal::new(None::<String>);
    let task = SweepTask::new(
        state,
        problem,
        shown,
        Answer::read_stats,
        take_stats,
        rows_of,
    );
    let rows = task.result();

    let start = move || {
        let (strategies, seeds) = match form.with_untracked(SeedSweepForm::read) {
            Ok(read) => read,
            Err(why) => return problem.set(Some(why)),
        };
        let steps = match SweepJob::new(&base, &strategies, seeds, SWEEP_MAX_CUSTOMERS) {
            Ok(steps) => steps,
            Err(e) => return problem.set(Some(e.sentence())),
        };
        let one = (strategies.len() == 1).then(|| strategies[0]);
        let shown = sweep_query(one, seeds, &base);
        let work = Work::Seeds {
            base: base.clone(),
            strategies,
            seeds,
        };
        task.start(steps, work, shown);
    };
    if autostart {
        start();
    } else if warm {
        // The page exists to run sweeps: its workers load once it is idle, so the first
        // sweep does not wait for them.
        request_idle_callback(move || task.warm());
    }

    let root = NodeRef::<Div>::new();
    let on_field = bind_form(root, form, problem, state, seed_sweep_help);
    task.bind_progress(root);
    bind::node(root, RESULTS, move |el| {
        let results = rows.with(|rows| {
            rows.iter()
                .flatten()
                .map(|row| sweep_result_markup(row.strategy, &row.fields).into_string())
                .collect::<String>()
        });
        el.set_inner_html(&results);
    });
    // The view's state, how long a finished sweep took and on how many workers, for tests
    // and the page.
    watch(move || {
        let (state, took) = (state.get(), dec(task.took_ms().get(), 0));
        let used = task.workers_used().get().to_string();
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
            task.cancel();
        }
    };

    view! {
        <div class="rll-sweep" data-testid="sweep" node_ref=root inner_html=form.with_untracked(|f| seed_sweep_markup(f).into_string())
            on:input=handler(on_field) on:change=handler(on_field) on:click=handler(on_click)></div>
    }
}

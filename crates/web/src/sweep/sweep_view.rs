//! Seed sweeps in the browser: many seeds, shared out between simulation workers (one per
//! core, [`workers`]) off the page's thread, with progress and a cancel button; then each
//! key stat's distribution. The results are the same however many workers ran them (a
//! run depends on its scenario and seed only; `page::sweep::share`). Where no worker can
//! start, the page runs the seeds itself, in batches that yield to the browser every frame
//! (on [`SweepTask`]).
//!
//! The view is the page layer's live widget ([`SeedSweepView`]: the form, the progress,
//! the results and the view's state), bound by `live::view` to the form, the problem and
//! the sweep; the results ([`sweep_result_markup`]) are worked out once per sweep. One
//! delegated handler each reads typing and clicks.

use crate::shared::bind;
use crate::shared::erase::{handler, watch};
use crate::shared::live;
use crate::sweep::sweep_form::on_field;
use crate::sweep::sweep_task::SweepTask;
use leptos::prelude::*;
use page::shared::budget::SWEEP_MAX_CUSTOMERS;
use page::shared::words::Words;
use page::shared::worker_message::{Answer, Work};
use page::sweep::histogram::sweep_result_markup;
use page::sweep::query::sweep_query;
use page::sweep::query::SweepQuery;
use page::sweep::share::take_stats;
use page::sweep::sweep_forms::{SeedSweepForm, CANCEL, RUN};
use page::sweep::sweep_progress::SweepState;
use page::sweep::views::{SeedSweepView, ViewState};
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

    let on_field = on_field(form);
    // The results, worked out once per sweep (not on each edit of the form).
    let results = RwSignal::new(String::new());
    watch(move || {
        results.set(rows.with(|rows| {
            rows.iter()
                .flatten()
                .map(|row| sweep_result_markup(row.strategy, &row.fields).into_string())
                .collect::<String>()
        }));
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, RUN).is_some() {
            start();
        } else if bind::hit(&ev, CANCEL).is_some() {
            task.cancel();
        }
    };

    let shown = move || ViewState {
        form: form.get(),
        problem: problem.get(),
        sweep: task.shown(),
        result: results.get(),
    };
    view! {
        <div style="display:contents" on:input=handler(on_field) on:change=handler(on_field) on:click=handler(on_click)>
            {live::view(SeedSweepView, shown)}
        </div>
    }
}

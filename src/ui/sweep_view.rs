//! Seed sweeps in the browser: many seeds, in batches that yield to the browser every
//! frame (on [`use_animation_frame`]), with progress and a cancel button; then each key
//! stat's distribution.

use super::erase::handler;
use super::strategy_picker::label;
use super::sweep_progress::SweepProgress;
use super::sweep_result::{Row, SweepResult};
use super::use_animation_frame::{now_ms, step_for_a_frame, use_animation_frame, First, Next};
use crate::page::format::dec;
use crate::page::links::sweep_query;
use crate::page::sweep_progress::SweepState;
use crate::page::PageQuery;
use crate::page::{parse_count, DEFAULT_SWEEP_SEEDS};
use crate::sim::sweep::{SweepJob, MAX_SEEDS};
use crate::sim::{Scenario, StatField, StrategyName};
use leptos::prelude::*;

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
    let choice = RwSignal::new(strategy.map_or("all".to_string(), |s| s.as_str().to_string()));
    let seeds_text = RwSignal::new(seeds.to_string());
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
        let strategies = match choice.get_untracked().as_str() {
            "all" => StrategyName::ALL.to_vec(),
            name => match name.parse::<StrategyName>() {
                Ok(s) => vec![s],
                Err(e) => return problem.set(Some(e.to_string())),
            },
        };
        let seeds = match parse_count(&seeds_text.get_untracked(), 1, MAX_SEEDS) {
            Ok(n) => n,
            Err(why) => return problem.set(Some(format!("The number of seeds {why}."))),
        };
        let steps = match SweepJob::new(&base, &strategies, seeds) {
            Ok(steps) => steps,
            Err(e) => return problem.set(Some(e.to_string())),
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
        super::page_query::replace(&now_shown.to_query());
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

    view! {
        <div class="rll-sweep" data-testid="sweep" data-state=move || state.get().as_str() data-took-ms=move || dec(took_ms.get(), 0)>
            <p class="rll-caption">
                "One seed is one roll of the dice. A sweep runs many seeds and shows how much each number moves: "
                "which results are the strategy, and which are luck."
            </p>
            <div class="rll-controls">
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-sweep-strategy">"Strategy"</label>
                    <select
                        id="rll-sweep-strategy"
                        data-testid="sweep-strategy"
                        prop:value=move || choice.get()
                        on:change:target=move |ev| choice.set(ev.target().value())
                    >
                        <option value="all">"All ten"</option>
                        {StrategyName::ALL.map(|s| view! { <option value=s.as_str()>{label(s)}</option> }).collect_view()}
                    </select>
                </div>
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-sweep-seeds">"Seeds"</label>
                    <input
                        id="rll-sweep-seeds"
                        type="text"
                        inputmode="numeric"
                        data-testid="sweep-seeds"
                        aria-describedby="rll-sweep-help"
                        prop:value=move || seeds_text.get()
                        on:input:target=move |ev| seeds_text.set(ev.target().value())
                    />
                    <span id="rll-sweep-help" class="rll-field-help" class:rll-error=move || problem.get().is_some()>
                        {move || problem.get().unwrap_or_else(|| format!("1 to {MAX_SEEDS}; seeds 1, 2, 3, … Default {DEFAULT_SWEEP_SEEDS}."))}
                    </span>
                </div>
                <div class="rll-buttons">
                    <button type="button" class="rll-primary" data-testid="sweep-run" on:click=handler(move |_| start())>"Run sweep"</button>
                    <button
                        type="button"
                        data-testid="sweep-cancel"
                        disabled=move || state.get() != SweepState::Running
                        on:click=handler(move |_| cancel())
                    >
                        "Cancel"
                    </button>
                </div>
            </div>
            <SweepProgress label="Seeds run" progress state took_ms/>
            {move || rows.get().into_iter().map(|row| view! { <SweepResult row/> }).collect_view()}
        </div>
    }
}

//! Sweep a parameter: one parameter stepped through its values, each over many seeds,
//! for each strategy that reads it, shared out between simulation workers off the page's
//! thread (where none can start, in batches that yield to the browser every frame; both
//! on [`SweepTask`]), with progress and a cancel button; then a chart of one stat. Presets
//! set the form and start at once.
//!
//! The view is the page layer's live widget ([`ParamSweepView`]: the presets, the form,
//! the progress, the chart and the view's state), bound by `live::view` to the form, the
//! problem and the sweep; the chart is worked out once per sweep. One delegated handler
//! each reads typing and clicks by the slots the markup named its controls with.

use crate::run::strategy_picker::label;
use crate::shared::bind;
use crate::shared::erase::{handler, watch};
use crate::shared::live;
use crate::sweep::param_sweep_chart::{open_point, Line};
use crate::sweep::sweep_form::on_field;
use crate::sweep::sweep_task::SweepTask;
use leptos::prelude::*;
use page::shared::budget::SWEEP_MAX_CUSTOMERS;
use page::shared::worker_message::{Answer, Work};
use page::sweep::param_sweep::sentence;
use page::sweep::param_sweep_chart::chart_markup;
use page::sweep::query::param_sweep_query;
use page::sweep::query::SweepQuery;
use page::sweep::share::take_points;
use page::sweep::sweep_forms::{ParamSweepForm, CANCEL, PRESET, PRESET_KEY, RUN};
use page::sweep::sweep_progress::SweepState;
use page::sweep::views::{ParamSweepView as View, ViewState};
use sim::param_sweep::{ParamSweepJob, ParamSweepSpec};
use sim::Scenario;

/// What a finished sweep shows.
#[derive(Clone)]
struct Shown {
    spec: ParamSweepSpec,
    lines: Vec<Line>,
}

/// A finished sweep's parameter and each strategy's line.
fn shown_of(steps: &ParamSweepJob) -> Shown {
    Shown {
        spec: steps.spec(),
        lines: steps.lines().to_vec(),
    }
}

/// The form, the progress and the chart.
#[component]
pub fn ParamSweepView(
    /// The link's seed and numbers.
    base: Scenario,
    /// The link the page was opened with.
    query: SweepQuery,
    /// The sweep on screen, as a page: set when a sweep starts.
    shown: RwSignal<SweepQuery>,
    /// Where the sweep is (the page's `data-run-state` reads it).
    state: RwSignal<SweepState>,
) -> impl IntoView {
    let autostart = query.sweep_autostart() && query.own.param.is_some();
    let form = RwSignal::new(ParamSweepForm::initial(&query));
    let problem = RwSignal::new(None::<String>);
    let task = SweepTask::new(
        state,
        problem,
        shown,
        Answer::read_points,
        take_points,
        shown_of,
    );
    let result = task.result();
    let chart_base = base.clone();
    let base = StoredValue::new(base);

    let start = move || {
        let read = match form.with_untracked(ParamSweepForm::read) {
            Ok(read) => read,
            Err(why) => return problem.set(Some(why)),
        };
        let spec = read.spec;
        let mut now_shown =
            base.with_value(|b| param_sweep_query(spec, read.strategy, read.seeds, b));
        if read.all {
            now_shown.base.naming = page::Naming::All;
        }
        let seeds = read.seeds;
        let strategies = now_shown.param_sweep_strategies(spec.param);
        let steps = match base
            .with_value(|b| ParamSweepJob::new(b, spec, &strategies, seeds, SWEEP_MAX_CUSTOMERS))
        {
            Ok(steps) => steps,
            Err(e) => return problem.set(Some(sentence(&e))),
        };
        let work = Work::Param {
            base: base.get_value(),
            spec,
            strategies,
            seeds,
        };
        task.start(steps, work, now_shown);
    };
    if autostart {
        start();
    }
    let on_field = on_field(form);
    // The chart, worked out once a sweep has ended (not on each edit of the form).
    let chart = RwSignal::new(String::new());
    watch(move || {
        chart.set(result.with(|r| {
            r.as_ref().map_or(String::new(), |r| {
                chart_markup(&r.spec, &r.lines, &chart_base, label).into_string()
            })
        }));
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        if open_point(&ev) {
            return;
        }
        let preset = bind::hit(&ev, PRESET)
            .and_then(|b| b.get_attribute(PRESET_KEY))
            .and_then(|t| ParamSweepForm::preset_titled(&t));
        if let Some(preset) = preset {
            form.set(preset);
            start();
        } else if bind::hit(&ev, RUN).is_some() {
            start();
        } else if bind::hit(&ev, CANCEL).is_some() {
            task.cancel();
        }
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" {
            open_point(&ev);
        }
    };

    let shown = move || ViewState {
        form: form.get(),
        problem: problem.get(),
        sweep: task.shown(),
        result: chart.get(),
    };
    view! {
        <div style="display:contents" on:input=handler(on_field) on:change=handler(on_field) on:click=handler(on_click) on:keydown=handler(on_keydown)>
            {live::view(View, shown)}
        </div>
    }
}

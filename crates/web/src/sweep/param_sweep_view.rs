//! Sweep a parameter: one parameter stepped through its values, each over many seeds,
//! for each strategy that reads it, shared out between simulation workers off the page's
//! thread ([`Farm`]; where none can start, in batches that yield to the browser every
//! frame, on [`use_animation_frame`]), with progress and a cancel button; then a chart of
//! one stat. Presets set the form and start at once.
//!
//! The view is the page layer's markup ([`param_sweep_markup`]: the presets, the form,
//! the progress and where the chart goes), set once; one effect per control writes back
//! what the form's state and the sweep change, and one delegated handler each reads
//! typing and clicks by the slots the markup named its controls with.

use crate::run::strategy_picker::label;
use crate::shared::bind;
use crate::shared::dom::{set_attr, set_text};
use crate::shared::erase::{handler, watch};
use crate::shared::use_animation_frame::{
    now_ms, step_for_a_frame, use_animation_frame, First, Next,
};
use crate::sweep::param_sweep_chart::{open_point, Line};
use crate::sweep::sweep_form::bind_form;
use crate::sweep::sweep_progress::{bind_progress, sweep_farm};
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::budget::SWEEP_MAX_CUSTOMERS;
use page::shared::links::param_sweep_query;
use page::sweep::param_sweep::sentence;
use page::sweep::param_sweep_chart::chart_markup;
use page::sweep::share::{take_param_values, Work};
use page::sweep::sweep_forms::{
    param_sweep_help, Field, ParamSweepForm, CANCEL, PRESET, PRESET_KEY, RUN, STRATEGY_HINT,
};
use page::sweep::sweep_progress::SweepState;
use page::sweep::views::{param_sweep_markup, CHART};
use page::PageQuery;
use sim::param_sweep::{ParamSweepJob, ParamSweepSpec};
use sim::Scenario;

/// A sweep in progress.
struct Job {
    steps: ParamSweepJob,
    started_ms: f64,
}

/// What a finished sweep shows.
#[derive(Clone)]
struct Shown {
    spec: ParamSweepSpec,
    lines: Vec<Line>,
}

/// The form, the progress and the chart.
#[component]
pub fn ParamSweepView(
    /// The link's seed and numbers.
    base: Scenario,
    /// The link the page was opened with.
    query: PageQuery,
    /// The sweep on screen, as a page: set when a sweep starts.
    shown: RwSignal<PageQuery>,
    /// Where the sweep is (the page's `data-run-state` reads it).
    state: RwSignal<SweepState>,
) -> impl IntoView {
    let autostart = query.sweep_autostart() && query.sweep_param.is_some();
    let form = RwSignal::new(ParamSweepForm::initial(&query));
    let problem = RwSignal::new(None::<String>);
    let progress = RwSignal::new((0u64, 0u64));
    let result = RwSignal::new(None::<Shown>);
    let took_ms = RwSignal::new(0.0f64);
    let job: StoredValue<Option<Job>> = StoredValue::new(None);
    let frames = use_animation_frame();
    let chart_base = base.clone();
    let base = StoredValue::new(base);

    // A finished sweep's chart.
    let publish = move || {
        let (done, started) = job.with_value(|j| {
            let j = j.as_ref().expect("a finished job");
            (
                Shown {
                    spec: j.steps.spec(),
                    lines: j.steps.lines().to_vec(),
                },
                j.started_ms,
            )
        });
        took_ms.set(now_ms() - started);
        result.set(Some(done));
        state.set(SweepState::Done);
    };
    let frame = move || -> Next {
        match step_for_a_frame(job, |j| &mut j.steps, progress) {
            Some(true) => {
                publish();
                Next::Stop
            }
            Some(false) => Next::Frame,
            None => Next::Stop,
        }
    };
    // Workers the sweep on screen ran on (0: the page's own thread).
    let workers_used = RwSignal::new(0u32);
    let farm = sweep_farm(
        progress,
        state,
        problem,
        move |values| {
            job.update_value(|j| {
                if let Some(j) = j.as_mut() {
                    take_param_values(&mut j.steps, values);
                }
            });
        },
        publish,
    );

    let start = move || {
        let read = match form.with_untracked(ParamSweepForm::read) {
            Ok(read) => read,
            Err(why) => return problem.set(Some(why)),
        };
        let spec = read.spec;
        let now_shown = PageQuery {
            all_strategies: read.all,
            ..base.with_value(|b| param_sweep_query(spec, read.strategy, read.seeds, b))
        };
        let seeds = read.seeds;
        let strategies = now_shown.param_sweep_strategies(spec.param);
        let steps = match base
            .with_value(|b| ParamSweepJob::new(b, spec, &strategies, seeds, SWEEP_MAX_CUSTOMERS))
        {
            Ok(steps) => steps,
            Err(e) => return problem.set(Some(sentence(&e))),
        };
        problem.set(None);
        frames.stop();
        let total = steps.total();
        progress.set((0, total));
        job.set_value(Some(Job {
            steps,
            started_ms: now_ms(),
        }));
        result.set(None);
        state.set(SweepState::Running);
        let query = now_shown.to_query();
        crate::shared::page_query::replace(&query);
        shown.set(now_shown);
        match farm.start(Work::Param.as_str(), query, total) {
            Some(n) => workers_used.set(n),
            None => {
                workers_used.set(0);
                frames.start(First::NextFrame, frame);
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
    }
    let root = NodeRef::<Div>::new();
    let on_field = bind_form(root, form, problem, state, param_sweep_help);
    bind_progress(root, progress, state, took_ms, workers_used);
    // The span's unit and the strategies' hint follow the parameter.
    for field in [Field::From, Field::To] {
        if let Some(slot) = field.label_slot() {
            bind::node(root, slot, move |el| {
                set_text(el, Some(&form.with(|f| f.span_label(field))));
            });
        }
    }
    bind::node(root, STRATEGY_HINT, move |el| {
        set_text(el, Some(&form.with(ParamSweepForm::strategy_hint)));
    });
    // The chart, once a sweep has ended.
    bind::node(root, CHART, move |el| {
        let chart = result.with(|r| {
            r.as_ref().map_or(String::new(), |r| {
                chart_markup(&r.spec, &r.lines, &chart_base, label).into_string()
            })
        });
        el.set_inner_html(&chart);
    });
    // The view's state and how many workers ran it, for tests and the page.
    watch(move || {
        let (state, used) = (state.get(), workers_used.get().to_string());
        if let Some(root) = root.get() {
            set_attr(&root, "data-state", state.as_str());
            set_attr(&root, "data-workers", &used);
        }
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
            cancel();
        }
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" {
            open_point(&ev);
        }
    };

    view! {
        <div class="rll-sweep rll-psweep" data-testid="psweep" node_ref=root inner_html=form.with_untracked(|f| param_sweep_markup(f).into_string())
            on:input=handler(on_field) on:change=handler(on_field) on:click=handler(on_click) on:keydown=handler(on_keydown)></div>
    }
}

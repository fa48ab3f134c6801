//! Sweep a parameter: one parameter stepped through its values, each over many seeds,
//! for each strategy that reads it, in batches that yield to the browser every frame (on
//! [`use_animation_frame`]), with progress and a cancel button; then a chart of one
//! stat. Presets set the form and start at once.
//!
//! The form is the page layer's markup ([`ParamSweepForm::markup`]), set once; one
//! effect writes back what the form's state changes, and one delegated handler each
//! reads typing and clicks by the controls' `data-` attributes.

use crate::run::strategy_picker::label;
use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use crate::shared::use_animation_frame::{
    now_ms, step_for_a_frame, use_animation_frame, First, Next,
};
use crate::sweep::param_sweep_chart::{open_point, Line};
use crate::sweep::sweep_form::bind_form;
use crate::sweep::sweep_progress::SweepProgress;
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::links::param_sweep_query;
use page::sweep::param_sweep::sentence;
use page::sweep::param_sweep_chart::chart_markup;
use page::sweep::sweep_forms::{param_sweep_help, ParamSweepForm};
use page::sweep::sweep_progress::SweepState;
use page::PageQuery;
use sim::param_sweep::{ParamSweepJob, ParamSweepSpec};
use sim::Scenario;
use web_sys::Element;

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

    let frame = move || -> Next {
        let finished = step_for_a_frame(job, |j| &mut j.steps, progress);
        match finished {
            Some(true) => {
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
                Next::Stop
            }
            Some(false) => Next::Frame,
            None => Next::Stop,
        }
    };

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
        let steps = match base.with_value(|b| ParamSweepJob::new(b, spec, &strategies, seeds)) {
            Ok(steps) => steps,
            Err(e) => return problem.set(Some(sentence(&e))),
        };
        problem.set(None);
        frames.stop();
        progress.set((0, steps.total()));
        job.set_value(Some(Job {
            steps,
            started_ms: now_ms(),
        }));
        result.set(None);
        state.set(SweepState::Running);
        crate::shared::page_query::replace(&now_shown.to_query());
        shown.set(now_shown);
        frames.start(First::NextFrame, frame);
    };
    let cancel = move || {
        frames.stop();
        state.set(SweepState::Cancelled);
    };
    if autostart {
        start();
    }
    let root = NodeRef::<Div>::new();
    let find = move |selector: &str| root.get()?.query_selector(selector).ok()?;
    let on_field = bind_form(root, form, problem, state, param_sweep_help);
    // The span's unit and the strategies' hint follow the parameter.
    watch(move || {
        form.with(|f| {
            for field in ["from", "to"] {
                if let Some(label) = find(&format!("[data-label={field}]")) {
                    label.set_text_content(Some(&f.span_label(field)));
                }
            }
            if let Some(hint) = find("[data-hint]") {
                hint.set_text_content(Some(&f.strategy_hint()));
            }
        });
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(button) =
            target_as::<Element>(&ev).and_then(|e| e.closest("button").ok().flatten())
        else {
            return;
        };
        if let Some(preset) = button
            .get_attribute("data-preset")
            .and_then(|t| ParamSweepForm::preset_titled(&t))
        {
            form.set(preset);
            start();
            return;
        }
        match button.get_attribute("data-action").as_deref() {
            Some("run") => start(),
            Some("cancel") => cancel(),
            _ => {}
        }
    };

    // The chart, once a sweep has ended.
    let chart = move || {
        result.with(|r| {
            r.as_ref().map_or(String::new(), |r| {
                chart_markup(&r.spec, &r.lines, &chart_base, label)
            })
        })
    };

    view! {
        <div class="rll-sweep rll-psweep" data-testid="psweep" data-state=move || state.get().as_str()>
            <h3>"Sweep a parameter"</h3>
            <p class="rll-caption">
                "Step one number from one value to another and run every value over many seeds: "
                "each line is a strategy's median, its band the lowest and highest seed. Click a point to open that run."
            </p>
            <div node_ref=root inner_html=form.with_untracked(ParamSweepForm::markup)
                on:input=handler(on_field) on:change=handler(on_field) on:click=handler(on_click)></div>
            <SweepProgress label="Parameter sweep runs" progress state took_ms/>
            <div class="rll-psweep-chart" inner_html=chart
                on:click=handler(move |ev: web_sys::MouseEvent| open_point(ev.target()))
                on:keydown=handler(move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" { open_point(ev.target()) })>
            </div>
        </div>
    }
}

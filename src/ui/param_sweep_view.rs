//! Sweep a parameter: one parameter stepped through its values, each over many seeds,
//! for each strategy that reads it, in batches that yield to the browser every frame (on
//! [`use_animation_frame`]), with progress and a cancel button; then a chart of one
//! stat. Presets set the form and start at once.

use super::erase::handler;
use super::param_sweep_chart::{Line, ParamSweepChart};
use super::strategy_picker::label;
use super::sweep_progress::SweepProgress;
use super::use_animation_frame::{now_ms, step_for_a_frame, use_animation_frame, First, Next};
use crate::page::links::param_sweep_query;
use crate::page::param_sweep::{
    default_span, sentence, sweepable, value_text, Preset, DEFAULT_STEPS, PRESETS, PRESET_SEEDS,
};
use crate::page::stats::stat_text;
use crate::page::sweep_progress::SweepState;
use crate::page::{param, parse_count, spec, PageQuery, ParamValue, PARAMS};
use crate::sim::param_sweep::{ParamSweepJob, ParamSweepSpec, MAX_STEPS, MIN_STEPS};
use crate::sim::sweep::MAX_SEEDS;
use crate::sim::{Scenario, StatField, StrategyName};
use leptos::prelude::*;

/// The form's text, as typed.
#[derive(Clone)]
struct Form {
    param: String,
    from: String,
    to: String,
    steps: String,
    stat: String,
    /// `""` for every strategy that reads the parameter, `all`, or one name.
    strategy: String,
    seeds: String,
}

impl Form {
    fn of(sp: ParamSweepSpec, strategy: &str, seeds: u64) -> Self {
        Self {
            param: spec(sp.param).key.to_string(),
            from: value_text(sp.param, sp.from),
            to: value_text(sp.param, sp.to),
            steps: sp.steps.to_string(),
            stat: sp.stat.as_str().to_string(),
            strategy: strategy.to_string(),
            seeds: seeds.to_string(),
        }
    }
}

/// The sweep a page state asks for, or the first preset's.
fn initial(query: &PageQuery) -> Form {
    match query.sweep_param {
        Some(sp) => {
            let strategy = match (query.all_strategies, query.strategy) {
                (true, _) => "all".to_string(),
                (false, Some(s)) => s.as_str().to_string(),
                (false, None) => String::new(),
            };
            Form::of(sp, &strategy, query.seeds)
        }
        None => preset_form(&PRESETS[0]),
    }
}

fn preset_form(p: &Preset) -> Form {
    Form::of(p.spec, p.strategy.map_or("", |s| s.as_str()), PRESET_SEEDS)
}

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
    let form = RwSignal::new(initial(&query));
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
        let f = form.get_untracked();
        let Some(ps) = param(&f.param).filter(|p| sweepable(p.param)) else {
            return problem.set(Some(format!(
                "Pick a parameter to sweep, not '{}'.",
                f.param
            )));
        };
        let read = |what: &str, text: &str| match ps.parse(text) {
            Ok(ParamValue::Whole(n)) => Ok(n),
            Ok(_) => Err(format!("The {what} value is not a number.")),
            Err(why) => Err(format!("The {what} value: {why}")),
        };
        let spec = match (
            read("from", &f.from),
            read("to", &f.to),
            parse_count(&f.steps, MIN_STEPS, MAX_STEPS),
            f.stat.parse::<StatField>(),
        ) {
            (Ok(from), Ok(to), Ok(steps), Ok(stat)) => ParamSweepSpec {
                param: ps.param,
                from,
                to,
                steps,
                stat,
            },
            (Err(why), ..) | (_, Err(why), ..) => return problem.set(Some(why)),
            (_, _, Err(why), _) => return problem.set(Some(format!("The number of steps {why}."))),
            (.., Err(e)) => return problem.set(Some(e.to_string())),
        };
        let seeds = match parse_count(&f.seeds, 1, MAX_SEEDS) {
            Ok(n) => n,
            Err(why) => return problem.set(Some(format!("The number of seeds {why}."))),
        };
        let (one, all) = match f.strategy.as_str() {
            "" => (None, false),
            "all" => (None, true),
            name => match name.parse::<StrategyName>() {
                Ok(s) => (Some(s), false),
                Err(e) => return problem.set(Some(e.to_string())),
            },
        };
        let now_shown = PageQuery {
            all_strategies: all,
            ..base.with_value(|b| param_sweep_query(spec, one, seeds, b))
        };
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
        super::page_query::replace(&now_shown.to_query());
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
    let set = move |which: fn(&mut Form) -> &mut String, value: String| {
        form.update(|f| *which(f) = value);
    };
    let pick_param = move |key: String| {
        if let Some(p) = param(&key) {
            let (lo, hi) = default_span(p.param);
            form.update(|f| {
                f.param = key;
                f.from = value_text(p.param, lo);
                f.to = value_text(p.param, hi);
                f.steps = DEFAULT_STEPS.to_string();
            });
        }
    };
    let unit = move || form.with(|f| param(&f.param).map_or("", |p| p.unit));
    let presets = PRESETS
        .iter()
        .map(|p| {
            let p = *p;
            view! {
                <button type="button" data-preset=p.title on:click=handler(move |_| {
                    form.set(preset_form(&p));
                    start();
                })>{p.title}</button>
            }
        })
        .collect_view();
    let param_options = PARAMS
        .iter()
        .filter(|p| sweepable(p.param))
        .map(|p| view! { <option value=p.key>{p.label}</option> })
        .collect_view();
    let stat_options = StatField::ALL
        .map(|s| view! { <option value=s.as_str()>{stat_text(s).label}</option> })
        .collect_view();
    let strategy_hint = move || {
        form.with(|f| {
            param(&f.param).map_or(String::new(), |p| {
                let names: Vec<&str> = crate::sim::param_sweep::strategies_using(p.param)
                    .into_iter()
                    .map(label)
                    .collect();
                format!("Those that use it ({})", names.join(", "))
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
            <div class="rll-buttons" role="group" aria-label="Presets">{presets}</div>
            <div class="rll-controls">
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-psweep-param">"Parameter"</label>
                    <select id="rll-psweep-param" data-testid="psweep-param"
                        prop:value=move || form.with(|f| f.param.clone())
                        on:change:target=move |ev| pick_param(ev.target().value())>
                        {param_options}
                    </select>
                </div>
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-psweep-from">{move || format!("From ({})", unit())}</label>
                    <input id="rll-psweep-from" type="text" inputmode="decimal" data-testid="psweep-from"
                        prop:value=move || form.with(|f| f.from.clone())
                        on:input:target=move |ev| set(|f| &mut f.from, ev.target().value())/>
                </div>
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-psweep-to">{move || format!("To ({})", unit())}</label>
                    <input id="rll-psweep-to" type="text" inputmode="decimal" data-testid="psweep-to"
                        prop:value=move || form.with(|f| f.to.clone())
                        on:input:target=move |ev| set(|f| &mut f.to, ev.target().value())/>
                </div>
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-psweep-steps">"Steps"</label>
                    <input id="rll-psweep-steps" type="text" inputmode="numeric" data-testid="psweep-steps"
                        prop:value=move || form.with(|f| f.steps.clone())
                        on:input:target=move |ev| set(|f| &mut f.steps, ev.target().value())/>
                </div>
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-psweep-stat">"Stat"</label>
                    <select id="rll-psweep-stat" data-testid="psweep-stat"
                        prop:value=move || form.with(|f| f.stat.clone())
                        on:change:target=move |ev| set(|f| &mut f.stat, ev.target().value())>
                        {stat_options}
                    </select>
                </div>
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-psweep-strategy">"Strategies"</label>
                    <select id="rll-psweep-strategy" data-testid="psweep-strategy"
                        prop:value=move || form.with(|f| f.strategy.clone())
                        on:change:target=move |ev| set(|f| &mut f.strategy, ev.target().value())>
                        <option value="">{strategy_hint}</option>
                        <option value="all">"All ten"</option>
                        {StrategyName::ALL.map(|s| view! { <option value=s.as_str()>{label(s)}</option> }).collect_view()}
                    </select>
                </div>
                <div class="rll-field">
                    <label class="rll-field-label" for="rll-psweep-seeds">"Seeds"</label>
                    <input id="rll-psweep-seeds" type="text" inputmode="numeric" data-testid="psweep-seeds"
                        aria-describedby="rll-psweep-help"
                        prop:value=move || form.with(|f| f.seeds.clone())
                        on:input:target=move |ev| set(|f| &mut f.seeds, ev.target().value())/>
                    <span id="rll-psweep-help" class="rll-field-help" class:rll-error=move || problem.get().is_some()>
                        {move || problem.get().unwrap_or_else(|| format!("Steps {MIN_STEPS} to {MAX_STEPS}; seeds 1, 2, 3, …"))}
                    </span>
                </div>
                <div class="rll-buttons">
                    <button type="button" class="rll-primary" data-testid="psweep-run" on:click=handler(move |_| start())>"Run parameter sweep"</button>
                    <button type="button" data-testid="psweep-cancel"
                        disabled=move || state.get() != SweepState::Running
                        on:click=handler(move |_| cancel())>"Cancel"</button>
                </div>
            </div>
            <SweepProgress label="Parameter sweep runs" progress state took_ms/>
            {move || result.get().map(|r| view! { <ParamSweepChart spec=r.spec lines=r.lines base=chart_base.clone()/> })}
        </div>
    }
}

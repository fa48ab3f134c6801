//! The sweep page's two views, each a live widget: the seed sweep ([`SeedSweepView`]: its
//! caption, its form, its progress and its results) and the parameter sweep
//! ([`ParamSweepView`]: its heading, caption, presets and form, its progress and its
//! chart). Each is drawn once; what a sweep or an edit changes (a field's value, the help
//! line, Cancel, the bar, the line under it, the view's `data-state`, the results or the
//! chart once a sweep ends) is recorded as it is drawn, and the UI writes only that.

use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::slot;
use crate::sweep::sweep_forms::{FormShown, ParamSweepForm, SeedSweepForm};
use crate::sweep::sweep_progress::{sweep_progress_drawn, SweepShown, PARAM_SWEEP_RUNS, SEEDS_RUN};
use maud::{html, Markup, PreEscaped};

/// The seed sweep's heading.
pub const SWEEP_TITLE: &str = "Sweep seeds";

/// Each view's outer node: its `data-state`, and how long and on how many workers the
/// sweep on screen ran.
pub const VIEW: Slot = slot!("sweep-view");

/// Where the seed sweep's results go.
pub const RESULTS: Slot = slot!("sweep-results");

/// Where the parameter sweep's chart goes.
pub const CHART: Slot = slot!("sweep-chart");

/// What a sweep view shows: its form as typed, why it cannot run, where its sweep is, and
/// what the finished sweep shows (the page layer's markup for it: the seed sweep's
/// distributions, the parameter sweep's chart; empty before one has finished).
#[derive(Clone, Debug)]
pub struct ViewState<F> {
    /// The form, as typed.
    pub form: F,
    /// Why the form cannot run, or why the sweep stopped.
    pub problem: Option<String>,
    /// Where the sweep is.
    pub sweep: SweepShown,
    /// What the finished sweep shows, as this layer's markup (`into_string`).
    pub result: String,
}

impl<F> ViewState<F> {
    /// What the form shows besides its fields.
    fn form_shown(&self) -> FormShown<'_> {
        FormShown {
            problem: self.problem.as_deref(),
            running: self.sweep.state == super::sweep_progress::SweepState::Running,
        }
    }
}

/// The seed sweep: the caption, the form, the progress and the results, the view's
/// state on its outer node. The results are a markup hole: each sweep draws a new list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedSweepView;

impl Live for SeedSweepView {
    type State = ViewState<SeedSweepForm>;

    fn shape(&self, _: &Self::State) -> u64 {
        0
    }

    fn draw(&self, s: &Self::State, fill: &mut Fill) -> Markup {
        let sweep = s.sweep;
        html! {
            div.rll-sweep data-testid="sweep" data-slot=(VIEW)
                data-state=(fill.attr(VIEW, "data-state", sweep.state.as_str()))
                data-took-ms=(fill.attr_text(VIEW, "data-took-ms", sweep.took_ms.to_string()))
                data-workers=(fill.attr_text(VIEW, "data-workers", sweep.workers.to_string())) {
                p.rll-caption {
                    "One seed is one roll of the dice. A sweep runs many seeds and shows how much each number moves: "
                    "which results are the strategy, and which are luck."
                }
                div { (s.form.draw(s.form_shown(), fill)) }
                (sweep_progress_drawn(SEEDS_RUN, &sweep, fill))
                div data-slot=(RESULTS) { (fill.markup(RESULTS, PreEscaped(s.result.clone()))) }
            }
        }
    }
}

/// The parameter sweep: the heading, caption, presets and form, the progress and the
/// chart, the view's state on its outer node. The chart is a markup hole: each sweep
/// draws a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSweepView;

impl Live for ParamSweepView {
    type State = ViewState<ParamSweepForm>;

    fn shape(&self, _: &Self::State) -> u64 {
        0
    }

    fn draw(&self, s: &Self::State, fill: &mut Fill) -> Markup {
        let sweep = s.sweep;
        html! {
            div.rll-sweep.rll-psweep data-testid="psweep" data-slot=(VIEW)
                data-state=(fill.attr(VIEW, "data-state", sweep.state.as_str()))
                data-workers=(fill.attr_text(VIEW, "data-workers", sweep.workers.to_string())) {
                h3 { "Sweep a parameter" }
                p.rll-caption {
                    "Step one number from one value to another and run every value over many seeds: "
                    "each line is a strategy's median, its band the lowest and highest seed. Click a point to open that run."
                }
                div { (s.form.draw(s.form_shown(), fill)) }
                (sweep_progress_drawn(PARAM_SWEEP_RUNS, &sweep, fill))
                div.rll-psweep-chart data-slot=(CHART) { (fill.markup(CHART, PreEscaped(s.result.clone()))) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::live::{check_drawn, Write};
    use crate::shared::progress::{BAR, BAR_FILL};
    use crate::sweep::query::SweepQuery;
    use crate::sweep::sweep_forms::{Field, Fields, CANCEL, HELP, RUN, STRATEGY_HINT};
    use crate::sweep::sweep_progress::{SweepState, PROGRESS_LINE};

    fn count(m: &str, slot: Slot) -> usize {
        m.matches(&format!("data-slot=\"{}\"", slot.name())).count()
    }

    fn seeds() -> ViewState<SeedSweepForm> {
        ViewState {
            form: SeedSweepForm::new(None, 30),
            problem: None,
            sweep: SweepShown::default(),
            result: String::new(),
        }
    }

    fn params() -> ViewState<ParamSweepForm> {
        ViewState {
            form: ParamSweepForm::initial(&SweepQuery::default()),
            problem: None,
            sweep: SweepShown::default(),
            result: String::new(),
        }
    }

    /// The states a view goes through: idle, a problem, running on workers, done with a
    /// result, and a new parameter with its own span.
    fn states<F: Clone + Fields>(first: ViewState<F>) -> Vec<ViewState<F>> {
        let mut out = vec![first.clone()];
        let mut s = first.clone();
        s.problem = Some("The number of seeds is not a whole number.".into());
        s.form.set(Field::Seeds, "x<y".into());
        out.push(s);
        let mut s = first.clone();
        s.sweep = SweepShown {
            state: SweepState::Running,
            done: 1_200,
            total: 6_000,
            took_ms: 0,
            workers: 4,
        };
        out.push(s.clone());
        s.sweep.state = SweepState::Done;
        s.sweep.done = 6_000;
        s.sweep.took_ms = 1_450;
        s.result = "<p>the result</p>".into();
        out.push(s.clone());
        s.form.set(Field::Param, "maxInflight".into());
        out.push(s);
        out
    }

    #[test]
    fn each_view_names_every_node_it_writes_once() {
        let seeds = SeedSweepView.markup(&seeds()).into_string();
        let params = ParamSweepView.markup(&params()).into_string();
        for (m, fields, place) in [
            (&seeds, SeedSweepForm::FIELDS, RESULTS),
            (&params, ParamSweepForm::FIELDS, CHART),
        ] {
            let shared = [BAR, BAR_FILL, PROGRESS_LINE, HELP, RUN, CANCEL, VIEW, place];
            for slot in fields.iter().map(|f: &Field| f.slot()).chain(shared) {
                assert_eq!(count(m, slot), 1, "{slot:?}: {m}");
            }
            assert!(m.contains(" data-state=\"idle\""), "{m}");
            assert!(m.contains(" disabled>Cancel</button>"), "{m}");
        }
        assert!(seeds.contains("data-testid=\"sweep\""));
        assert!(params.contains("data-testid=\"psweep\""));
        assert!(seeds.contains(&format!("aria-label=\"{SEEDS_RUN}\"")));
        assert!(params.contains(&format!("aria-label=\"{PARAM_SWEEP_RUNS}\"")));
    }

    #[test]
    fn every_live_node_of_both_views_is_drawn_as_it_is_filled() {
        for s in states(seeds()) {
            check_drawn(&SeedSweepView, &s).unwrap();
        }
        for s in states(params()) {
            check_drawn(&ParamSweepView, &s).unwrap();
        }
    }

    /// The writes of `b` that differ from `a`'s, by slot name.
    fn changed<L: Live>(widget: &L, a: &L::State, b: &L::State) -> Vec<(&'static str, Write)> {
        let (mut fa, mut fb) = (Fill::default(), Fill::default());
        widget.draw(a, &mut fa);
        widget.draw(b, &mut fb);
        assert_eq!(fa.writes().len(), fb.writes().len());
        fb.changed_since(&fa)
            .map(|(hole, write)| (hole.slot.name(), write.clone()))
            .collect()
    }

    #[test]
    fn a_run_more_rewrites_the_bar_and_its_line_only() {
        let mut a = seeds();
        a.sweep = SweepShown {
            state: SweepState::Running,
            done: 10,
            total: 300,
            took_ms: 0,
            workers: 2,
        };
        let mut b = a.clone();
        b.sweep.done = 11;
        let names: Vec<&str> = changed(&SeedSweepView, &a, &b)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(
            names,
            [BAR.name(), BAR_FILL.name(), PROGRESS_LINE.name()],
            "the bar's number, its fill and the line"
        );
        // A new parameter rewrites its span's values and labels and the strategies' hint,
        // and the sweep's progress nothing.
        let a = params();
        let mut b = a.clone();
        b.form.set(Field::Param, "maxInflight".into());
        let names: Vec<&str> = changed(&ParamSweepView, &a, &b)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        for slot in [Field::Param.slot(), Field::From.slot(), STRATEGY_HINT] {
            assert!(names.contains(&slot.name()), "{slot:?}: {names:?}");
        }
        assert!(
            !names.contains(&BAR.name()) && !names.contains(&VIEW.name()),
            "{names:?}"
        );
    }
}

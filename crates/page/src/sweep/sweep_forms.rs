//! The sweep page's two forms, as markup and as the rules that read them: the seed
//! sweep (a strategy and a number of seeds) and the parameter sweep (a parameter, its
//! span, the steps, the stat, the strategies and the seeds, or a preset).
//!
//! Each form is drawn live ([`SeedSweepForm::draw`], [`ParamSweepForm::draw`], inside
//! the views of [`super::views`]): what changes (a field's value, a unit, the help line,
//! whether Cancel is enabled) is recorded as it is drawn, and the UI writes only that; it
//! hands each field's text to [`SeedSweepForm::set`] or [`ParamSweepForm::set`] by the
//! [`Field`] whose slot it is.
//! Reading the form ([`SeedSweepForm::read`], [`ParamSweepForm::read`]) gives the
//! sweep to run or the sentence that says why it cannot run.

use super::query::{SweepQuery, DEFAULT_SWEEP_SEEDS};
use crate::shared::live::Fill;
use crate::shared::params::{param, spec, ParamValue, PARAMS};
use crate::shared::slot::Slot;
use crate::shared::stats::stat_text;
use crate::shared::titles::strategy_label;
use crate::shared::words::Words;
use crate::sweep::param_sweep::{
    default_span, sweepable, value_text, Preset, DEFAULT_STEPS, PRESETS, PRESET_SEEDS,
};
use crate::{parse_count, slot, Naming};
use maud::{html, Markup};
use sim::param_sweep::{strategies_using, ParamSweepSpec, MAX_STEPS, MIN_STEPS};
use sim::sweep::MAX_SEEDS;
use sim::{StatField, StrategyName};

/// A field of the sweep forms, as the UI finds it (by [`Field::slot`]) and the forms
/// read and write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The parameter swept (its URL key).
    Param,
    /// The span's first value.
    From,
    /// The span's last value.
    To,
    /// How many values.
    Steps,
    /// The stat charted.
    Stat,
    /// The strategies: `all`, one name, or (the parameter sweep's) those that use it.
    Strategy,
    /// The number of seeds.
    Seeds,
}

impl Field {
    /// Its control.
    pub const fn slot(self) -> Slot {
        match self {
            Field::Param => slot!("field-param"),
            Field::From => slot!("field-from"),
            Field::To => slot!("field-to"),
            Field::Steps => slot!("field-steps"),
            Field::Stat => slot!("field-stat"),
            Field::Strategy => slot!("field-strategy"),
            Field::Seeds => slot!("field-seeds"),
        }
    }

    /// Its label, when the label changes with the form (the span's, which names the
    /// parameter's unit).
    pub const fn label_slot(self) -> Option<Slot> {
        match self {
            Field::From => Some(slot!("label-from")),
            Field::To => Some(slot!("label-to")),
            _ => None,
        }
    }
}

/// A form's fields, as the UI reads and writes them.
pub trait Fields {
    /// Every field, in the form's order.
    const FIELDS: &'static [Field];
    /// The text of `field`, if the form has it.
    fn get(&self, field: Field) -> Option<&str>;
    /// Takes the text of `field`.
    fn set(&mut self, field: Field, text: String);
}

/// A form's help line: the rule, or why the form cannot run.
pub const HELP: Slot = slot!("sweep-help");
/// A form's Run button.
pub const RUN: Slot = slot!("sweep-run");
/// A form's Cancel button, enabled only while a sweep runs.
pub const CANCEL: Slot = slot!("sweep-cancel");
/// Each preset's button; which preset, its [`PRESET_KEY`].
pub const PRESET: Slot = slot!("sweep-preset");
/// The attribute of a preset's button that holds the preset's title.
pub const PRESET_KEY: &str = "data-preset";
/// The parameter sweep's first strategy choice, whose words name the strategies that
/// use the parameter.
pub const STRATEGY_HINT: Slot = slot!("strategy-hint");

/// What the seed sweep's help line says while the form can be read.
pub fn seed_sweep_help() -> String {
    format!("1 to {MAX_SEEDS}; seeds 1, 2, 3, … Default {DEFAULT_SWEEP_SEEDS}.")
}

/// What the parameter sweep's help line says while the form can be read.
pub fn param_sweep_help() -> String {
    format!("Steps {MIN_STEPS} to {MAX_STEPS}; seeds 1, 2, 3, …")
}

/// The options of a strategy choice, `selected` marked.
fn strategy_options(selected: &str) -> Markup {
    html! {
        @for s in StrategyName::ALL { (option(s.as_str(), strategy_label(s), selected)) }
    }
}

/// One option, marked if its value is `selected`.
fn option(value: &str, text: &str, selected: &str) -> Markup {
    html! { option value=(value) selected[value == selected] { (text) } }
}

/// What a form shows besides its fields: why it cannot run (its help line, in place of
/// the rule), and whether a sweep runs (Cancel is enabled only then).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormShown<'a> {
    /// Why the form cannot run, or why the sweep stopped.
    pub problem: Option<&'a str>,
    /// Whether a sweep runs.
    pub running: bool,
}

/// A form's help line: `help`'s id, and the rule (`rule`) or the problem in its place.
struct Help<'a> {
    id: &'a str,
    rule: String,
}

/// A labelled text field of a form holding `value`, drawn live (its value, and its label
/// where the label changes with the form), with its help line after it if it has one.
#[allow(clippy::too_many_arguments)]
fn text_field(
    id: &str,
    field: Field,
    label: &str,
    inputmode: &str,
    value: &str,
    help: Option<Help<'_>>,
    shown: FormShown<'_>,
    fill: &mut Fill,
) -> Markup {
    html! {
        div.rll-field {
            @if let Some(slot) = field.label_slot() {
                label.rll-field-label for=(id) data-slot=(slot) { (fill.text(slot, label.to_string())) }
            } @else {
                label.rll-field-label for=(id) { (label) }
            }
            input id=(id) type="text" inputmode=(inputmode) data-testid=(id.trim_start_matches("rll-"))
                data-slot=(field.slot()) value=(fill.value(field.slot(), value.to_string())) aria-describedby=[help.as_ref().map(|h| h.id)];
            @if let Some(help) = help {
                @let error = fill.class(HELP, "rll-error", shown.problem.is_some());
                span id=(help.id) .rll-field-help .rll-error[error] data-slot=(HELP) {
                    (fill.text(HELP, shown.problem.map_or(help.rule, str::to_string)))
                }
            }
        }
    }
}

/// A labelled select of a form, `value` chosen (the option that marks it is the page's;
/// the value is recorded so the UI can choose it when the form changes it).
fn select_field(
    id: &str,
    field: Field,
    label: &str,
    value: &str,
    options: Markup,
    fill: &mut Fill,
) -> Markup {
    fill.value(field.slot(), value.to_string());
    html! {
        div.rll-field {
            label.rll-field-label for=(id) { (label) }
            select id=(id) data-testid=(id.trim_start_matches("rll-")) data-slot=(field.slot()) { (options) }
        }
    }
}

/// The Run and Cancel buttons (Cancel enabled only while a sweep runs), their test ids
/// after `prefix`.
fn buttons(prefix: &str, run: &str, shown: FormShown<'_>, fill: &mut Fill) -> Markup {
    html! {
        div.rll-buttons {
            button.rll-primary type="button" data-testid={ (prefix) "-run" } data-slot=(RUN) { (run) }
            button type="button" data-testid={ (prefix) "-cancel" } data-slot=(CANCEL) disabled[fill.flag(CANCEL, "disabled", !shown.running)] { "Cancel" }
        }
    }
}

/// The seed sweep's form, as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedSweepForm {
    /// `all`, or one strategy's name.
    pub strategy: String,
    /// The number of seeds.
    pub seeds: String,
}

impl SeedSweepForm {
    /// The form for a strategy (or all with `None`) and a number of seeds.
    pub fn new(strategy: Option<StrategyName>, seeds: u64) -> Self {
        Self {
            strategy: strategy.map_or("all", |s| s.as_str()).to_string(),
            seeds: seeds.to_string(),
        }
    }

    /// The strategies to sweep and the number of seeds, or why the form cannot run.
    pub fn read(&self) -> Result<(Vec<StrategyName>, u64), String> {
        let strategies = match self.strategy.as_str() {
            "all" => StrategyName::ALL.to_vec(),
            name => vec![name.parse::<StrategyName>().map_err(|e| e.sentence())?],
        };
        let seeds = parse_count(&self.seeds, 1, MAX_SEEDS)
            .map_err(|why| format!("The number of seeds {why}."))?;
        Ok((strategies, seeds))
    }

    /// The form's markup, with its values and `shown`, each live node recorded in `fill`.
    pub fn draw(&self, shown: FormShown<'_>, fill: &mut Fill) -> Markup {
        let strategies = html! {
            (option("all", ALL_TEN, &self.strategy))
            (strategy_options(&self.strategy))
        };
        let help = Help {
            id: "rll-sweep-help",
            rule: seed_sweep_help(),
        };
        html! {
            div.rll-controls {
                (select_field("rll-sweep-strategy", Field::Strategy, "Strategy", &self.strategy, strategies, fill))
                (text_field("rll-sweep-seeds", Field::Seeds, "Seeds", "numeric", &self.seeds, Some(help), shown, fill))
                (buttons("sweep", "Run sweep", shown, fill))
            }
        }
    }
}

/// The strategy choice that sweeps every strategy.
const ALL_TEN: &str = "All ten";

impl Fields for SeedSweepForm {
    const FIELDS: &'static [Field] = &[Field::Strategy, Field::Seeds];

    fn set(&mut self, field: Field, text: String) {
        match field {
            Field::Strategy => self.strategy = text,
            Field::Seeds => self.seeds = text,
            _ => {}
        }
    }

    fn get(&self, field: Field) -> Option<&str> {
        match field {
            Field::Strategy => Some(&self.strategy),
            Field::Seeds => Some(&self.seeds),
            _ => None,
        }
    }
}

/// The parameter sweep's form, as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSweepForm {
    /// The parameter's URL key.
    pub param: String,
    /// The first value, in the parameter's unit.
    pub from: String,
    /// The last value, in the parameter's unit.
    pub to: String,
    /// How many values.
    pub steps: String,
    /// The stat's name.
    pub stat: String,
    /// `""` for every strategy that reads the parameter, `all`, or one name.
    pub strategy: String,
    /// The number of seeds per value.
    pub seeds: String,
}

/// A parameter sweep read from its form: what to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSweepRead {
    /// The parameter, its span, its steps and the stat.
    pub spec: ParamSweepSpec,
    /// One strategy, if one was chosen.
    pub strategy: Option<StrategyName>,
    /// Every strategy, not only those that read the parameter.
    pub all: bool,
    /// Seeds per value.
    pub seeds: u64,
}

/// The parameter sweep form's fields, in its order.
pub const PARAM_SWEEP_FIELDS: [Field; 7] = [
    Field::Param,
    Field::From,
    Field::To,
    Field::Steps,
    Field::Stat,
    Field::Strategy,
    Field::Seeds,
];

impl ParamSweepForm {
    /// The form for a sweep, a strategy choice (`""`, `all` or a name) and seeds.
    pub fn of(sp: ParamSweepSpec, strategy: &str, seeds: u64) -> Self {
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

    /// The form a preset fills in.
    pub fn preset(p: &Preset) -> Self {
        Self::of(p.spec, p.strategy.map_or("", |s| s.as_str()), PRESET_SEEDS)
    }

    /// The preset whose button says `title`.
    pub fn preset_titled(title: &str) -> Option<Self> {
        PRESETS.iter().find(|p| p.title == title).map(Self::preset)
    }

    /// The sweep a page's link asks for, or the first preset's.
    pub fn initial(query: &SweepQuery) -> Self {
        match query.own.param {
            Some(sp) => {
                let strategy = match query.base.naming {
                    Naming::All => "all",
                    Naming::One => query.base.scenario.strategy.as_str(),
                    Naming::Unnamed => "",
                };
                Self::of(sp, strategy, query.own.seeds)
            }
            None => Self::preset(&PRESETS[0]),
        }
    }

    /// The unit of the chosen parameter (`ms`, `workers`, …), or nothing.
    pub fn unit(&self) -> &'static str {
        param(&self.param).map_or("", |p| p.unit)
    }

    /// The label of the span's [`Field::From`] or [`Field::To`], with the unit.
    pub fn span_label(&self, field: Field) -> String {
        let word = if field == Field::To { "To" } else { "From" };
        format!("{word} ({})", self.unit())
    }

    /// The first strategy choice's words: the strategies that read the parameter.
    pub fn strategy_hint(&self) -> String {
        param(&self.param).map_or(String::new(), |p| {
            let names: Vec<&str> = strategies_using(p.param)
                .into_iter()
                .map(strategy_label)
                .collect();
            format!("Those that use it ({})", names.join(", "))
        })
    }

    /// What to run, or the sentence that says why the form cannot run.
    pub fn read(&self) -> Result<ParamSweepRead, String> {
        let Some(ps) = param(&self.param).filter(|p| sweepable(p.param)) else {
            return Err(format!("Pick a parameter to sweep, not '{}'.", self.param));
        };
        let end = |what: &str, text: &str| match ps.parse(text) {
            Ok(ParamValue::Whole(n)) => Ok(n),
            Ok(_) => Err(format!("The {what} value is not a number.")),
            Err(why) => Err(format!("The {what} value: {why}")),
        };
        let from = end("from", &self.from)?;
        let to = end("to", &self.to)?;
        let steps = parse_count(&self.steps, MIN_STEPS, MAX_STEPS)
            .map_err(|why| format!("The number of steps {why}."))?;
        let stat = self.stat.parse::<StatField>().map_err(|e| e.sentence())?;
        let seeds = parse_count(&self.seeds, 1, MAX_SEEDS)
            .map_err(|why| format!("The number of seeds {why}."))?;
        let (strategy, all) = match self.strategy.as_str() {
            "" => (None, false),
            "all" => (None, true),
            name => (
                Some(name.parse::<StrategyName>().map_err(|e| e.sentence())?),
                false,
            ),
        };
        Ok(ParamSweepRead {
            spec: ParamSweepSpec {
                param: ps.param,
                from,
                to,
                steps,
                stat,
            },
            strategy,
            all,
            seeds,
        })
    }

    /// The presets' buttons and the form, with its values and `shown`, each live node
    /// recorded in `fill`.
    pub fn draw(&self, shown: FormShown<'_>, fill: &mut Fill) -> Markup {
        let params = html! {
            @for p in PARAMS.iter().filter(|p| sweepable(p.param)) {
                (option(p.key, p.label, &self.param))
            }
        };
        let stats = html! {
            @for s in StatField::ALL { (option(s.as_str(), stat_text(s).label, &self.stat)) }
        };
        let strategies = html! {
            option value="" data-slot=(STRATEGY_HINT) selected[self.strategy.is_empty()] { (fill.text(STRATEGY_HINT, self.strategy_hint())) }
            (option("all", ALL_TEN, &self.strategy))
            (strategy_options(&self.strategy))
        };
        let span = |field: Field, id: &str, value: &str, fill: &mut Fill| {
            text_field(
                id,
                field,
                &self.span_label(field),
                "decimal",
                value,
                None,
                shown,
                fill,
            )
        };
        let from = span(Field::From, "rll-psweep-from", &self.from, fill);
        let to = span(Field::To, "rll-psweep-to", &self.to, fill);
        let help = Help {
            id: "rll-psweep-help",
            rule: param_sweep_help(),
        };
        html! {
            div.rll-buttons role="group" aria-label="Presets" {
                @for p in PRESETS {
                    button type="button" data-preset=(p.title) data-slot=(PRESET) { (p.title) }
                }
            }
            div.rll-controls {
                (select_field("rll-psweep-param", Field::Param, "Parameter", &self.param, params, fill))
                (from)
                (to)
                (text_field("rll-psweep-steps", Field::Steps, "Steps", "numeric", &self.steps, None, shown, fill))
                (select_field("rll-psweep-stat", Field::Stat, "Stat", &self.stat, stats, fill))
                (select_field("rll-psweep-strategy", Field::Strategy, "Strategies", &self.strategy, strategies, fill))
                (text_field("rll-psweep-seeds", Field::Seeds, "Seeds", "numeric", &self.seeds, Some(help), shown, fill))
                (buttons("psweep", "Run parameter sweep", shown, fill))
            }
        }
    }
}

impl Fields for ParamSweepForm {
    const FIELDS: &'static [Field] = &PARAM_SWEEP_FIELDS;

    /// A new parameter brings its own span and the default steps.
    fn set(&mut self, field: Field, text: String) {
        match field {
            Field::Param => {
                if let Some(p) = param(&text) {
                    let (lo, hi) = default_span(p.param);
                    self.from = value_text(p.param, lo);
                    self.to = value_text(p.param, hi);
                    self.steps = DEFAULT_STEPS.to_string();
                }
                self.param = text;
            }
            Field::From => self.from = text,
            Field::To => self.to = text,
            Field::Steps => self.steps = text,
            Field::Stat => self.stat = text,
            Field::Strategy => self.strategy = text,
            Field::Seeds => self.seeds = text,
        }
    }

    fn get(&self, field: Field) -> Option<&str> {
        Some(match field {
            Field::Param => &self.param,
            Field::From => &self.from,
            Field::To => &self.to,
            Field::Steps => &self.steps,
            Field::Stat => &self.stat,
            Field::Strategy => &self.strategy,
            Field::Seeds => &self.seeds,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::param::Param;
    use sim::time::ms;

    #[test]
    fn the_seed_sweep_reads_what_was_typed_or_says_why_not() {
        let mut f = SeedSweepForm::new(Some(StrategyName::Pool), 30);
        assert_eq!(f.read(), Ok((vec![StrategyName::Pool], 30)));
        f.set(Field::Strategy, "all".into());
        assert_eq!(f.read().map(|(s, _)| s.len()), Ok(StrategyName::ALL.len()));
        f.set(Field::Seeds, "0".into());
        let why = f.read().unwrap_err();
        assert!(why.starts_with("The number of seeds"), "{why}");
        f.set(Field::Seeds, "12".into());
        f.set(Field::Strategy, "nope".into());
        assert!(f.read().is_err());
    }

    #[test]
    fn the_seed_sweep_markup_holds_its_fields_and_values() {
        let m = SeedSweepForm::new(Some(StrategyName::Keyed), 7)
            .draw(FormShown::default(), &mut Fill::default())
            .into_string();
        for testid in ["sweep-strategy", "sweep-seeds", "sweep-run", "sweep-cancel"] {
            assert_eq!(
                m.matches(&format!("data-testid=\"{testid}\"")).count(),
                1,
                "{testid}"
            );
        }
        assert!(m.contains("<option value=\"keyed\" selected>"), "{m}");
        assert!(m.contains("value=\"7\""));
        assert!(m.contains(&format!(
            "data-slot=\"{}\">{}</span>",
            HELP.name(),
            seed_sweep_help()
        )));
        for slot in SeedSweepForm::FIELDS
            .iter()
            .map(|f| f.slot())
            .chain([RUN, CANCEL, HELP])
        {
            assert_eq!(
                m.matches(&format!("data-slot=\"{}\"", slot.name())).count(),
                1,
                "{slot:?}"
            );
        }
        assert_eq!(m.matches("<option").count(), StrategyName::ALL.len() + 1);
    }

    #[test]
    fn the_param_sweep_reads_its_fields_like_the_url_does() {
        let f = ParamSweepForm::preset(&PRESETS[0]);
        let read = f.read().unwrap();
        assert_eq!(read.spec, PRESETS[0].spec);
        assert_eq!(
            (read.strategy, read.all, read.seeds),
            (None, false, PRESET_SEEDS)
        );
        for (field, text, starts) in [
            (Field::Param, "strategy", "Pick a parameter to sweep"),
            (Field::From, "x", "The from value"),
            (Field::To, "-1", "The to value"),
            (Field::Steps, "1", "The number of steps"),
            (Field::Seeds, "0", "The number of seeds"),
        ] {
            let mut g = f.clone();
            g.set(field, text.into());
            let why = g.read().unwrap_err();
            assert!(why.starts_with(starts), "{field:?}: {why}");
        }
        let mut g = f.clone();
        g.set(Field::Strategy, "all".into());
        assert!(g.read().unwrap().all);
        g.set(Field::Strategy, "keyed".into());
        assert_eq!(g.read().unwrap().strategy, Some(StrategyName::Keyed));
    }

    #[test]
    fn a_new_parameter_brings_its_span_unit_and_hint() {
        let mut f = ParamSweepForm::preset(&PRESETS[0]);
        assert_eq!(f.unit(), "ms");
        f.set(Field::Param, spec(Param::PoolWorkers).key.into());
        let (lo, hi) = default_span(Param::PoolWorkers);
        assert_eq!(
            (f.from.clone(), f.to.clone()),
            (lo.to_string(), hi.to_string())
        );
        assert_eq!(f.steps, DEFAULT_STEPS.to_string());
        assert!(
            f.strategy_hint()
                .contains(strategy_label(StrategyName::Pool)),
            "{}",
            f.strategy_hint()
        );
        assert_eq!(f.span_label(Field::To), format!("To ({})", f.unit()));
        for field in PARAM_SWEEP_FIELDS {
            assert!(f.get(field).is_some(), "{field:?}");
        }
    }

    #[test]
    fn the_param_sweep_markup_holds_every_preset_field_and_choice() {
        let f = ParamSweepForm::of(
            ParamSweepSpec {
                param: Param::Timeout,
                from: ms(200),
                to: ms(3_000),
                steps: 5,
                stat: StatField::Duplicates,
            },
            "all",
            9,
        );
        let m = f
            .draw(FormShown::default(), &mut Fill::default())
            .into_string();
        for p in PRESETS {
            assert!(
                m.contains(&format!(
                    "{PRESET_KEY}=\"{}\" data-slot=\"{}\"",
                    p.title,
                    PRESET.name()
                )),
                "{}",
                p.title
            );
        }
        let label_slots = PARAM_SWEEP_FIELDS.iter().filter_map(|f| f.label_slot());
        for slot in PARAM_SWEEP_FIELDS
            .iter()
            .map(|f| f.slot())
            .chain(label_slots)
            .chain([RUN, CANCEL, HELP, STRATEGY_HINT])
        {
            assert_eq!(
                m.matches(&format!("data-slot=\"{}\"", slot.name())).count(),
                1,
                "{slot:?}"
            );
        }
        for testid in [
            "psweep-param",
            "psweep-from",
            "psweep-to",
            "psweep-steps",
            "psweep-stat",
            "psweep-strategy",
            "psweep-seeds",
            "psweep-run",
            "psweep-cancel",
        ] {
            assert_eq!(
                m.matches(&format!("data-testid=\"{testid}\"")).count(),
                1,
                "{testid}"
            );
        }
        assert!(m.contains("<option value=\"timeoutMs\" selected>"), "{m}");
        assert!(m.contains("<option value=\"all\" selected>"));
        assert!(m.contains("<option value=\"duplicates\" selected>"));
        assert!(m.contains("value=\"3000\""));
        assert!(m.contains("From (ms)"));
        assert_eq!(
            m.matches("<div").count(),
            m.matches("</div>").count(),
            "{m}"
        );
    }
}

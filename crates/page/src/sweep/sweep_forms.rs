//! The sweep page's two forms, as markup and as the rules that read them: the seed
//! sweep (a strategy and a number of seeds) and the parameter sweep (a parameter, its
//! span, the steps, the stat, the strategies and the seeds, or a preset).
//!
//! Each form is one string set once; the UI writes back only what changes (a field's
//! value, a unit, the help line, whether Cancel is enabled) and hands each field's text
//! to [`SeedSweepForm::set`] or [`ParamSweepForm::set`] by the field's `data-field`.
//! Reading the form ([`SeedSweepForm::read`], [`ParamSweepForm::read`]) gives the
//! sweep to run or the sentence that says why it cannot run.

use crate::shared::markup::escape;
use crate::shared::params::{param, spec, ParamValue, PARAMS};
use crate::shared::stats::stat_text;
use crate::shared::titles::strategy_label;
use crate::shared::words::Words;
use crate::sweep::param_sweep::{
    default_span, sweepable, value_text, Preset, DEFAULT_STEPS, PRESETS, PRESET_SEEDS,
};
use crate::{parse_count, PageQuery, DEFAULT_SWEEP_SEEDS};
use sim::param_sweep::{strategies_using, ParamSweepSpec, MAX_STEPS, MIN_STEPS};
use sim::sweep::MAX_SEEDS;
use sim::{StatField, StrategyName};

/// A form's fields by their `data-field` names, as the UI reads and writes them.
pub trait Fields {
    /// Every field's `data-field`, in the form's order.
    const FIELDS: &'static [&'static str];
    /// The text of the field whose `data-field` is `field`.
    fn get(&self, field: &str) -> Option<&str>;
    /// Takes the text of the field whose `data-field` is `field`.
    fn set(&mut self, field: &str, text: String);
}

/// What the seed sweep's help line says while the form can be read.
pub fn seed_sweep_help() -> String {
    format!("1 to {MAX_SEEDS}; seeds 1, 2, 3, … Default {DEFAULT_SWEEP_SEEDS}.")
}

/// What the parameter sweep's help line says while the form can be read.
pub fn param_sweep_help() -> String {
    format!("Steps {MIN_STEPS} to {MAX_STEPS}; seeds 1, 2, 3, …")
}

/// The `<option>`s of a strategy choice, `selected` marked.
fn strategy_options(selected: &str) -> String {
    StrategyName::ALL
        .iter()
        .map(|s| option(s.as_str(), strategy_label(*s), selected))
        .collect()
}

/// One `<option>`, marked if its value is `selected`.
fn option(value: &str, text: &str, selected: &str) -> String {
    format!(
        "<option value=\"{}\"{}>{}</option>",
        escape(value),
        if value == selected { " selected" } else { "" },
        escape(text)
    )
}

/// A labelled text field of a form.
fn text_field(
    id: &str,
    field: &str,
    label: &str,
    inputmode: &str,
    value: &str,
    extra: &str,
) -> String {
    format!(
        concat!(
            "<div class=\"rll-field\"><label class=\"rll-field-label\" for=\"{id}\" data-label=\"{field}\">{label}</label>",
            "<input id=\"{id}\" type=\"text\" inputmode=\"{inputmode}\" data-testid=\"{id_testid}\" data-field=\"{field}\" value=\"{value}\"{extra}>",
        ),
        id = id,
        id_testid = id.trim_start_matches("rll-"),
        field = field,
        label = escape(label),
        inputmode = inputmode,
        value = escape(value),
        extra = extra,
    )
}

/// A labelled `<select>` of a form.
fn select_field(id: &str, field: &str, label: &str, options: &str) -> String {
    format!(
        concat!(
            "<div class=\"rll-field\"><label class=\"rll-field-label\" for=\"{id}\">{label}</label>",
            "<select id=\"{id}\" data-testid=\"{testid}\" data-field=\"{field}\">{options}</select></div>",
        ),
        id = id,
        testid = id.trim_start_matches("rll-"),
        field = field,
        label = escape(label),
        options = options,
    )
}

/// The Run and Cancel buttons (Cancel enabled only while a sweep runs).
fn buttons(prefix: &str, run: &str) -> String {
    format!(
        concat!(
            "<div class=\"rll-buttons\">",
            "<button type=\"button\" class=\"rll-primary\" data-testid=\"{p}-run\" data-action=\"run\">{run}</button>",
            "<button type=\"button\" data-testid=\"{p}-cancel\" data-action=\"cancel\" disabled>Cancel</button>",
            "</div>"
        ),
        p = prefix,
        run = escape(run),
    )
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

    /// The form's markup, with its values.
    pub fn markup(&self) -> String {
        let strategies = format!(
            "{}{}",
            option("all", "All ten", &self.strategy),
            strategy_options(&self.strategy)
        );
        format!(
            "<div class=\"rll-controls\">{}{}<span id=\"rll-sweep-help\" class=\"rll-field-help\" data-help>{}</span></div>{}</div>",
            select_field("rll-sweep-strategy", "strategy", "Strategy", &strategies),
            text_field("rll-sweep-seeds", "seeds", "Seeds", "numeric", &self.seeds, " aria-describedby=\"rll-sweep-help\""),
            escape(&seed_sweep_help()),
            buttons("sweep", "Run sweep"),
        )
    }
}

impl Fields for SeedSweepForm {
    const FIELDS: &'static [&'static str] = &["strategy", "seeds"];

    fn set(&mut self, field: &str, text: String) {
        match field {
            "strategy" => self.strategy = text,
            "seeds" => self.seeds = text,
            _ => {}
        }
    }

    fn get(&self, field: &str) -> Option<&str> {
        match field {
            "strategy" => Some(&self.strategy),
            "seeds" => Some(&self.seeds),
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

/// The `data-field` names of the parameter sweep's form, in its order.
pub const PARAM_SWEEP_FIELDS: [&str; 7] =
    ["param", "from", "to", "steps", "stat", "strategy", "seeds"];

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
    pub fn initial(query: &PageQuery) -> Self {
        match query.sweep_param {
            Some(sp) => {
                let strategy = match (query.all_strategies, query.strategy) {
                    (true, _) => "all",
                    (false, Some(s)) => s.as_str(),
                    (false, None) => "",
                };
                Self::of(sp, strategy, query.seeds)
            }
            None => Self::preset(&PRESETS[0]),
        }
    }

    /// The unit of the chosen parameter (`ms`, `workers`, …), or nothing.
    pub fn unit(&self) -> &'static str {
        param(&self.param).map_or("", |p| p.unit)
    }

    /// The label of the span's `from` or `to` field, with the unit.
    pub fn span_label(&self, field: &str) -> String {
        let word = if field == "to" { "To" } else { "From" };
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

    /// The presets' buttons and the form, with its values.
    pub fn markup(&self) -> String {
        let presets: String = PRESETS
            .iter()
            .map(|p| {
                format!(
                    "<button type=\"button\" data-preset=\"{0}\">{0}</button>",
                    escape(p.title)
                )
            })
            .collect();
        let params: String = PARAMS
            .iter()
            .filter(|p| sweepable(p.param))
            .map(|p| option(p.key, p.label, &self.param))
            .collect();
        let stats: String = StatField::ALL
            .iter()
            .map(|s| option(s.as_str(), stat_text(*s).label, &self.stat))
            .collect();
        let strategies = format!(
            "<option value=\"\" data-hint{}>{}</option>{}{}",
            if self.strategy.is_empty() {
                " selected"
            } else {
                ""
            },
            escape(&self.strategy_hint()),
            option("all", "All ten", &self.strategy),
            strategy_options(&self.strategy)
        );
        format!(
            concat!(
                "<div class=\"rll-buttons\" role=\"group\" aria-label=\"Presets\">{presets}</div>",
                "<div class=\"rll-controls\">{param}{from}</div>{to}</div>{steps}</div>{stat}{strategy}{seeds}",
                "<span id=\"rll-psweep-help\" class=\"rll-field-help\" data-help>{help}</span></div>{buttons}</div>"
            ),
            presets = presets,
            param = select_field("rll-psweep-param", "param", "Parameter", &params),
            from = text_field("rll-psweep-from", "from", &self.span_label("from"), "decimal", &self.from, ""),
            to = text_field("rll-psweep-to", "to", &self.span_label("to"), "decimal", &self.to, ""),
            steps = text_field("rll-psweep-steps", "steps", "Steps", "numeric", &self.steps, ""),
            stat = select_field("rll-psweep-stat", "stat", "Stat", &stats),
            strategy = select_field("rll-psweep-strategy", "strategy", "Strategies", &strategies),
            seeds = text_field("rll-psweep-seeds", "seeds", "Seeds", "numeric", &self.seeds, " aria-describedby=\"rll-psweep-help\""),
            help = escape(&param_sweep_help()),
            buttons = buttons("psweep", "Run parameter sweep"),
        )
    }
}

impl Fields for ParamSweepForm {
    const FIELDS: &'static [&'static str] = &PARAM_SWEEP_FIELDS;

    /// A new parameter brings its own span and the default steps.
    fn set(&mut self, field: &str, text: String) {
        match field {
            "param" => {
                if let Some(p) = param(&text) {
                    let (lo, hi) = default_span(p.param);
                    self.from = value_text(p.param, lo);
                    self.to = value_text(p.param, hi);
                    self.steps = DEFAULT_STEPS.to_string();
                }
                self.param = text;
            }
            "from" => self.from = text,
            "to" => self.to = text,
            "steps" => self.steps = text,
            "stat" => self.stat = text,
            "strategy" => self.strategy = text,
            "seeds" => self.seeds = text,
            _ => {}
        }
    }

    fn get(&self, field: &str) -> Option<&str> {
        Some(match field {
            "param" => &self.param,
            "from" => &self.from,
            "to" => &self.to,
            "steps" => &self.steps,
            "stat" => &self.stat,
            "strategy" => &self.strategy,
            "seeds" => &self.seeds,
            _ => return None,
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
        f.set("strategy", "all".into());
        assert_eq!(f.read().map(|(s, _)| s.len()), Ok(StrategyName::ALL.len()));
        f.set("seeds", "0".into());
        let why = f.read().unwrap_err();
        assert!(why.starts_with("The number of seeds"), "{why}");
        f.set("seeds", "12".into());
        f.set("strategy", "nope".into());
        assert!(f.read().is_err());
    }

    #[test]
    fn the_seed_sweep_markup_holds_its_fields_and_values() {
        let m = SeedSweepForm::new(Some(StrategyName::Keyed), 7).markup();
        for testid in ["sweep-strategy", "sweep-seeds", "sweep-run", "sweep-cancel"] {
            assert_eq!(
                m.matches(&format!("data-testid=\"{testid}\"")).count(),
                1,
                "{testid}"
            );
        }
        assert!(m.contains("<option value=\"keyed\" selected>"), "{m}");
        assert!(m.contains("value=\"7\""));
        assert!(m.contains(&escape(&seed_sweep_help())));
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
            ("param", "strategy", "Pick a parameter to sweep"),
            ("from", "x", "The from value"),
            ("to", "-1", "The to value"),
            ("steps", "1", "The number of steps"),
            ("seeds", "0", "The number of seeds"),
        ] {
            let mut g = f.clone();
            g.set(field, text.into());
            let why = g.read().unwrap_err();
            assert!(why.starts_with(starts), "{field}: {why}");
        }
        let mut g = f.clone();
        g.set("strategy", "all".into());
        assert!(g.read().unwrap().all);
        g.set("strategy", "keyed".into());
        assert_eq!(g.read().unwrap().strategy, Some(StrategyName::Keyed));
    }

    #[test]
    fn a_new_parameter_brings_its_span_unit_and_hint() {
        let mut f = ParamSweepForm::preset(&PRESETS[0]);
        assert_eq!(f.unit(), "ms");
        f.set("param", spec(Param::PoolWorkers).key.into());
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
        assert_eq!(f.span_label("to"), format!("To ({})", f.unit()));
        for field in PARAM_SWEEP_FIELDS {
            assert!(f.get(field).is_some(), "{field}");
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
        let m = f.markup();
        for p in PRESETS {
            assert!(
                m.contains(&format!("data-preset=\"{}\"", escape(p.title))),
                "{}",
                p.title
            );
        }
        for field in PARAM_SWEEP_FIELDS {
            assert_eq!(
                m.matches(&format!("data-field=\"{field}\"")).count(),
                1,
                "{field}"
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

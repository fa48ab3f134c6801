//! What the sweep page's URL says beyond the base: how many seeds, and the parameter a
//! sweep steps through ([`Sweep`]); [`SweepQuery`] is the page's query type.

use super::param_sweep::{default_span, not_sweepable, sweepable, value_text};
use super::param_sweep::{DEFAULT_STAT, DEFAULT_STEPS};
use crate::input::numbers::parse_count;
use crate::query::base::{Base, Naming};
use crate::query::page::{Section, View};
use crate::query::read::{one_of, Elsewhere, Family, Keys, Pairs, Query};
use crate::shared::params::{param, spec, ParamValue};
use crate::shared::words::shown;
use sim::param_sweep::ParamSweepSpec;
use sim::Scenario;
use sim::StrategyName;

/// The sweep page's query: the base and the sweep.
pub type SweepQuery = Query<Sweep>;

/// Seeds a sweep runs unless the URL says otherwise.
pub const DEFAULT_SWEEP_SEEDS: u64 = 200;

/// What to sweep: seeds `1..=seeds`, and perhaps one parameter's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// Seeds in a sweep.
    pub seeds: u64,
    /// `param=`: the parameter a sweep steps through (`from`, `to`, `steps`, `stat`),
    /// instead of the seed alone.
    pub param: Option<ParamSweepSpec>,
    /// A parameter sweep's keys as read, until they are read together.
    pending: Vec<(&'static str, String)>,
}

impl Default for Sweep {
    fn default() -> Self {
        Self::new(DEFAULT_SWEEP_SEEDS, None)
    }
}

impl Sweep {
    /// Seeds `1..=seeds`, and `param`'s values if it is given.
    pub fn new(seeds: u64, param: Option<ParamSweepSpec>) -> Self {
        Self {
            seeds,
            param,
            pending: Vec::new(),
        }
    }
}

/// The number of seeds: every page reads it, and only the sweep page keeps it.
pub const SEEDS_KEYS: Keys = Keys {
    names: &["seeds"],
    elsewhere: Elsewhere::Checked(|key, value| Sweep::default().read(key, value)),
};

/// The keys of a parameter sweep: they mean something only together, so they are read
/// after the others.
pub const PARAM_KEYS: Keys = Keys {
    names: &["param", "from", "to", "steps", "stat"],
    elsewhere: Elsewhere::Said("it is a parameter sweep's, which opens with view=sweep"),
};

impl Family for Sweep {
    fn owns(key: &str) -> bool {
        SEEDS_KEYS.has(key) || PARAM_KEYS.has(key)
    }

    fn read(&mut self, key: &str, value: &str) -> Option<String> {
        let value = value.trim();
        if let Some(&name) = PARAM_KEYS.names.iter().find(|k| **k == key) {
            self.pending.push((name, value.to_string()));
            return None;
        }
        match parse_count(value, 1, sim::sweep::MAX_SEEDS) {
            Ok(n) => {
                self.seeds = n;
                None
            }
            Err(why) => Some(format!(
                "The number of seeds {why}; using {DEFAULT_SWEEP_SEEDS} instead."
            )),
        }
    }

    /// Reads `param`, `from`, `to`, `steps` and `stat` together: each bad value gets its
    /// sentence and its default, and `from` must be below `to`.
    fn gather(&mut self, base: &mut Base) {
        let keys = std::mem::take(&mut self.pending);
        self.param = read_param_sweep(&keys, &mut base.problems);
    }

    fn write(&self, out: &mut Pairs) {
        if self.seeds != DEFAULT_SWEEP_SEEDS {
            out.push("seeds", &self.seeds.to_string());
        }
        if let Some(sp) = self.param {
            out.push("param", spec(sp.param).key);
            out.push("from", &value_text(sp.param, sp.from));
            out.push("to", &value_text(sp.param, sp.to));
            out.push("steps", &sp.steps.to_string());
            out.push("stat", sp.stat.as_str());
        }
    }
}

/// The sweep its keys describe, if they name a parameter that can be swept; a sentence
/// for each value that cannot be used.
fn read_param_sweep(
    keys: &[(&'static str, String)],
    problems: &mut Vec<String>,
) -> Option<ParamSweepSpec> {
    let get = |k: &str| {
        keys.iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.as_str())
    };
    let Some(name) = get("param") else {
        if !keys.is_empty() {
            let names: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
            problems.push(format!(
                "Ignored {}: they describe a parameter sweep, which needs 'param' too.",
                names.join(", ")
            ));
        }
        return None;
    };
    let Some(ps) = param(name).filter(|p| sweepable(p.param)) else {
        problems.push(match param(name) {
            Some(p) => not_sweepable(p.param),
            None => format!(
                "There is no parameter called '{}' to sweep; no parameter sweep is run.",
                shown(name)
            ),
        });
        return None;
    };
    let (lo, hi) = default_span(ps.param);
    let end = |k: &str, default: u64, problems: &mut Vec<String>| match get(k) {
        None => default,
        Some(text) => match ps.parse(text) {
            Ok(ParamValue::Whole(n)) => n,
            Ok(_) => default,
            Err(why) => {
                problems.push(format!(
                    "The sweep's '{k}': {why} Using {}.",
                    value_text(ps.param, default)
                ));
                default
            }
        },
    };
    let mut from = end("from", lo, problems);
    let mut to = end("to", hi, problems);
    if from >= to {
        problems.push(format!(
            "The sweep's 'from' ({}) must be below its 'to' ({}); using {} to {} {}.",
            value_text(ps.param, from),
            value_text(ps.param, to),
            value_text(ps.param, lo),
            value_text(ps.param, hi),
            ps.unit
        ));
        (from, to) = (lo, hi);
    }
    let steps = match get("steps")
        .map(|t| parse_count(t, sim::param_sweep::MIN_STEPS, sim::param_sweep::MAX_STEPS))
    {
        None => DEFAULT_STEPS,
        Some(Ok(n)) => n,
        Some(Err(why)) => {
            problems.push(format!("The sweep's steps {why}; using {DEFAULT_STEPS}."));
            DEFAULT_STEPS
        }
    };
    let stat = match get("stat").map(|t| one_of(t, DEFAULT_STAT)) {
        None => DEFAULT_STAT,
        Some(Ok(f)) => f,
        Some(Err(why)) => {
            problems.push(why);
            DEFAULT_STAT
        }
    };
    Some(ParamSweepSpec {
        param: ps.param,
        from,
        to,
        steps,
        stat,
    })
}

impl SweepQuery {
    /// True if the sweep view should start as soon as the page loads: the URL opens it
    /// and names what to sweep (a strategy, or `all`). A tab that links to the sweep
    /// names nothing, so the reader starts it.
    pub fn sweep_autostart(&self) -> bool {
        self.base.view == crate::View::Sweep
            && (self.base.naming != Naming::Unnamed || self.own.param.is_some())
    }

    /// The strategies a parameter sweep runs: the one named, all of them for `all`, else
    /// every strategy whose plan reads the parameter.
    pub fn param_sweep_strategies(&self, param: sim::Param) -> Vec<StrategyName> {
        match self.base.naming {
            Naming::All => StrategyName::ALL.to_vec(),
            Naming::One => vec![self.base.scenario.strategy],
            Naming::Unnamed => sim::param_sweep::strategies_using(param),
        }
    }

    /// The one strategy a seed sweep runs, or `None` for every strategy (`strategy=all`,
    /// or none named).
    pub fn seed_sweep_strategy(&self) -> Option<StrategyName> {
        self.base.strategy()
    }

    /// The strategies a seed sweep runs ([`SweepQuery::seed_sweep_strategy`]).
    pub fn seed_sweep_strategies(&self) -> Vec<StrategyName> {
        self.seed_sweep_strategy()
            .map_or_else(|| StrategyName::ALL.to_vec(), |one| vec![one])
    }
}

/// The sweep page for one strategy (or all, with `None`) over seeds `1..=seeds`.
pub fn sweep_query(strategy: Option<StrategyName>, seeds: u64, scenario: &Scenario) -> SweepQuery {
    let mut base = Base::of(Section::Charges, View::Sweep, strategy, scenario);
    if strategy.is_none() {
        base.naming = Naming::All;
    }
    Query {
        base,
        own: Sweep::new(seeds, None),
    }
}

/// The link of [`sweep_query`].
pub fn sweep_href(strategy: Option<StrategyName>, seeds: u64, scenario: &Scenario) -> String {
    sweep_query(strategy, seeds, scenario).href()
}

/// The sweep page stepping `spec`'s parameter for one strategy (or, with `None`, every
/// strategy that reads it) over seeds `1..=seeds`.
pub fn param_sweep_query(
    spec: ParamSweepSpec,
    strategy: Option<StrategyName>,
    seeds: u64,
    scenario: &Scenario,
) -> SweepQuery {
    Query {
        base: Base::of(Section::Charges, View::Sweep, strategy, scenario),
        own: Sweep::new(seeds, Some(spec)),
    }
}

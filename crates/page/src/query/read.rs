//! Reading a URL's query: every key in turn, each value it cannot use replaced by what
//! is used instead, with a sentence saying so.

use super::page::{Motion, PageQuery, Section, Speed, View, DEFAULT_SWEEP_SEEDS, MAX_COUNTERS};
use crate::input::numbers::{parse_count, parse_seed, shown};
use crate::shared::params::{param, spec, ParamSpec, ParamValue, PARAMS};
use crate::shared::words::Words;
use sim::lab::ExperimentName;
use sim::names::Named;
use sim::param::Rule;
use sim::param_sweep::ParamSweepSpec;
use sim::story::Scene;
use sim::{StatField, StrategyName};

sim::named_enum! {
    /// The page's own keys; the run's parameters are in [`PARAMS`].
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum PageKey as "key" {
        /// Which section.
        Section = "section",
        /// Which view of the charges.
        View = "view",
        /// The strategy, or `all`.
        Strategy = "strategy",
        /// The seed.
        Seed = "seed",
        /// Seeds in a sweep.
        Seeds = "seeds",
        /// Playback speed.
        Speed = "speed",
        /// The customer whose story is open: an id, or a scene's name.
        Customer = "customer",
        /// The counters an embedded widget shows.
        Counters = "counters",
        /// The limits experiment.
        Experiment = "experiment",
        /// The compact, framed page.
        Embed = "embed",
        /// The presenter's layout.
        Present = "present",
        /// Whether playback animates.
        Motion = "motion",
        /// The guided walk.
        Tour = "tour",
        /// The walk's step.
        Step = "step",
        /// The client view's code.
        Code = "code",
    }
}

sim::named_enum! {
    /// The keys of a parameter sweep: they mean something only together, so they are
    /// read after the others.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum SweepKey as "key" {
        /// The parameter a sweep steps through.
        SweepParam = "param",
        /// Its first value, in its unit.
        From = "from",
        /// Its last value, in its unit.
        To = "to",
        /// How many values.
        Steps = "steps",
        /// The stat a parameter sweep follows.
        Stat = "stat",
    }
}

/// The default strategy when the URL names one we do not know.
pub const FALLBACK_STRATEGY: StrategyName = StrategyName::Keyed;

/// Every key this page understands, page keys first.
fn known_keys() -> impl Iterator<Item = &'static str> {
    PageKey::NAMES
        .into_iter()
        .chain(SweepKey::NAMES)
        .chain(PARAMS.iter().map(|p| p.key))
        .chain(crate::limits::settings::KNOBS.iter().map(|k| k.key))
}

/// The sentence for a key this page does not understand.
fn unknown_key(key: &str, value: &str) -> String {
    if key.is_empty() {
        return format!(
            "Ignored the value '{}': it has no parameter name before its '='.",
            shown(value)
        );
    }
    if let Some(k) = known_keys().find(|k| k.eq_ignore_ascii_case(key)) {
        return format!(
            "Ignored the unknown parameter '{}'; did you mean '{k}'? Names are case-sensitive.",
            shown(key)
        );
    }
    // The page's own keys are listed; the numbers' and the limits experiments' keys
    // would make the sentence too long to read: the CLI's help lists them.
    let page_keys: Vec<&str> = PageKey::NAMES.into_iter().chain(SweepKey::NAMES).collect();
    format!(
        "Ignored the unknown parameter '{}'. Known: {}, and each number's key (customers, timeoutMs, …: `ratelab charges --help` and `ratelab limits --help` list them).",
        shown(key),
        page_keys.join(", ")
    )
}

/// The member named `text`, or the sentence for a name that matches nothing, saying
/// what is used instead.
fn one_of<T: Named + std::fmt::Display>(text: &str, fallback: T) -> Result<T, String> {
    T::by_name(text).map_err(|e| format!("{} Using {fallback} instead.", e.said()))
}

/// Reads decoded `(key, value)` pairs, in URL order, as the page they name reads them:
/// every family of keys.
pub fn parse(pairs: &[(String, String)]) -> PageQuery {
    parse_for::<true, true>(pairs)
}

/// [`parse`] for a page that reads a parameter sweep's keys only if `SWEEP` and the
/// limits experiments' settings only if `LAB`. A key of a family the page does not read
/// is ignored with a sentence naming where it belongs, and a page's module built with
/// `false` carries none of that family's reading.
pub fn parse_for<const SWEEP: bool, const LAB: bool>(pairs: &[(String, String)]) -> PageQuery {
    let mut q = PageQuery::default();
    let mut seen: Vec<&str> = Vec::new();
    // A parameter sweep's keys mean something only together; read after the others.
    let mut sweep_keys: Vec<(SweepKey, &str)> = Vec::new();
    for (key, value) in pairs {
        let key = key.as_str();
        let Some(known) = Key::of(key) else {
            q.problems.push(unknown_key(key, value));
            continue;
        };
        if seen.contains(&key) {
            q.problems.push(format!(
                "'{key}' appears more than once; the first value is used."
            ));
            continue;
        }
        seen.push(key);
        let problem = match known {
            Key::Sweep(k) if SWEEP => {
                sweep_keys.push((k, value.trim()));
                None
            }
            Key::Sweep(_) => Some(format!(
                "Ignored '{key}': it is a parameter sweep's, which opens with view=sweep."
            )),
            Key::Page(k) => read_pair(&mut q, k, value.trim()),
            Key::Param(spec) => read_param_pair(&mut q, spec, value.trim()),
            Key::Lab(knob) if LAB => q
                .lab
                .read(knob.id, value)
                .err()
                .map(|why| format!("{why} Using the default, {}.", knob.shown(knob.default))),
            Key::Lab(_) => Some(format!(
                "Ignored '{key}': it is a limits experiment's setting, read with section=limits."
            )),
        };
        q.problems.extend(problem);
    }
    if SWEEP {
        read_param_sweep(&mut q, &sweep_keys);
    }
    check_combination(&mut q);
    // The presenter's layout plays at 1× unless the link names a speed: a room watches
    // the run happen (the strategy it opens on: `run::stage::opening_strategy`).
    if q.present && !seen.contains(&PageKey::Speed.as_str()) {
        q.speed = Speed::X1;
    }
    q
}

/// Reads `param`, `from`, `to`, `steps` and `stat` together: each bad value gets its
/// sentence and its default, and `from` must be below `to`.
fn read_param_sweep(q: &mut PageQuery, keys: &[(SweepKey, &str)]) {
    let get = |k: SweepKey| keys.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
    let Some(name) = get(SweepKey::SweepParam) else {
        if !keys.is_empty() {
            let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
            q.problems.push(format!(
                "Ignored {}: they describe a parameter sweep, which needs 'param' too.",
                names.join(", ")
            ));
        }
        return;
    };
    let Some(ps) = param(name).filter(|p| crate::sweep::param_sweep::sweepable(p.param)) else {
        q.problems.push(match param(name) {
            Some(p) => crate::sweep::param_sweep::not_sweepable(p.param),
            None => format!(
                "There is no parameter called '{}' to sweep; no parameter sweep is run.",
                shown(name)
            ),
        });
        return;
    };
    let (lo, hi) = crate::sweep::param_sweep::default_span(ps.param);
    let end = |k: SweepKey, default: u64, problems: &mut Vec<String>| match get(k) {
        None => default,
        Some(text) => match ps.parse(text) {
            Ok(ParamValue::Whole(n)) => n,
            Ok(_) => default,
            Err(why) => {
                problems.push(format!(
                    "The sweep's '{}': {why} Using {}.",
                    k.as_str(),
                    crate::sweep::param_sweep::value_text(ps.param, default)
                ));
                default
            }
        },
    };
    let mut from = end(SweepKey::From, lo, &mut q.problems);
    let mut to = end(SweepKey::To, hi, &mut q.problems);
    if from >= to {
        q.problems.push(format!(
            "The sweep's 'from' ({}) must be below its 'to' ({}); using {} to {} {}.",
            crate::sweep::param_sweep::value_text(ps.param, from),
            crate::sweep::param_sweep::value_text(ps.param, to),
            crate::sweep::param_sweep::value_text(ps.param, lo),
            crate::sweep::param_sweep::value_text(ps.param, hi),
            ps.unit
        ));
        (from, to) = (lo, hi);
    }
    let steps = match get(SweepKey::Steps)
        .map(|t| parse_count(t, sim::param_sweep::MIN_STEPS, sim::param_sweep::MAX_STEPS))
    {
        None => crate::sweep::param_sweep::DEFAULT_STEPS,
        Some(Ok(n)) => n,
        Some(Err(why)) => {
            q.problems.push(format!(
                "The sweep's steps {why}; using {}.",
                crate::sweep::param_sweep::DEFAULT_STEPS
            ));
            crate::sweep::param_sweep::DEFAULT_STEPS
        }
    };
    let stat = match get(SweepKey::Stat).map(|t| one_of(t, crate::sweep::param_sweep::DEFAULT_STAT))
    {
        None => crate::sweep::param_sweep::DEFAULT_STAT,
        Some(Ok(f)) => f,
        Some(Err(why)) => {
            q.problems.push(why);
            crate::sweep::param_sweep::DEFAULT_STAT
        }
    };
    q.sweep_param = Some(ParamSweepSpec {
        param: ps.param,
        from,
        to,
        steps,
        stat,
    });
}

/// A key this page understands: one of its own, or a parameter of the run.
#[derive(Clone, Copy)]
enum Key {
    Page(PageKey),
    Sweep(SweepKey),
    Param(&'static ParamSpec),
    Lab(&'static crate::limits::settings::Knob),
}

impl Key {
    fn of(key: &str) -> Option<Key> {
        match param(key) {
            Some(spec) => Some(Key::Param(spec)),
            None => PageKey::by_name(key)
                .ok()
                .map(Key::Page)
                .or_else(|| SweepKey::by_name(key).ok().map(Key::Sweep))
                .or_else(|| crate::limits::settings::knob(key).map(Key::Lab)),
        }
    }
}

/// Reads one parameter's value into `q`'s scenario; the sentence if it could not be used.
fn read_param_pair(q: &mut PageQuery, spec: &ParamSpec, value: &str) -> Option<String> {
    match spec.parse(value) {
        Ok(v) => {
            // What `parse` accepts the core accepts: nothing is refused here.
            let set = spec.param.set_unchecked(&mut q.scenario, v);
            debug_assert!(set.is_ok(), "parse refuses what the core would");
            None
        }
        Err(why) => Some(format!(
            "{why} Using the default, {}.",
            spec.default_with_unit()
        )),
    }
}

/// Reads one of the page's own keys into `q`; the sentence if it could not be used.
fn read_pair(q: &mut PageQuery, key: PageKey, value: &str) -> Option<String> {
    match key {
        PageKey::Section => one_of(value, Section::Charges).map(|v| q.section = v).err(),
        PageKey::View => one_of(value, View::Run).map(|v| q.view = v).err(),
        PageKey::Strategy if value == "all" => {
            q.all_strategies = true;
            None
        }
        PageKey::Strategy => {
            let (strategy, problem) = match one_of(value, FALLBACK_STRATEGY) {
                Ok(s) => (s, None),
                Err(why) => (FALLBACK_STRATEGY, Some(why)),
            };
            q.strategy = Some(strategy);
            problem
        }
        PageKey::Seed => match parse_seed(value) {
            Ok(seed) => {
                q.seed = seed;
                None
            }
            Err(why) => Some(format!("{why} Using seed 1 instead.")),
        },
        PageKey::Seeds => match parse_count(value, 1, sim::sweep::MAX_SEEDS) {
            Ok(n) => {
                q.seeds = n;
                None
            }
            Err(why) => Some(format!(
                "The number of seeds {why}; using {DEFAULT_SWEEP_SEEDS} instead."
            )),
        },
        PageKey::Speed => one_of(value, Speed::default()).map(|v| q.speed = v).err(),
        PageKey::Customer => match (
            parse_count(value, 1, u64::from(u32::MAX)),
            value.parse::<Scene>(),
        ) {
            (Ok(n), _) => {
                q.customer = u32::try_from(n).ok();
                None
            }
            (_, Ok(scene)) => {
                q.scene = Some(scene);
                None
            }
            (Err(why), Err(_)) => Some(format!(
                "The customer {why}, and not one of the scenes ({}); no story is opened.",
                Scene::NAMES.join(", ")
            )),
        },
        PageKey::Counters => {
            let fields: Result<Vec<StatField>, _> = value
                .split(',')
                .map(|name| name.trim().parse::<StatField>())
                .collect();
            match fields {
                Ok(f) if !f.is_empty() && f.len() <= MAX_COUNTERS => {
                    q.counters = Some(f);
                    None
                }
                Ok(_) => Some(format!(
                    "The counters name {} fields; a widget shows 1 to {MAX_COUNTERS}, so it shows the ones that matter for its strategy.",
                    value.split(',').count()
                )),
                Err(e) => Some(format!(
                    "{} The widget shows the counters that matter for its strategy.",
                    e.said()
                )),
            }
        }
        PageKey::Experiment => match ExperimentName::by_name(value) {
            Ok(e) => {
                q.experiment = Some(e);
                None
            }
            Err(e) => Some(format!("{} Pick one on the page.", e.said())),
        },
        PageKey::Embed => match value {
            "1" => {
                q.embed = true;
                None
            }
            "0" => None,
            _ => Some(format!(
                "The embed '{}' is not 1 or 0; showing the whole page.",
                shown(value)
            )),
        },
        PageKey::Present => match value {
            "1" => {
                q.present = true;
                None
            }
            "0" => None,
            _ => Some(format!(
                "The present '{}' is not 1 or 0; showing the reader's layout.",
                shown(value)
            )),
        },
        PageKey::Motion => one_of(value, Motion::Auto).map(|v| q.motion = v).err(),
        PageKey::Tour => match value {
            "1" => {
                q.tour = true;
                None
            }
            "0" => None,
            _ => Some(format!(
                "The tour '{}' is not 1 or 0; the guided walk stays closed.",
                shown(value)
            )),
        },
        PageKey::Code if value.len() <= MAX_CODE_CHARS => {
            q.code = Some(value.to_string());
            None
        }
        PageKey::Code => Some(format!(
            "The code in the link is {} characters long, more than the {} a link may carry; the editor opens on the lab's own client instead.",
            crate::shared::format::count(value.len() as u64),
            crate::shared::format::count(MAX_CODE_CHARS as u64)
        )),
        PageKey::Step => match parse_count(value, 1, crate::run::tour::STEPS as u64) {
            Ok(n) => {
                q.step = n as usize - 1;
                None
            }
            Err(why) => Some(format!(
                "The walk's step {why}; starting at its first step."
            )),
        },
    }
}

/// The longest `code=` value read, in characters: [`crate::client::code::MAX_CODE_BYTES`]
/// of text in base64url.
const MAX_CODE_CHARS: usize = crate::client::code::MAX_CODE_BYTES.div_ceil(3) * 4;

/// Once every value is in: rules that span fields, and the seed and strategy copied into
/// the scenario. Leaves `q.scenario` valid whatever the URL said.
fn check_combination(q: &mut PageQuery) {
    if q.step > 0 && !q.tour {
        q.problems.push(
            "Ignored 'step': it is a step of the guided walk, which opens with tour=1.".into(),
        );
        q.step = 0;
    }
    let s = &mut q.scenario;
    // Every value was checked on its own as it was read; each broken rule puts back the
    // parameters it involves, which satisfies it.
    while let Some(rule) = Rule::first_broken(s) {
        let why = crate::shared::params::rule_sentence(rule, s);
        let defaults: Vec<String> = rule
            .params()
            .iter()
            .map(|&p| {
                p.reset(s);
                let spec = spec(p);
                format!("{} {}", spec.key, spec.default_with_unit())
            })
            .collect();
        q.problems.push(format!(
            "{why} Using the defaults, {}.",
            defaults.join(" and ")
        ));
    }
    s.seed = q.seed;
    s.strategy = q.strategy.unwrap_or(FALLBACK_STRATEGY);
    s.record = true;
    debug_assert_eq!(s.validate(), Ok(()), "every value and rule was checked");
    if let Some(c) = q.customer.filter(|&c| c > q.scenario.customers) {
        q.problems.push(format!(
            "There is no customer {c}: this run has customers 1 to {}.",
            q.scenario.customers
        ));
        q.customer = None;
    }
}

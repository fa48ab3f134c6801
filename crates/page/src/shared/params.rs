//! The run's parameters as readers meet them: in the URL, on the parameter panel and on
//! the command line. The core's [`Param`] table holds each one's kind, range and rules;
//! this file gives each its URL name, label, unit (milliseconds, not the core's
//! microseconds) and help, and reads and writes its values as text.
//!
//! [`PARAMS`] is the one table of words; the panel renders itself from it, the URL is read
//! and written through it, and `ratelab charges` takes its flags from it. A value that
//! cannot be used is refused with a sentence; nothing is ever clamped into range.

use crate::shared::budget::{TooLarge, Workload};
use crate::shared::words::shown;
use crate::shared::words::Words;
use sim::param::{Rule, ValueFault};
use sim::rng::Odds;
use sim::scenario::Scenario;
use sim::time::US_PER_MS;
use sim::ScenarioError;
use std::fmt;
use std::ops::RangeInclusive;

pub use sim::param::{Param, ParamGroup, ParamKind, ParamValue};

/// One parameter of a run as readers meet it: its name, label and unit (its help:
/// [`ParamSpec::help`]).
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The core's parameter.
    pub param: Param,
    /// The name in URLs and `ratelab` flags, e.g. `maxInflight`.
    pub key: &'static str,
    /// A short label for the panel, e.g. "In-flight limit".
    pub label: &'static str,
    /// The unit the value is written in, e.g. "ms" ("" for none).
    pub unit: &'static str,
}

/// A parameter's line of help: written once, or built from the core's constants when it
/// quotes any of their figures, so the words follow the numbers.
#[derive(Clone, Copy, Debug)]
enum Help {
    /// A sentence with no figure of the core's in it.
    Fixed(&'static str),
    /// A sentence that quotes the core's figures, built when asked for.
    Built(fn() -> String),
}

/// The incident's help: what each kind does, with the core's own figures (the odds of
/// an `errors` failure, the 503 of `down`, the limits of `capacity`).
fn incident_help() -> String {
    use crate::shared::format::{count, odds_text};
    use sim::incident::{Incident, CAPACITY_MAX_INFLIGHT, CAPACITY_RATE_LIMIT, ERRORS_ODDS};
    use sim::provider::Status;
    format!(
        "A bad spell: {} ({} fail), {}, {} (all {}) or {} ({} in flight, {} a window).",
        Incident::Errors,
        odds_text(ERRORS_ODDS),
        Incident::Slow,
        Incident::Down,
        Status::Overloaded.code(),
        Incident::Capacity,
        count(CAPACITY_MAX_INFLIGHT.into()),
        count(CAPACITY_RATE_LIMIT.into()),
    )
}

/// The traffic's help: each shape, with the spike's figures from the core.
fn traffic_help() -> String {
    use sim::time::{whole_ms, US_PER_S};
    use sim::traffic::{Traffic, SPIKE_FACTOR, SPIKE_LENGTH_US, SPIKE_START_US};
    format!(
        "How customers arrive: {}, {}, {} (up to the rate) or {} ({}× for {} s at {} s).",
        Traffic::Batch,
        Traffic::Steady,
        Traffic::Ramp,
        Traffic::Spike,
        SPIKE_FACTOR,
        SPIKE_LENGTH_US / US_PER_S,
        whole_ms(SPIKE_START_US) / 1_000,
    )
}

/// The down provider's `Retry-After`: each choice, with the core's fixed wait.
fn down_hint_help() -> String {
    use sim::incident::{DownHint, OVERLOADED_RETRY_US};
    use sim::time::US_PER_S;
    format!(
        "Retry-After when down: {} (time to the end), {} ({} s) or {} (time down so far).",
        DownHint::Exact,
        DownHint::Fixed,
        OVERLOADED_RETRY_US / US_PER_S,
        DownHint::Growing,
    )
}

/// Which charge: each choice, with next month's figures from the core.
fn round_help() -> String {
    use sim::next_month::ChargeRound;
    use sim::next_month::{MONTH_US, NEW_PRICE_EVERY};
    use sim::time::US_PER_S;
    format!(
        "{} or {}: the same customers {} days on, last month's keys kept (1 in {} pays more).",
        ChargeRound::First,
        ChargeRound::NextMonth,
        MONTH_US / US_PER_S / 86_400,
        NEW_PRICE_EVERY,
    )
}

/// The words for `param`, and its line of help. A new parameter in the core fails to
/// compile here until it has them. The help stays out of [`PARAMS`], so a page that never
/// shows it (the limits and headers pages read the URL but show no parameter's help)
/// carries none of its sentences.
const fn words(param: Param) -> (ParamSpec, Help) {
    use Help::{Built, Fixed};
    let (key, label, unit, help) = match param {
        Param::Customers => (
            "customers",
            "Customers",
            "customers",
            Fixed("How many customers the batch charges, one charge each."),
        ),
        Param::MaxInflight => (
            "maxInflight",
            "In-flight limit",
            "requests",
            Fixed("Requests the provider works on at once; one more is turned away with 503."),
        ),
        Param::RateLimit => (
            "rateLimit",
            "Rate limit",
            "requests per window",
            Fixed("Requests the provider admits in one rate window; the rest get 429."),
        ),
        Param::RateWindow => (
            "rateWindowMs",
            "Rate window",
            "ms",
            Fixed("The length of the sliding window the rate limit counts over."),
        ),
        Param::ErrorRate => (
            "errorRate",
            "Server errors",
            "",
            Fixed("The chance that an admitted charge fails with 500 and moves no money."),
        ),
        Param::SlowRate => (
            "slowRate",
            "Slow charges",
            "",
            Fixed("The chance that an admitted charge takes the slow latency."),
        ),
        Param::SlowLatency => (
            "slowMs",
            "Slow latency",
            "ms",
            Fixed("How long a slow charge keeps the provider busy."),
        ),
        Param::Latency => (
            "latencyMs",
            "Latency",
            "ms",
            Fixed("How long the provider usually takes over an admitted request."),
        ),
        Param::LatencyJitter => (
            "jitterMs",
            "Latency jitter",
            "ms",
            Fixed("The latency varies by up to this much either way; at most the latency itself."),
        ),
        Param::DeclineEvery => (
            "declineEvery",
            "Declined cards",
            "",
            Fixed("Customers whose id is a multiple of this have a declined card; 0 means none."),
        ),
        Param::Pacer => (
            "pacer",
            "Pacer",
            "requests/s",
            Fixed("Requests per second the client lets out, for the strategies that pace."),
        ),
        Param::MaxAttempts => (
            "attempts",
            "Max attempts",
            "attempts",
            Fixed("How many times a retrying strategy tries one charge before giving up."),
        ),
        Param::BackoffBase => (
            "backoffMs",
            "Backoff base",
            "ms",
            Fixed("The pause after the first failed attempt; each further failure doubles it."),
        ),
        Param::BackoffJitter => (
            "jitter",
            "Backoff jitter",
            "",
            Fixed(
                "On: sleep a random time up to the backoff (full jitter). Off: sleep exactly it.",
            ),
        ),
        Param::Timeout => (
            "timeoutMs",
            "Client timeout",
            "ms",
            Fixed("How long the client waits for an answer before it gives up on an attempt."),
        ),
        Param::PoolWorkers => (
            "workers",
            "Pool workers",
            "workers",
            Fixed("Workers in the pool strategy; each takes the next customer when it is free."),
        ),
        Param::Incident => ("incident", "Incident", "", Built(incident_help)),
        Param::IncidentStart => (
            "incidentStartMs",
            "Incident start",
            "ms",
            Fixed("When the incident begins, in simulated time from the start of the run."),
        ),
        Param::IncidentLength => (
            "incidentMs",
            "Incident length",
            "ms",
            Fixed("How long the incident lasts."),
        ),
        Param::QueueLimit => (
            "queue",
            "Provider queue",
            "requests",
            Fixed("Requests that may wait for a busy provider (0: none, 503); it works on each."),
        ),
        Param::KeyCheck => (
            "keyCheck",
            "Key looked up",
            "",
            Fixed("Where a key is looked up: by the worker, after any queue (a 409 costs key work), or at the door."),
        ),
        Param::KeyWork => (
            "keyWorkMs",
            "Key work",
            "ms",
            Fixed("With keys looked up by the worker: how long a 409 or a replay takes it (not tied to the latency)."),
        ),
        Param::KeyTtl => (
            "keyTtlS",
            "Key kept",
            "s",
            Fixed("How long a key is kept from its admission; 0 keeps it for the whole run (ratelab serve: a day)."),
        ),
        Param::DownAnswer => (
            "downAnswer",
            "Down provider",
            "",
            Fixed("A down provider's 503: queued (it waits its turn and takes a worker) or fast (at the door)."),
        ),
        Param::DownHint => ("downRetryAfter", "Retry-After when down", "", Built(down_hint_help)),
        Param::KeyScope => (
            "keyScope",
            "Key names",
            "",
            Fixed("What a keyed client's key names: the charge (new each time) or the customer (the same each time)."),
        ),
        Param::Round => ("charge", "Which charge", "", Built(round_help)),
        Param::Traffic => ("traffic", "Traffic", "", Built(traffic_help)),
        Param::ArrivalRate => (
            "rate",
            "Arrival rate",
            "customers/s",
            Fixed("Customers a second for traffic over time (a batch ignores it)."),
        ),
    };
    (
        ParamSpec {
            param,
            key,
            label,
            unit,
        },
        help,
    )
}

/// Every parameter's words and its help, each in panel (and URL) order: the core's order.
/// Two tables, evaluated at compile time, so a module that reads only the first carries
/// none of the second's sentences.
const TABLES: ([ParamSpec; Param::ALL.len()], [Help; Param::ALL.len()]) = {
    let (spec, help) = words(Param::Customers);
    let mut out = ([spec; Param::ALL.len()], [help; Param::ALL.len()]);
    let mut i = 0;
    while i < Param::ALL.len() {
        let (spec, help) = words(Param::ALL[i]);
        out.0[i] = spec;
        out.1[i] = help;
        i += 1;
    }
    out
};

/// Every parameter of a run, in panel (and URL) order: the core's order.
pub const PARAMS: [ParamSpec; Param::ALL.len()] = TABLES.0;

/// The words for one parameter.
pub fn spec(param: Param) -> &'static ParamSpec {
    PARAMS
        .iter()
        .find(|p| p.param == param)
        .expect("PARAMS holds every parameter")
}

/// The parameter called `key` in URLs, if there is one.
pub fn param(key: &str) -> Option<&'static ParamSpec> {
    PARAMS.iter().find(|p| p.key == key)
}

/// Reads the text typed for one parameter (the panel calls this on every keystroke).
/// The error is a sentence naming the parameter, its range and unit.
pub fn parse_param(key: &str, text: &str) -> Result<ParamValue, String> {
    param(key).ok_or_else(|| no_such_param(key))?.parse(text)
}

/// [`parse_param`] for a page running `workload`: beyond the core's range, a page runs
/// fewer customers ([`crate::shared::budget`]), and a larger batch is refused here, beside its field,
/// before any run starts.
pub fn parse_param_in(workload: Workload, key: &str, text: &str) -> Result<ParamValue, String> {
    let value = parse_param(key, text)?;
    let max = u64::from(workload.max_customers());
    match (param(key).map(|p| p.param), value) {
        (Some(Param::Customers), ParamValue::Whole(asked)) if asked > max => Err(TooLarge {
            workload,
            max_customers: workload.max_customers(),
            asked: u32::try_from(asked).unwrap_or(u32::MAX),
        }
        .sentence()),
        _ => Ok(value),
    }
}

/// Sets one parameter of `scenario` if the whole scenario stays valid; otherwise leaves
/// it unchanged and says why (e.g. a jitter larger than the latency).
pub fn apply_param(scenario: &mut Scenario, key: &str, value: ParamValue) -> Result<(), String> {
    let spec = param(key).ok_or_else(|| no_such_param(key))?;
    spec.param
        .set(scenario, value)
        .map_err(|e| sentence(&e, scenario))
}

/// [`parse_param`] then [`apply_param`]: the panel's whole keystroke.
pub fn set_param(scenario: &mut Scenario, key: &str, text: &str) -> Result<(), String> {
    let value = parse_param(key, text)?;
    apply_param(scenario, key, value)
}

/// Sets several parameters from text at once, then checks them together, so the order
/// they come in does not matter (raising the latency and the jitter in one go works).
/// Returns the new scenario, or one sentence per problem; `base` itself is not changed.
pub fn apply_params(base: &Scenario, texts: &[(&str, &str)]) -> Result<Scenario, Vec<String>> {
    let mut scenario = base.clone();
    let mut problems = Vec::new();
    for (key, text) in texts {
        let set = parse_param(key, text).and_then(|value| {
            let spec = param(key).expect("parse_param knows the key");
            spec.param
                .set_unchecked(&mut scenario, value)
                .map_err(|e| sentence(&e, &scenario))
        });
        problems.extend(set.err());
    }
    if problems.is_empty() {
        if let Err(e) = scenario.validate() {
            problems.push(sentence(&e, &scenario));
        }
    }
    if problems.is_empty() {
        Ok(scenario)
    } else {
        Err(problems)
    }
}

/// A parameter's current value as text the panel can show and [`parse_param`] reads
/// back, or `None` if there is no parameter called `key`.
pub fn read_param(scenario: &Scenario, key: &str) -> Option<String> {
    param(key).map(|p| p.read(scenario))
}

fn no_such_param(key: &str) -> String {
    let keys: Vec<&str> = PARAMS.iter().map(|p| p.key).collect();
    format!(
        "There is no parameter called '{}'; the parameters are {}.",
        shown(key),
        keys.join(", ")
    )
}

/// What is wrong with a value, as a phrase that follows the quoted text.
enum Fault {
    Empty,
    Negative,
    NotNumber,
    NotWhole,
    TooPrecise,
    TooSmall,
    TooLarge,
    NotOne,
}

impl From<ValueFault> for Fault {
    fn from(f: ValueFault) -> Self {
        match f {
            ValueFault::TooSmall => Fault::TooSmall,
            ValueFault::TooLarge => Fault::TooLarge,
            ValueFault::WrongKind | ValueFault::NotAProbability | ValueFault::NotAChoice => {
                Fault::NotOne
            }
        }
    }
}

impl ParamSpec {
    /// One line of help for the panel and the command line's long help.
    pub fn help(&self) -> String {
        let at = Param::ALL.iter().position(|p| *p == self.param);
        match TABLES.1[at.expect("Param::ALL holds every parameter")] {
            Help::Fixed(text) => text.to_string(),
            Help::Built(build) => build(),
        }
    }

    /// What kind of value it takes.
    pub fn kind(&self) -> ParamKind {
        self.param.kind()
    }

    /// The panel group it belongs to.
    pub fn group(&self) -> ParamGroup {
        self.param.group()
    }

    /// The accepted values in the core's units (microseconds for times); `None` for
    /// probabilities and switches.
    pub fn bounds(&self) -> Option<RangeInclusive<u64>> {
        self.param.bounds()
    }

    /// The accepted values, short, for the command line and docs/guide.md: `1–10000
    /// requests`.
    pub fn range_text(&self) -> String {
        self.range_text_of(self.bounds())
    }

    /// The values a page running `workload` takes, short, for its panel: the core's, but
    /// customers only up to what the page runs.
    pub fn range_text_in(&self, workload: Workload) -> String {
        let bounds = self.bounds().map(|b| match self.param {
            Param::Customers => *b.start()..=(*b.end()).min(workload.max_customers().into()),
            _ => b,
        });
        self.range_text_of(bounds)
    }

    fn range_text_of(&self, bounds: Option<RangeInclusive<u64>>) -> String {
        match self.kind() {
            ParamKind::Count | ParamKind::Micros => self.span(bounds, "–"),
            ParamKind::Odds => "0 to 1, as 1/20, 1 in 20, 5% or 0".into(),
            ParamKind::Switch => "on or off".into(),
            ParamKind::Choice => self.choice_list(),
        }
    }

    /// The choices as a list: `none, errors, slow, down or capacity`.
    fn choice_list(&self) -> String {
        match self.param.choices() {
            [] => String::new(),
            [one] => (*one).to_string(),
            [most @ .., last] => format!("{} or {last}", most.join(", ")),
        }
    }

    /// The bounds joined by `between`, with the unit: `1 to 20 attempts`.
    fn span(&self, bounds: Option<RangeInclusive<u64>>, between: &str) -> String {
        let b = bounds.unwrap_or(0..=0);
        let unit = match self.unit {
            "" => String::new(),
            unit => format!(" {unit}"),
        };
        format!(
            "{}{between}{}{unit}",
            self.number_text(*b.start()),
            self.number_text(*b.end())
        )
    }

    /// What a value must be, as the end of a sentence: "a whole number from 1 to 20
    /// attempts".
    fn must_be(&self) -> String {
        match self.kind() {
            ParamKind::Count => format!("a whole number from {}", self.span(self.bounds(), " to ")),
            ParamKind::Micros => format!("a time from {}", self.span(self.bounds(), " to ")),
            ParamKind::Odds => "a probability written as 1/20, 1 in 20, 5% or 0".into(),
            ParamKind::Switch => "on or off".into(),
            ParamKind::Choice => format!("one of {}", self.choice_list()),
        }
    }

    fn refuse(&self, text: &str, fault: Fault) -> String {
        let t = shown(text);
        let why = match fault {
            Fault::Empty => "the value is empty".to_string(),
            Fault::Negative => format!("'{t}' is negative"),
            Fault::NotNumber => format!("'{t}' is not a number"),
            Fault::NotWhole => format!("'{t}' is not a whole number"),
            Fault::TooPrecise => format!("'{t}' is finer than a microsecond (0.001 ms)"),
            Fault::TooSmall => format!("'{t}' is too small"),
            Fault::TooLarge => format!("'{t}' is too large"),
            Fault::NotOne => format!("'{t}' is not one"),
        };
        format!(
            "{} ({}) must be {}, but {why}.",
            self.label,
            self.key,
            self.must_be()
        )
    }

    /// Reads text typed for this parameter, in its unit (milliseconds for times).
    pub fn parse(&self, text: &str) -> Result<ParamValue, String> {
        let t = text.trim();
        let value = match self.kind() {
            _ if t.is_empty() => Err(Fault::Empty),
            ParamKind::Count => read_number(t, 0).map(ParamValue::Whole),
            ParamKind::Micros => read_number(t, 3).map(ParamValue::Whole),
            ParamKind::Odds => crate::shared::odds::parse_odds(t)
                .map(ParamValue::Odds)
                .ok_or(Fault::NotOne),
            ParamKind::Switch => match t {
                "on" => Ok(ParamValue::Switch(true)),
                "off" => Ok(ParamValue::Switch(false)),
                _ => Err(Fault::NotOne),
            },
            ParamKind::Choice => self
                .param
                .choices()
                .iter()
                .position(|c| *c == t)
                .map(ParamValue::Choice)
                .ok_or(Fault::NotOne),
        };
        match value.map(|v| (v, self.param.fault(v).map(Fault::from))) {
            Ok((v, None)) => Ok(v),
            Ok((_, Some(fault))) | Err(fault) => Err(self.refuse(t, fault)),
        }
    }

    /// Checks that a value is of this parameter's kind and inside its range; the
    /// sentence is the one [`ParamSpec::parse`] gives for the same value as text.
    pub fn check(&self, value: ParamValue) -> Result<(), String> {
        match self.param.fault(value) {
            None => Ok(()),
            Some(fault) => Err(self.refuse(&self.text(value), fault.into())),
        }
    }

    /// A value as text in this parameter's unit, which [`ParamSpec::parse`] reads back
    /// exactly: `15`, `1.5` (ms), `1/20`, `on`.
    pub fn text(&self, value: ParamValue) -> String {
        match value {
            ParamValue::Whole(n) => self.number_text(n),
            ParamValue::Odds(Odds::NEVER) => "0".into(),
            ParamValue::Odds(o) => format!("{}/{}", o.num, o.den),
            ParamValue::Switch(true) => "on".into(),
            ParamValue::Switch(false) => "off".into(),
            ParamValue::Choice(i) => self
                .param
                .choices()
                .get(i)
                .map_or_else(|| i.to_string(), |c| (*c).to_string()),
        }
    }

    fn number_text(&self, n: u64) -> String {
        match self.kind() {
            ParamKind::Micros => millis_text(n),
            _ => n.to_string(),
        }
    }

    /// This parameter's value in `scenario`.
    pub fn value(&self, scenario: &Scenario) -> ParamValue {
        self.param.get(scenario)
    }

    /// This parameter's value in `scenario`, as text (see [`ParamSpec::text`]).
    pub fn read(&self, scenario: &Scenario) -> String {
        self.text(self.value(scenario))
    }

    /// The article's value, as text.
    pub fn default_text(&self) -> String {
        self.read(&Scenario::default())
    }

    /// True if `scenario` has the article's value for this parameter.
    pub fn is_default(&self, scenario: &Scenario) -> bool {
        self.param.is_default(scenario)
    }

    /// The default with its unit: "10 requests", "15 ms", "1/20".
    pub fn default_with_unit(&self) -> String {
        match self.unit {
            "" => self.default_text(),
            unit => format!("{} {unit}", self.default_text()),
        }
    }
}

/// Microseconds as milliseconds, with only the decimals needed: `15`, `1.5`, `0.001`.
pub fn millis_text(us: u64) -> String {
    let (whole_ms, rest_us) = (us / US_PER_MS, us % US_PER_MS);
    if rest_us == 0 {
        whole_ms.to_string()
    } else {
        format!("{whole_ms}.{rest_us:03}")
            .trim_end_matches('0')
            .to_string()
    }
}

/// A decimal number with at most `decimals` digits after the point, scaled by
/// 10^decimals into a whole number: `read_number("1.5", 3) == Ok(1500)`.
fn read_number(t: &str, decimals: u32) -> Result<u64, Fault> {
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    let shaped = all_digits(int) && (frac.is_empty() || all_digits(frac)) && !t.ends_with('.');
    if !shaped {
        let rest = t.strip_prefix('-').unwrap_or("");
        let (ri, rf) = rest.split_once('.').unwrap_or((rest, ""));
        return Err(if all_digits(ri) && (rf.is_empty() || all_digits(rf)) {
            Fault::Negative
        } else {
            Fault::NotNumber
        });
    }
    if frac.len() > decimals as usize {
        return Err(if decimals == 0 {
            Fault::NotWhole
        } else {
            Fault::TooPrecise
        });
    }
    let scale = 10u64.pow(decimals);
    let frac_scaled = format!("{frac:0<width$}", width = decimals as usize);
    let frac_value: u64 = if frac_scaled.is_empty() {
        0
    } else {
        frac_scaled.parse().map_err(|_| Fault::NotNumber)?
    };
    int.parse::<u64>()
        .ok()
        .and_then(|i| i.checked_mul(scale))
        .and_then(|i| i.checked_add(frac_value))
        .ok_or(Fault::TooLarge)
}

/// The sentence for a broken rule, with the values that break it.
pub fn rule_sentence(rule: Rule, s: &Scenario) -> String {
    let p = &s.provider;
    match rule {
        Rule::JitterWithinLatency => format!(
            "The latency jitter (jitterMs) is {} ms, more than the latency (latencyMs) of {} ms; the jitter cannot exceed the latency.",
            millis_text(p.latency_jitter_us),
            millis_text(p.latency_us)
        ),
    }
}

/// The sentence for why `scenario` (or a value for it) cannot run.
pub fn sentence(e: &ScenarioError, scenario: &Scenario) -> String {
    match *e {
        ScenarioError::Value { param, value, .. } => spec(param)
            .check(value)
            .err()
            .unwrap_or_else(|| format!("{} cannot be used.", spec(param).label)),
        ScenarioError::Rule(rule) => rule_sentence(rule, scenario),
    }
}

/// The sentence without the scenario at hand: a broken rule is named, not quoted.
impl Words for ScenarioError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScenarioError::Value { .. } => f.write_str(&sentence(self, &Scenario::default())),
            ScenarioError::Rule(rule) => {
                let keys: Vec<&str> = rule.params().iter().map(|&p| spec(p).key).collect();
                match rule {
                    Rule::JitterWithinLatency => write!(
                        f,
                        "The latency jitter cannot exceed the latency ({}).",
                        keys.join(", ")
                    ),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_covers_every_range_once_with_its_documented_bounds() {
        let order: Vec<Param> = PARAMS.iter().map(|p| p.param).collect();
        assert_eq!(order, Param::ALL, "the words follow the core's table");
        let mut keys: Vec<&str> = PARAMS.iter().map(|p| p.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), PARAMS.len(), "keys are unique");
        for p in PARAMS {
            let help = p.help();
            assert!(help.len() < 100 && help.ends_with('.'), "{}: {help}", p.key);
            assert_eq!(
                p.parse(&p.default_text()),
                Ok(p.value(&Scenario::default()))
            );
        }
        assert_eq!(param("rateWindowMs").unwrap().range_text(), "1–3600000 ms");
        assert_eq!(
            param("maxInflight").unwrap().range_text(),
            "1–10000 requests"
        );
    }

    #[test]
    fn the_incident_help_quotes_the_cores_figures_and_no_other() {
        use crate::shared::format::{count, odds_text};
        use sim::incident::{CAPACITY_MAX_INFLIGHT, CAPACITY_RATE_LIMIT, ERRORS_ODDS};
        use sim::provider::Status;
        let help = spec(Param::Incident).help();
        let errors = odds_text(ERRORS_ODDS);
        let down = Status::Overloaded.code().to_string();
        let inflight = count(CAPACITY_MAX_INFLIGHT.into());
        let rate = count(CAPACITY_RATE_LIMIT.into());
        for (phrase, what) in [
            (format!("errors ({errors} fail)"), "ERRORS_ODDS"),
            (format!("down (all {down})"), "a 503"),
            (format!("({inflight} in flight"), "CAPACITY_MAX_INFLIGHT"),
            (format!("{rate} a window)"), "CAPACITY_RATE_LIMIT"),
        ] {
            assert!(help.contains(&phrase), "{what}: '{phrase}' not in {help}");
        }
        // Every number in it is one of those: none typed beside them.
        let quoted: Vec<String> = [errors.as_str(), &down, &inflight, &rate]
            .iter()
            .flat_map(|t| t.split(|c: char| !c.is_ascii_digit()))
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect();
        for number in help
            .split(|c: char| !c.is_ascii_digit())
            .filter(|n| !n.is_empty())
        {
            assert!(quoted.iter().any(|q| q == number), "{number} in {help}");
        }
        // Every choice is named.
        for choice in Param::Incident.choices().iter().skip(1) {
            assert!(help.contains(choice), "{choice} in {help}");
        }
        // The other parameters' help is as written.
        assert_eq!(
            spec(Param::IncidentLength).help(),
            "How long the incident lasts."
        );
    }

    #[test]
    fn numbers_times_odds_and_switches_are_read_in_their_units() {
        let ok = |k: &str, t: &str| parse_param(k, t).unwrap();
        assert_eq!(ok("maxInflight", " 20 "), ParamValue::Whole(20));
        assert_eq!(ok("latencyMs", "15"), ParamValue::Whole(15_000));
        assert_eq!(ok("latencyMs", "1.5"), ParamValue::Whole(1_500));
        assert_eq!(ok("latencyMs", "0.001"), ParamValue::Whole(1));
        assert_eq!(
            ok("errorRate", "1 in 20"),
            ParamValue::Odds(Odds::one_in(20))
        );
        assert_eq!(
            ok("slowRate", "5%"),
            ParamValue::Odds(Odds { num: 5, den: 100 })
        );
        assert_eq!(ok("errorRate", "0"), ParamValue::Odds(Odds::NEVER));
        assert_eq!(ok("jitter", "on"), ParamValue::Switch(true));
        assert_eq!(ok("incident", " down "), ParamValue::Choice(3));
        assert_eq!(ok("incidentStartMs", "4000"), ParamValue::Whole(4_000_000));
        assert_eq!(
            parse_param("incident", "Down").unwrap_err(),
            "Incident (incident) must be one of none, errors, slow, down or capacity, but 'Down' is not one."
        );
        assert_eq!(
            spec(Param::Incident).text(ParamValue::Choice(4)),
            "capacity"
        );
        assert_eq!(
            spec(Param::Incident).check(ParamValue::Choice(5)),
            Err("Incident (incident) must be one of none, errors, slow, down or capacity, but '5' is not one.".into())
        );
        assert_eq!(millis_text(1_500), "1.5");
        assert_eq!(millis_text(1_050), "1.05");
        assert_eq!(millis_text(15_000), "15");
        assert_eq!(millis_text(0), "0");
    }

    #[test]
    fn bad_values_are_refused_with_the_range_and_unit_never_clamped() {
        let err = |k: &str, t: &str| parse_param(k, t).unwrap_err();
        let cases = [
            ("maxInflight", "-3", "'-3' is negative"),
            ("maxInflight", "0", "'0' is too small"),
            ("maxInflight", "10001", "'10001' is too large"),
            ("maxInflight", "1e30", "'1e30' is not a number"),
            ("maxInflight", "99999999999999999999999", "too large"),
            ("maxInflight", "2.5", "'2.5' is not a whole number"),
            ("maxInflight", "", "the value is empty"),
            ("latencyMs", "1.2345", "finer than a microsecond"),
            ("latencyMs", "1.", "not a number"),
            ("latencyMs", "-0.5", "negative"),
            ("timeoutMs", "0.5", "'0.5' is too small"),
            ("errorRate", "3/2", "'3/2' is not one"),
            ("jitter", "yes", "'yes' is not one"),
            ("customers", "١٢", "not a number"),
        ];
        for (key, text, phrase) in cases {
            let e = err(key, text);
            assert!(e.contains(phrase), "{key}={text}: {e}");
            assert!(e.contains(&format!("({key})")), "{e}");
        }
        let e = err("maxInflight", "-3");
        assert_eq!(
            e,
            "In-flight limit (maxInflight) must be a whole number from 1 to 10000 requests, but '-3' is negative."
        );
        assert_eq!(
            err("timeoutMs", "0"),
            "Client timeout (timeoutMs) must be a time from 1 to 600000 ms, but '0' is too small."
        );
        assert!(err("colour", "red").contains("no parameter called 'colour'"));
    }

    #[test]
    fn applying_keeps_the_scenario_valid_or_leaves_it_alone() {
        let mut s = Scenario::default();
        set_param(&mut s, "maxInflight", "20").unwrap();
        assert_eq!(s.provider.max_inflight, 20);
        let e = set_param(&mut s, "jitterMs", "20").unwrap_err();
        assert!(e.contains("cannot exceed the latency"), "{e}");
        assert_eq!(s.provider.latency_jitter_us, 3_000, "unchanged");
        set_param(&mut s, "latencyMs", "50").unwrap();
        set_param(&mut s, "jitterMs", "20").unwrap();
        assert_eq!(read_param(&s, "jitterMs").as_deref(), Some("20"));
        assert!(apply_param(&mut s, "maxInflight", ParamValue::Whole(0)).is_err());
        assert!(apply_param(&mut s, "maxInflight", ParamValue::Switch(true)).is_err());
        assert_eq!(s.provider.max_inflight, 20);
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(read_param(&s, "nope"), None);
        let together = apply_params(
            &Scenario::default(),
            &[("jitterMs", "40"), ("latencyMs", "60"), ("workers", "2")],
        )
        .unwrap();
        assert_eq!(together.provider.latency_jitter_us, 40_000);
        let problems = apply_params(
            &Scenario::default(),
            &[("jitterMs", "40"), ("workers", "0"), ("attempts", "x")],
        )
        .unwrap_err();
        assert_eq!(problems.len(), 2, "{problems:?}");
        let problems = apply_params(&Scenario::default(), &[("jitterMs", "40")]).unwrap_err();
        assert!(problems[0].contains("cannot exceed"), "{problems:?}");
    }
}

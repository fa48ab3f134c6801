//! Every parameter of a run, in one table: its kind, its range in the core's units, how
//! it is read from and written into a [`Scenario`], and the rules that span parameters.
//!
//! The URL, the parameter panel, the exports and `ratelab`'s flags all go through this
//! table; the page layer adds each parameter's name, label, unit and help. Nothing is
//! ever clamped into range: a value outside it is refused, and the refusal says which
//! parameter and why.

use super::incident::{DownAnswer, DownHint, Incident};
use super::next_month::ChargeRound;
use super::provider::KeyCheck;
use super::rng::Odds;
use super::scenario::{Scenario, MAX_CUSTOMERS};
use super::strategy::charge::KeyScope;
use super::time::{ms, secs, US_PER_S};
use super::traffic::Traffic;
use std::ops::RangeInclusive;

/// The longest a key may be kept, in seconds: a year, as `ratelab serve` allows.
pub const KEY_TTL_MAX_S: u64 = 365 * 24 * 3_600;

/// What kind of value a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A whole number of its unit.
    Count,
    /// A time in microseconds.
    Micros,
    /// A probability.
    Odds,
    /// On or off.
    Switch,
    /// One of a few named choices ([`Param::choices`]).
    Choice,
}

/// Which side of the simulation a parameter belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamGroup {
    /// The batch and the payment provider's rules.
    Provider,
    /// The client's numbers.
    Client,
    /// When customers arrive.
    Traffic,
}

/// A parameter's value in the core's units: a count, or microseconds for a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamValue {
    /// A count, or a time in microseconds.
    Whole(u64),
    /// A probability.
    Odds(Odds),
    /// A switch.
    Switch(bool),
    /// A choice, by its index in [`Param::choices`].
    Choice(usize),
}

/// Why a value cannot be used for a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueFault {
    /// A value of another kind (a switch for a count, say).
    WrongKind,
    /// Below the range.
    TooSmall,
    /// Above the range.
    TooLarge,
    /// A fraction that is not a probability (a zero denominator, or above 1).
    NotAProbability,
    /// An index past the last of a parameter's choices.
    NotAChoice,
}

/// Every parameter of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Param {
    /// Customers `1..=customers`, one charge each.
    Customers,
    /// Admitted requests the provider processes at once.
    MaxInflight,
    /// Requests the provider admits per rate window.
    RateLimit,
    /// The rate window's length.
    RateWindow,
    /// The chance that an admitted charge fails with 500.
    ErrorRate,
    /// The chance that an admitted charge is slow.
    SlowRate,
    /// How long a slow charge takes.
    SlowLatency,
    /// How long an admitted request usually takes.
    Latency,
    /// How far the usual latency varies either way.
    LatencyJitter,
    /// Every customer whose id is a multiple of this is declined (0: none).
    DeclineEvery,
    /// Requests per second the client's pacer lets out.
    Pacer,
    /// Attempts per charge for the strategies that retry.
    MaxAttempts,
    /// The pause after the first failed attempt.
    BackoffBase,
    /// Full jitter on the backoff.
    BackoffJitter,
    /// How long the client waits for one answer.
    Timeout,
    /// Workers in the pool strategy.
    PoolWorkers,
    /// What goes wrong during the incident, if anything.
    Incident,
    /// When the incident starts.
    IncidentStart,
    /// How long the incident lasts.
    IncidentLength,
    /// Requests that may wait for a busy provider (0: none, a full provider answers 503).
    QueueLimit,
    /// Where the provider looks an idempotency key up: by the worker or at the door.
    KeyCheck,
    /// How long a 409 or a replayed answer keeps a worker busy, if the worker looks keys up.
    KeyWork,
    /// How long the provider keeps a key (0: for as long as it runs).
    KeyTtl,
    /// How a provider that is down answers: queued like any request, or at the door.
    DownAnswer,
    /// What `Retry-After` says while the provider is down.
    DownHint,
    /// What the client's idempotency key names: the charge or the customer.
    KeyScope,
    /// How customers arrive.
    Traffic,
    /// Customers a second, for traffic that arrives over time.
    ArrivalRate,
    /// Which charge this is: the first, or next month's.
    Round,
}

/// A parameter's kind, group and bounds.
type Shape = (ParamKind, ParamGroup, (u64, u64));
/// Reads a parameter from a scenario.
type Getter = fn(&Scenario) -> ParamValue;
/// Writes a parameter into a scenario.
type Setter = fn(&mut Scenario, ParamValue);

/// One row of the table.
struct Def {
    kind: ParamKind,
    group: ParamGroup,
    /// Accepted values, for counts and times (unused for the others).
    bounds: (u64, u64),
    get: Getter,
    set: Setter,
}

const fn count(group: ParamGroup, lo: u64, hi: u64) -> Shape {
    (ParamKind::Count, group, (lo, hi))
}

const fn micros(group: ParamGroup, lo: u64, hi: u64) -> Shape {
    (ParamKind::Micros, group, (lo, hi))
}

fn whole(v: ParamValue) -> u64 {
    match v {
        ParamValue::Whole(n) => n,
        // Every setter is reached through `Param::check`, which refuses another kind.
        ParamValue::Odds(_) | ParamValue::Switch(_) | ParamValue::Choice(_) => {
            unreachable!("kind checked")
        }
    }
}

fn narrow(v: ParamValue) -> u32 {
    let Ok(n) = u32::try_from(whole(v)) else {
        panic!("every u32 parameter's range fits in a u32");
    };
    n
}

fn odds(v: ParamValue) -> Odds {
    match v {
        ParamValue::Odds(o) => o,
        ParamValue::Whole(_) | ParamValue::Switch(_) | ParamValue::Choice(_) => {
            unreachable!("kind checked")
        }
    }
}

fn switch(v: ParamValue) -> bool {
    match v {
        ParamValue::Switch(b) => b,
        ParamValue::Whole(_) | ParamValue::Odds(_) | ParamValue::Choice(_) => {
            unreachable!("kind checked")
        }
    }
}

fn choice(v: ParamValue) -> usize {
    match v {
        ParamValue::Choice(i) => i,
        ParamValue::Whole(_) | ParamValue::Odds(_) | ParamValue::Switch(_) => {
            unreachable!("kind checked")
        }
    }
}

impl Param {
    /// Every parameter, in the order the panel and the URL list them.
    pub const ALL: [Param; 29] = [
        Param::Customers,
        Param::MaxInflight,
        Param::RateLimit,
        Param::RateWindow,
        Param::ErrorRate,
        Param::SlowRate,
        Param::SlowLatency,
        Param::Latency,
        Param::LatencyJitter,
        Param::DeclineEvery,
        Param::Pacer,
        Param::MaxAttempts,
        Param::BackoffBase,
        Param::BackoffJitter,
        Param::Timeout,
        Param::PoolWorkers,
        Param::KeyScope,
        Param::Incident,
        Param::IncidentStart,
        Param::IncidentLength,
        Param::QueueLimit,
        Param::KeyCheck,
        Param::KeyWork,
        Param::KeyTtl,
        Param::DownAnswer,
        Param::DownHint,
        Param::Traffic,
        Param::ArrivalRate,
        Param::Round,
    ];

    /// The table. Ranges: a million-customer run must fit (MAX_CUSTOMERS); times up to
    /// an hour for windows and ten minutes for a wait keep every sum of times far from
    /// overflowing a u64 of microseconds.
    fn def(self) -> Def {
        use ParamGroup::{Client, Provider, Traffic as Arrivals};
        let ((kind, group, bounds), get, set): (Shape, Getter, Setter) = match self {
            Param::Customers => (
                count(Provider, 1, MAX_CUSTOMERS as u64),
                |s| ParamValue::Whole(s.customers.into()),
                |s, v| s.customers = narrow(v),
            ),
            Param::MaxInflight => (
                count(Provider, 1, 10_000),
                |s| ParamValue::Whole(s.provider.max_inflight.into()),
                |s, v| s.provider.max_inflight = narrow(v),
            ),
            Param::RateLimit => (
                count(Provider, 1, 1_000_000),
                |s| ParamValue::Whole(s.provider.rate_limit.into()),
                |s, v| s.provider.rate_limit = narrow(v),
            ),
            Param::RateWindow => (
                micros(Provider, ms(1), secs(3_600)),
                |s| ParamValue::Whole(s.provider.rate_window_us),
                |s, v| s.provider.rate_window_us = whole(v),
            ),
            Param::ErrorRate => (
                (ParamKind::Odds, Provider, (0, 0)),
                |s| ParamValue::Odds(s.provider.server_error),
                |s, v| s.provider.server_error = odds(v),
            ),
            Param::SlowRate => (
                (ParamKind::Odds, Provider, (0, 0)),
                |s| ParamValue::Odds(s.provider.slow),
                |s, v| s.provider.slow = odds(v),
            ),
            Param::SlowLatency => (
                micros(Provider, 0, secs(600)),
                |s| ParamValue::Whole(s.provider.slow_latency_us),
                |s, v| s.provider.slow_latency_us = whole(v),
            ),
            Param::Latency => (
                micros(Provider, 0, secs(60)),
                |s| ParamValue::Whole(s.provider.latency_us),
                |s, v| s.provider.latency_us = whole(v),
            ),
            Param::LatencyJitter => (
                micros(Provider, 0, secs(60)),
                |s| ParamValue::Whole(s.provider.latency_jitter_us),
                |s, v| s.provider.latency_jitter_us = whole(v),
            ),
            Param::DeclineEvery => (
                count(Provider, 0, MAX_CUSTOMERS as u64),
                |s| ParamValue::Whole(s.provider.decline_every.into()),
                |s, v| s.provider.decline_every = narrow(v),
            ),
            Param::Pacer => (
                count(Client, 1, 1_000_000),
                |s| ParamValue::Whole(s.client.pacer_per_s.into()),
                |s, v| s.client.pacer_per_s = narrow(v),
            ),
            Param::MaxAttempts => (
                count(Client, 1, 20),
                |s| ParamValue::Whole(s.client.max_attempts.into()),
                |s, v| s.client.max_attempts = narrow(v),
            ),
            Param::BackoffBase => (
                micros(Client, 0, secs(60)),
                |s| ParamValue::Whole(s.client.backoff_base_us),
                |s, v| s.client.backoff_base_us = whole(v),
            ),
            Param::BackoffJitter => (
                (ParamKind::Switch, Client, (0, 0)),
                |s| ParamValue::Switch(s.client.backoff_jitter),
                |s, v| s.client.backoff_jitter = switch(v),
            ),
            Param::Timeout => (
                micros(Client, ms(1), secs(600)),
                |s| ParamValue::Whole(s.client.timeout_us),
                |s, v| s.client.timeout_us = whole(v),
            ),
            Param::PoolWorkers => (
                count(Client, 1, 1_000),
                |s| ParamValue::Whole(s.client.pool_workers.into()),
                |s, v| s.client.pool_workers = narrow(v),
            ),
            Param::Incident => (
                (ParamKind::Choice, Provider, (0, 0)),
                |s| ParamValue::Choice(s.provider.incident.kind as usize),
                |s, v| s.provider.incident.kind = Incident::ALL[choice(v)],
            ),
            Param::IncidentStart => (
                micros(Provider, 0, secs(3_600)),
                |s| ParamValue::Whole(s.provider.incident.start_us),
                |s, v| s.provider.incident.start_us = whole(v),
            ),
            Param::IncidentLength => (
                micros(Provider, ms(1), secs(3_600)),
                |s| ParamValue::Whole(s.provider.incident.length_us),
                |s, v| s.provider.incident.length_us = whole(v),
            ),
            Param::QueueLimit => (
                count(Provider, 0, 100_000),
                |s| ParamValue::Whole(s.provider.queue_limit.into()),
                |s, v| s.provider.queue_limit = narrow(v),
            ),
            Param::KeyCheck => (
                (ParamKind::Choice, Provider, (0, 0)),
                |s| ParamValue::Choice(s.provider.key_check as usize),
                |s, v| s.provider.key_check = KeyCheck::ALL[choice(v)],
            ),
            Param::KeyWork => (
                micros(Provider, 0, secs(60)),
                |s| ParamValue::Whole(s.provider.key_work_us),
                |s, v| s.provider.key_work_us = whole(v),
            ),
            // In whole seconds, as `ratelab serve --key-ttl-s` takes it: up to a year.
            Param::KeyTtl => (
                count(Provider, 0, KEY_TTL_MAX_S),
                |s| ParamValue::Whole(s.provider.key_ttl_us / US_PER_S),
                |s, v| s.provider.key_ttl_us = secs(whole(v)),
            ),
            Param::DownAnswer => (
                (ParamKind::Choice, Provider, (0, 0)),
                |s| ParamValue::Choice(s.provider.down_answer as usize),
                |s, v| s.provider.down_answer = DownAnswer::ALL[choice(v)],
            ),
            Param::DownHint => (
                (ParamKind::Choice, Provider, (0, 0)),
                |s| ParamValue::Choice(s.provider.down_hint as usize),
                |s, v| s.provider.down_hint = DownHint::ALL[choice(v)],
            ),
            Param::KeyScope => (
                (ParamKind::Choice, Client, (0, 0)),
                |s| ParamValue::Choice(s.client.key_scope as usize),
                |s, v| s.client.key_scope = KeyScope::ALL[choice(v)],
            ),
            Param::Round => (
                (ParamKind::Choice, Arrivals, (0, 0)),
                |s| ParamValue::Choice(s.round as usize),
                |s, v| s.round = ChargeRound::ALL[choice(v)],
            ),
            Param::Traffic => (
                (ParamKind::Choice, Arrivals, (0, 0)),
                |s| ParamValue::Choice(s.traffic.shape as usize),
                |s, v| s.traffic.shape = Traffic::ALL[choice(v)],
            ),
            Param::ArrivalRate => (
                count(Arrivals, 1, 1_000_000),
                |s| ParamValue::Whole(s.traffic.rate_per_s.into()),
                |s, v| s.traffic.rate_per_s = narrow(v),
            ),
        };
        Def {
            kind,
            group,
            bounds,
            get,
            set,
        }
    }

    /// What kind of value it takes.
    pub fn kind(self) -> ParamKind {
        self.def().kind
    }

    /// The panel group it belongs to.
    pub fn group(self) -> ParamGroup {
        self.def().group
    }

    /// The accepted values in the core's units, for counts and times; `None` for
    /// probabilities and switches.
    pub fn bounds(self) -> Option<RangeInclusive<u64>> {
        let d = self.def();
        matches!(d.kind, ParamKind::Count | ParamKind::Micros).then_some(d.bounds.0..=d.bounds.1)
    }

    /// The names of its choices, in order, for a [`ParamKind::Choice`]; empty for the
    /// others.
    pub fn choices(self) -> &'static [&'static str] {
        match self {
            Param::Incident => &Incident::NAMES,
            Param::Traffic => &Traffic::NAMES,
            Param::KeyCheck => &KeyCheck::NAMES,
            Param::DownAnswer => &DownAnswer::NAMES,
            Param::DownHint => &DownHint::NAMES,
            Param::KeyScope => &KeyScope::NAMES,
            Param::Round => &ChargeRound::NAMES,
            _ => &[],
        }
    }

    /// Its value in `scenario`.
    pub fn get(self, scenario: &Scenario) -> ParamValue {
        (self.def().get)(scenario)
    }

    /// The article's value.
    pub fn default_value(self) -> ParamValue {
        self.get(&Scenario::default())
    }

    /// True if `scenario` has the article's value.
    pub fn is_default(self, scenario: &Scenario) -> bool {
        self.get(scenario) == self.default_value()
    }

    /// Why `value` cannot be used for this parameter, if it cannot.
    pub fn fault(self, value: ParamValue) -> Option<ValueFault> {
        match (self.kind(), value, self.bounds()) {
            (ParamKind::Count | ParamKind::Micros, ParamValue::Whole(n), Some(b)) => {
                if n < *b.start() {
                    Some(ValueFault::TooSmall)
                } else if n > *b.end() {
                    Some(ValueFault::TooLarge)
                } else {
                    None
                }
            }
            (ParamKind::Odds, ParamValue::Odds(o), _) => {
                (!o.is_probability()).then_some(ValueFault::NotAProbability)
            }
            (ParamKind::Switch, ParamValue::Switch(_), _) => None,
            (ParamKind::Choice, ParamValue::Choice(i), _) => {
                (i >= self.choices().len()).then_some(ValueFault::NotAChoice)
            }
            _ => Some(ValueFault::WrongKind),
        }
    }

    /// Sets the value without looking at the other parameters: the URL reader and the
    /// flags set them all, then check the rules once (so their order does not matter).
    /// A value with a [`Param::fault`] is refused and changes nothing.
    pub fn set_unchecked(
        self,
        scenario: &mut Scenario,
        value: ParamValue,
    ) -> Result<(), ScenarioError> {
        match self.fault(value) {
            Some(fault) => Err(ScenarioError::Value {
                param: self,
                value,
                fault,
            }),
            None => {
                (self.def().set)(scenario, value);
                Ok(())
            }
        }
    }

    /// Sets the value if the whole scenario stays valid; otherwise leaves it unchanged
    /// and says why.
    pub fn set(self, scenario: &mut Scenario, value: ParamValue) -> Result<(), ScenarioError> {
        let before = self.get(scenario);
        self.set_unchecked(scenario, value)?;
        scenario.validate().inspect_err(|_| {
            (self.def().set)(scenario, before);
        })
    }

    /// Puts back the article's value.
    pub fn reset(self, scenario: &mut Scenario) {
        (self.def().set)(scenario, self.default_value());
    }
}

impl Odds {
    /// True if the fraction is a probability: a non-zero denominator, at most 1.
    pub fn is_probability(&self) -> bool {
        self.den != 0 && self.num <= self.den
    }
}

/// A rule that spans parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The latency varies by at most the latency itself, so it is never negative.
    JitterWithinLatency,
}

impl Rule {
    /// Every rule.
    pub const ALL: [Rule; 1] = [Rule::JitterWithinLatency];

    /// The parameters it involves; putting them back to the article's values satisfies it.
    pub const fn params(self) -> &'static [Param] {
        match self {
            Rule::JitterWithinLatency => &[Param::Latency, Param::LatencyJitter],
        }
    }

    /// True if `scenario` keeps this rule.
    pub fn holds(self, scenario: &Scenario) -> bool {
        match self {
            Rule::JitterWithinLatency => {
                scenario.provider.latency_jitter_us <= scenario.provider.latency_us
            }
        }
    }

    /// The first rule `scenario` breaks, if any.
    pub fn first_broken(scenario: &Scenario) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| !r.holds(scenario))
    }
}

/// Why a scenario cannot run: one parameter's value, or a rule across several. The page
/// layer writes the sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioError {
    /// A value outside its parameter's range, or of the wrong kind.
    Value {
        /// The parameter.
        param: Param,
        /// The value refused.
        value: ParamValue,
        /// Why.
        fault: ValueFault,
    },
    /// A rule across parameters is broken.
    Rule(Rule),
}

crate::error_display!(ScenarioError, "scenario refused");

impl Scenario {
    /// Checks every parameter against its range, then the rules across them; the first
    /// problem found is returned.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        for param in Param::ALL {
            let value = param.get(self);
            if let Some(fault) = param.fault(value) {
                return Err(ScenarioError::Value {
                    param,
                    value,
                    fault,
                });
            }
        }
        match Rule::first_broken(self) {
            Some(rule) => Err(ScenarioError::Rule(rule)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_every_parameter_reads_back_what_it_sets() {
        let s = Scenario::default();
        assert_eq!(s.validate(), Ok(()));
        for p in Param::ALL {
            let mut t = s.clone();
            let v = p.get(&s);
            let other = match (p.kind(), v) {
                (_, ParamValue::Whole(_)) => ParamValue::Whole(*p.bounds().unwrap().end()),
                (_, ParamValue::Odds(_)) => ParamValue::Odds(Odds { num: 1, den: 2 }),
                (_, ParamValue::Switch(b)) => ParamValue::Switch(!b),
                (_, ParamValue::Choice(_)) => ParamValue::Choice(p.choices().len() - 1),
            };
            assert_eq!(p.fault(v), None, "{p:?}");
            p.set_unchecked(&mut t, other).unwrap();
            assert_eq!(p.get(&t), other, "{p:?}");
            assert!(!p.is_default(&t) || other == v, "{p:?}");
            p.reset(&mut t);
            assert_eq!(t, s, "{p:?}");
        }
    }

    #[test]
    fn out_of_range_values_and_broken_rules_name_what_is_wrong() {
        let mut s = Scenario::default();
        let e = Param::Customers
            .set(&mut s, ParamValue::Whole(0))
            .unwrap_err();
        assert_eq!(
            e,
            ScenarioError::Value {
                param: Param::Customers,
                value: ParamValue::Whole(0),
                fault: ValueFault::TooSmall
            }
        );
        let e = Param::Customers
            .set(&mut s, ParamValue::Whole(u64::from(MAX_CUSTOMERS) + 1))
            .unwrap_err();
        assert!(matches!(
            e,
            ScenarioError::Value {
                fault: ValueFault::TooLarge,
                ..
            }
        ));
        let e = Param::PoolWorkers
            .set(&mut s, ParamValue::Switch(true))
            .unwrap_err();
        assert!(matches!(
            e,
            ScenarioError::Value {
                fault: ValueFault::WrongKind,
                ..
            }
        ));
        let e = Param::SlowRate
            .set(&mut s, ParamValue::Odds(Odds { num: 2, den: 1 }))
            .unwrap_err();
        assert!(matches!(
            e,
            ScenarioError::Value {
                fault: ValueFault::NotAProbability,
                ..
            }
        ));
        let jitter = s.provider.latency_us + 1;
        let e = Param::LatencyJitter
            .set(&mut s, ParamValue::Whole(jitter))
            .unwrap_err();
        assert_eq!(e, ScenarioError::Rule(Rule::JitterWithinLatency));
        assert_eq!(s, Scenario::default(), "a refused value changes nothing");
        Param::Latency
            .set(&mut s, ParamValue::Whole(jitter))
            .unwrap();
        Param::LatencyJitter
            .set(&mut s, ParamValue::Whole(jitter))
            .unwrap();
        assert_eq!(s.validate(), Ok(()));
        // Setting first and checking after: the order of the two does not matter.
        let mut t = Scenario::default();
        Param::LatencyJitter
            .set_unchecked(&mut t, ParamValue::Whole(40_000))
            .unwrap();
        assert_eq!(Rule::first_broken(&t), Some(Rule::JitterWithinLatency));
        Param::Latency
            .set_unchecked(&mut t, ParamValue::Whole(60_000))
            .unwrap();
        assert_eq!(t.validate(), Ok(()));
    }

    #[test]
    fn a_rules_parameters_put_back_satisfy_it() {
        for rule in Rule::ALL {
            let mut s = Scenario::default();
            s.provider.latency_jitter_us = s.provider.latency_us + 5;
            s.provider.latency_us = 0;
            for p in rule.params() {
                p.reset(&mut s);
            }
            assert!(rule.holds(&s), "{rule:?}");
        }
    }
}

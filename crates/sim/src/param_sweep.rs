//! Parameter sweeps: one parameter stepped from one value to another, each value run over
//! seeds `1..=N` for each strategy, and one stat's distribution kept per point. It runs
//! in steps (one seed at a time, like [`SweepJob`](super::sweep::SweepJob)) so the page
//! can yield between frames; the CLI runs the same steps to the end.

use super::param::ScenarioError;
use super::param::{Param, ParamKind, ParamValue};
use super::scenario::{Scenario, TooManyCustomers};
use super::stats::StatField;
use super::strategy::StrategyName;
use super::sweep::{Distribution, MAX_SEEDS};
use super::world::Simulation;

/// The fewest values a parameter sweep steps through.
pub const MIN_STEPS: u64 = 2;
/// The most values: a chart of 50 points per line is already dense at a page's width.
pub const MAX_STEPS: u64 = 50;
/// The most runs (values × strategies × seeds) one parameter sweep may take. The seed
/// sweep's 1,200 runs (200 seeds × 6) take 1.0–1.4 s in headless Chromium at the
/// article's 1,000 customers, so 10,000 runs is about 10 s there: long, but cancellable
/// and with progress; the CLI, at opt-level 3, takes about 2 s.
pub const MAX_RUNS: u64 = 10_000;

/// What a parameter sweep asks for, in the core's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSweepSpec {
    /// The parameter stepped (a count or a time).
    pub param: Param,
    /// The first value (inclusive), in the core's units.
    pub from: u64,
    /// The last value (inclusive), in the core's units.
    pub to: u64,
    /// How many values, evenly spaced (fewer if rounding makes some equal).
    pub steps: u64,
    /// The stat whose distribution is kept.
    pub stat: StatField,
}

/// Why a parameter sweep cannot start (the page layer writes the sentence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamSweepError {
    /// A probability or a switch: there is nothing to space evenly.
    NotNumeric(Param),
    /// `from` is not below `to`.
    Reversed {
        /// The first value.
        from: u64,
        /// The last value.
        to: u64,
    },
    /// Steps outside [`MIN_STEPS`]..=[`MAX_STEPS`].
    Steps(u64),
    /// No strategies, or seeds outside 1..=[`MAX_SEEDS`].
    Empty,
    /// More than [`MAX_RUNS`] runs.
    TooManyRuns(u64),
    /// A value the scenario cannot run with (out of range, or breaking a rule).
    Scenario(ScenarioError),
    /// More customers than the caller sweeps.
    TooManyCustomers(TooManyCustomers),
}

crate::error_display!(ParamSweepError, "parameter sweep refused");

impl ParamSweepSpec {
    /// The values stepped through: `steps` evenly spaced integers from `from` to `to`,
    /// both ends included, rounded to the nearest, equal ones dropped.
    pub fn values(&self) -> Vec<u64> {
        let n = self.steps.max(2);
        // At most 3,600,000,000 µs × 49 × 2: far inside a u64, so no u128 division.
        let span = self.to.saturating_sub(self.from);
        let mut out: Vec<u64> = (0..n)
            .map(|i| self.from + (span.saturating_mul(i * 2) + (n - 1)) / (2 * (n - 1)))
            .collect();
        out.dedup();
        out
    }
}

/// The strategies whose plan changes with `param`: all six for the provider's numbers
/// and the customers; for a client parameter, those whose plan reads it.
pub fn strategies_using(param: Param) -> Vec<StrategyName> {
    let base = Scenario::default();
    let mut other = base.clone();
    let changed = match (param.kind(), param.get(&base), param.bounds()) {
        (ParamKind::Count | ParamKind::Micros, ParamValue::Whole(v), Some(b)) => {
            ParamValue::Whole(if v == *b.end() { *b.start() } else { v + 1 })
        }
        (_, ParamValue::Switch(b), _) => ParamValue::Switch(!b),
        _ => return StrategyName::ALL.to_vec(),
    };
    if param.set_unchecked(&mut other, changed).is_err() || base.client == other.client {
        return StrategyName::ALL.to_vec();
    }
    StrategyName::ALL
        .into_iter()
        .filter(|s| s.plan(&base.client) != s.plan(&other.client))
        .collect()
}

/// One point of a line: the parameter's value and the stat's distribution over the seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The parameter's value, in the core's units.
    pub value: u64,
    /// The stat over seeds `1..=N`.
    pub dist: Distribution,
}

/// A parameter sweep that runs one seed per step.
pub struct ParamSweepJob {
    spec: ParamSweepSpec,
    base: Scenario,
    values: Vec<u64>,
    strategies: Vec<StrategyName>,
    seeds: u64,
    /// Each strategy's finished points, in order.
    lines: Vec<(StrategyName, Vec<Point>)>,
    /// The stat's values for the point being run.
    current: Vec<u64>,
    done: u64,
}

impl ParamSweepJob {
    /// A sweep of `spec` for `strategies` over seeds `1..=seeds`, on `base`'s other
    /// parameters, checked first: every value, the caller's bound on customers
    /// (`max_customers`), the runs.
    pub fn new(
        base: &Scenario,
        spec: ParamSweepSpec,
        strategies: &[StrategyName],
        seeds: u64,
        max_customers: u32,
    ) -> Result<Self, ParamSweepError> {
        if !matches!(spec.param.kind(), ParamKind::Count | ParamKind::Micros) {
            return Err(ParamSweepError::NotNumeric(spec.param));
        }
        if spec.from >= spec.to {
            return Err(ParamSweepError::Reversed {
                from: spec.from,
                to: spec.to,
            });
        }
        if !(MIN_STEPS..=MAX_STEPS).contains(&spec.steps) {
            return Err(ParamSweepError::Steps(spec.steps));
        }
        if strategies.is_empty() || !(1..=MAX_SEEDS).contains(&seeds) {
            return Err(ParamSweepError::Empty);
        }
        let values = spec.values();
        let runs = values.len() as u64 * strategies.len() as u64 * seeds;
        if runs > MAX_RUNS {
            return Err(ParamSweepError::TooManyRuns(runs));
        }
        let base = Scenario {
            record: false,
            ..base.clone()
        };
        for &v in &values {
            let s = Self::at(&base, spec.param, v).map_err(ParamSweepError::Scenario)?;
            s.validate().map_err(ParamSweepError::Scenario)?;
            s.within(max_customers)
                .map_err(ParamSweepError::TooManyCustomers)?;
        }
        Ok(Self {
            spec,
            base,
            values,
            strategies: strategies.to_vec(),
            seeds,
            lines: Vec::new(),
            current: Vec::new(),
            done: 0,
        })
    }

    /// `base` with `param` at `value`, or why the value is refused.
    fn at(base: &Scenario, param: Param, value: u64) -> Result<Scenario, ScenarioError> {
        let mut s = base.clone();
        param.set_unchecked(&mut s, ParamValue::Whole(value))?;
        Ok(s)
    }

    /// What is swept.
    pub fn spec(&self) -> ParamSweepSpec {
        self.spec
    }

    /// The values stepped through, in the core's units.
    pub fn values(&self) -> &[u64] {
        &self.values
    }

    /// The strategies, in order.
    pub fn strategies(&self) -> &[StrategyName] {
        &self.strategies
    }

    /// Runs in the whole sweep.
    pub fn total(&self) -> u64 {
        self.values.len() as u64 * self.strategies.len() as u64 * self.seeds
    }

    /// Runs done so far.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// Runs the next seed; false once every point is done.
    pub fn step(&mut self) -> bool {
        match self.run_unit(self.done) {
            Some(value) => self.push_result(value),
            None => false,
        }
    }

    /// Run `i` of the sweep (from 0, in the order [`ParamSweepJob::step`] runs them: each
    /// strategy's line, each value's seeds in turn): its strategy, the parameter's value
    /// and the seed, or `None` past the end.
    pub fn unit(&self, i: u64) -> Option<(StrategyName, u64, u64)> {
        if i >= self.total() {
            return None;
        }
        let per_line = self.values.len() as u64 * self.seeds;
        let strategy = self.strategies[(i / per_line) as usize];
        let value = self.values[((i % per_line) / self.seeds) as usize];
        Some((strategy, value, i % self.seeds + 1))
    }

    /// Runs run `i` alone, whatever has run before: the swept stat's value. A run depends
    /// on its scenario and seed only, so runs can be shared out between threads.
    pub fn run_unit(&self, i: u64) -> Option<u64> {
        let (strategy, value, seed) = self.unit(i)?;
        let scenario = Scenario {
            strategy,
            seed,
            ..Self::at(&self.base, self.spec.param, value)
                .expect("every value was checked before the sweep started")
        };
        let stats = Simulation::new(&scenario)
            .expect("every value was checked before the sweep started")
            .run_to_end();
        Some(stats.get(self.spec.stat))
    }

    /// Takes the swept stat's value of the next run in order ([`ParamSweepJob::unit`] of
    /// [`ParamSweepJob::done`]), however it was computed; false if every run is in already.
    pub fn push_result(&mut self, stat: u64) -> bool {
        let Some((strategy, value, seed)) = self.unit(self.done) else {
            return false;
        };
        if self.lines.last().is_none_or(|(s, _)| *s != strategy) {
            self.lines.push((strategy, Vec::new()));
        }
        self.current.push(stat);
        self.done += 1;
        if seed == self.seeds {
            let dist = Distribution::of(&self.current);
            self.current.clear();
            let (_, points) = self.lines.last_mut().expect("just ensured");
            points.push(Point { value, dist });
        }
        true
    }

    /// Runs every remaining step.
    pub fn run_to_end(mut self) -> Vec<(StrategyName, Vec<Point>)> {
        while self.step() {}
        self.lines
    }

    /// Each strategy's finished points so far.
    pub fn lines(&self) -> &[(StrategyName, Vec<Point>)] {
        &self.lines
    }
}

impl super::sweep::Stepped for ParamSweepJob {
    fn step(&mut self) -> bool {
        ParamSweepJob::step(self)
    }
    fn done(&self) -> u64 {
        ParamSweepJob::done(self)
    }
    fn total(&self) -> u64 {
        ParamSweepJob::total(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::MAX_CUSTOMERS;
    use crate::sweep::Sweep;
    use crate::time::ms;

    fn spec(param: Param, from: u64, to: u64, steps: u64) -> ParamSweepSpec {
        ParamSweepSpec {
            param,
            from,
            to,
            steps,
            stat: StatField::Duplicates,
        }
    }

    #[test]
    fn values_are_evenly_spaced_with_both_ends_and_no_repeats() {
        let s = spec(Param::Timeout, ms(200), ms(3_000), 15);
        let v = s.values();
        assert_eq!(v.len(), 15);
        assert_eq!((v[0], v[1], v[14]), (ms(200), ms(400), ms(3_000)));
        assert_eq!(spec(Param::PoolWorkers, 1, 3, 5).values(), [1, 2, 3]);
        assert_eq!(spec(Param::PoolWorkers, 1, 20, 4).values(), [1, 7, 14, 20]);
    }

    #[test]
    fn the_strategies_that_read_a_parameter() {
        use StrategyName::*;
        // The adaptive rung finds its own concurrency: the fixed pool's size is not its.
        assert_eq!(
            strategies_using(Param::PoolWorkers),
            [Pool, Headers, Budget, Breaker]
        );
        assert_eq!(
            strategies_using(Param::Timeout),
            [
                TimeoutNoKey,
                Keyed,
                Pool,
                Headers,
                Budget,
                Breaker,
                Adaptive
            ]
        );
        assert_eq!(
            strategies_using(Param::Pacer),
            [
                Paced,
                Retry,
                TimeoutNoKey,
                Keyed,
                Pool,
                Headers,
                Budget,
                Breaker,
                Adaptive
            ]
        );
        assert_eq!(strategies_using(Param::MaxInflight).len(), 10);
    }

    #[test]
    fn a_job_steps_every_point_and_matches_seed_sweeps() {
        let base = Scenario {
            customers: 80,
            ..Scenario::default()
        };
        let sp = ParamSweepSpec {
            stat: StatField::Requests,
            ..spec(Param::Timeout, ms(200), ms(1_000), 3)
        };
        let strategies = [StrategyName::TimeoutNoKey, StrategyName::Keyed];
        let mut job = ParamSweepJob::new(&base, sp, &strategies, 4, MAX_CUSTOMERS).unwrap();
        assert_eq!(job.total(), 3 * 2 * 4);
        let mut n = 0;
        while job.step() {
            n += 1;
            assert_eq!(job.done(), n);
        }
        assert_eq!(n, 24);
        assert!(!job.step());
        for (strategy, points) in job.lines() {
            assert_eq!(points.len(), 3);
            for p in points {
                let mut s = base.clone();
                s.strategy = *strategy;
                s.client.timeout_us = p.value;
                let whole = Sweep::run(&s, 1..=4).unwrap();
                assert_eq!(
                    Some(p.dist.clone()),
                    whole.distribution(StatField::Requests)
                );
            }
        }
    }

    #[test]
    fn limits_are_refused_with_their_reason() {
        let base = Scenario::default();
        let all = StrategyName::ALL;
        let new = |sp, seeds| ParamSweepJob::new(&base, sp, &all, seeds, 20_000).err();
        assert_eq!(
            new(spec(Param::ErrorRate, 0, 1, 3), 1),
            Some(ParamSweepError::NotNumeric(Param::ErrorRate))
        );
        assert_eq!(
            new(spec(Param::PoolWorkers, 5, 5, 3), 1),
            Some(ParamSweepError::Reversed { from: 5, to: 5 })
        );
        assert_eq!(
            new(spec(Param::PoolWorkers, 1, 9, 1), 1),
            Some(ParamSweepError::Steps(1))
        );
        assert_eq!(
            new(spec(Param::PoolWorkers, 1, 90, 51), 1),
            Some(ParamSweepError::Steps(51))
        );
        assert_eq!(
            new(spec(Param::PoolWorkers, 1, 90, 50), 21),
            Some(ParamSweepError::TooManyRuns(50 * 10 * 21))
        );
        assert!(new(spec(Param::PoolWorkers, 1, 90, 50), 20).is_none());
        assert_eq!(
            new(spec(Param::PoolWorkers, 1, 9, 3), 0),
            Some(ParamSweepError::Empty)
        );
        assert!(matches!(
            new(spec(Param::Customers, 10, 20_001, 3), 1),
            Some(ParamSweepError::TooManyCustomers(TooManyCustomers {
                max_customers: 20_000,
                asked: 20_001
            }))
        ));
        assert!(matches!(
            new(spec(Param::PoolWorkers, 1, 1_001, 3), 1),
            Some(ParamSweepError::Scenario(_))
        ));
        // Latency below the article's 3 ms jitter breaks a rule.
        assert!(matches!(
            new(spec(Param::Latency, 0, ms(20), 3), 1),
            Some(ParamSweepError::Scenario(ScenarioError::Rule(_)))
        ));
    }
}

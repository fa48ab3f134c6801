//! Seed sweeps: run one scenario over many seeds and summarise each stat's distribution.
//! The CLI and the app use the same code, so their medians agree.

use super::budget::{TooLarge, Workload};
use super::scenario::{Scenario, ScenarioError};
use super::stats::{StatField, Stats};
use super::strategy::StrategyName;
use super::world::Simulation;
use serde::Serialize;
use std::ops::RangeInclusive;

/// The most seeds one sweep may run.
pub const MAX_SEEDS: u64 = 10_000;

/// Bins in a histogram.
pub const BINS: u64 = 10;

/// One histogram bin: values in `lo..=hi`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bin {
    /// Smallest value in the bin.
    pub lo: u64,
    /// Largest value in the bin.
    pub hi: u64,
    /// How many runs fell in it.
    pub count: u64,
}

/// The distribution of one stat over a sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distribution {
    /// Smallest value.
    pub min: u64,
    /// The lower median: the value at index (n − 1) / 2 of the sorted values.
    pub median: u64,
    /// Largest value.
    pub max: u64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Up to [`BINS`] equal-width bins from `min` to `max`.
    pub histogram: Vec<Bin>,
}

impl Distribution {
    /// The distribution of `values` (not empty).
    pub fn of(values: &[u64]) -> Self {
        assert!(
            !values.is_empty(),
            "a distribution needs at least one value"
        );
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        let (min, max) = (sorted[0], sorted[sorted.len() - 1]);
        let width = (max - min) / BINS + 1;
        let bins = (max - min) / width + 1;
        let mut histogram: Vec<Bin> = (0..bins)
            .map(|i| Bin {
                lo: min + i * width,
                hi: (min + (i + 1) * width - 1).min(max),
                count: 0,
            })
            .collect();
        for v in &sorted {
            histogram[((v - min) / width) as usize].count += 1;
        }
        Self {
            min,
            median: sorted[(sorted.len() - 1) / 2],
            max,
            mean: sorted.iter().map(|v| *v as f64).sum::<f64>() / sorted.len() as f64,
            histogram,
        }
    }
}

/// The runs of a sweep, one per seed, in seed order.
pub struct Sweep {
    /// Each seed with its stats.
    pub runs: Vec<(u64, Stats)>,
}

impl Sweep {
    /// Checks a seed range before running it.
    pub fn check(seeds: &RangeInclusive<u64>) -> Result<(), String> {
        if seeds.is_empty() {
            return Err(format!(
                "the seed range {}..={} is empty",
                seeds.start(),
                seeds.end()
            ));
        }
        let n = seeds.end() - seeds.start();
        if n >= MAX_SEEDS {
            return Err(format!(
                "a sweep runs at most {MAX_SEEDS} seeds; {}..={} is {} seeds",
                seeds.start(),
                seeds.end(),
                n as u128 + 1
            ));
        }
        Ok(())
    }

    /// Runs `base` once for each seed in `seeds`, without keeping records.
    pub fn run(base: &Scenario, seeds: RangeInclusive<u64>) -> Result<Self, ScenarioError> {
        let mut sweep = Sweep { runs: Vec::new() };
        for seed in seeds {
            sweep.push(base, seed)?;
        }
        Ok(sweep)
    }

    /// Runs one more seed (the app calls this in batches between frames).
    pub fn push(&mut self, base: &Scenario, seed: u64) -> Result<(), ScenarioError> {
        let scenario = Scenario {
            seed,
            record: false,
            ..base.clone()
        };
        let stats = Simulation::new(&scenario)?.run_to_end();
        self.runs.push((seed, stats));
        Ok(())
    }

    /// The distribution of one stat over the seeds run so far (`None` before any).
    pub fn distribution(&self, field: StatField) -> Option<Distribution> {
        let values: Vec<u64> = self.runs.iter().map(|(_, s)| s.get(field)).collect();
        (!values.is_empty()).then(|| Distribution::of(&values))
    }
}

/// A sweep of several strategies that runs in steps, one seed at a time, so the page
/// can yield to the browser between frames. The CLI runs the same steps to the end.
pub struct SweepJob {
    base: Scenario,
    strategies: Vec<StrategyName>,
    seeds: u64,
    sweeps: Vec<(StrategyName, Sweep)>,
}

/// Why a sweep cannot start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepError {
    /// The scenario's parameters.
    Scenario(ScenarioError),
    /// More customers than a page sweeps.
    TooLarge(TooLarge),
    /// No strategies, or no seeds, or more seeds than [`MAX_SEEDS`].
    Empty,
}

impl SweepJob {
    /// A sweep of `strategies` over seeds `1..=seeds` of `base`'s parameters, checked
    /// first: parameters, the page's customer limit, and the number of seeds.
    pub fn new(
        base: &Scenario,
        strategies: &[StrategyName],
        seeds: u64,
    ) -> Result<Self, SweepError> {
        base.validate().map_err(SweepError::Scenario)?;
        Workload::Sweep.check(base).map_err(SweepError::TooLarge)?;
        if strategies.is_empty() || !(1..=MAX_SEEDS).contains(&seeds) {
            return Err(SweepError::Empty);
        }
        Ok(Self {
            base: Scenario {
                record: false,
                ..base.clone()
            },
            strategies: strategies.to_vec(),
            seeds,
            sweeps: Vec::new(),
        })
    }

    /// Runs in the whole sweep.
    pub fn total(&self) -> u64 {
        self.seeds * self.strategies.len() as u64
    }

    /// Runs done so far.
    pub fn done(&self) -> u64 {
        self.sweeps.iter().map(|(_, s)| s.runs.len() as u64).sum()
    }

    /// Runs the next seed; false once every strategy has all its seeds.
    pub fn step(&mut self) -> bool {
        let current = self.sweeps.last().map(|(s, sw)| (*s, sw.runs.len() as u64));
        let strategy = match current {
            Some((s, n)) if n < self.seeds => s,
            _ => match self.strategies.get(self.sweeps.len()) {
                Some(&next) => {
                    self.sweeps.push((next, Sweep { runs: Vec::new() }));
                    next
                }
                None => return false,
            },
        };
        let (_, sweep) = self.sweeps.last_mut().expect("just ensured");
        let seed = sweep.runs.len() as u64 + 1;
        let scenario = Scenario {
            strategy,
            ..self.base.clone()
        };
        sweep
            .push(&scenario, seed)
            .expect("the parameters were checked before the sweep started");
        true
    }

    /// Each strategy's sweep so far, in order.
    pub fn sweeps(&self) -> &[(StrategyName, Sweep)] {
        &self.sweeps
    }
}

/// Parses `1..=200`, `1..200` (exclusive end) or a single seed `7`.
pub fn parse_seed_range(text: &str) -> Result<RangeInclusive<u64>, String> {
    let t = text.trim();
    let num = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|_| format!("'{}' in the seed range is not a whole number", s.trim()))
    };
    let range = if let Some((a, b)) = t.split_once("..=") {
        num(a)?..=num(b)?
    } else if let Some((a, b)) = t.split_once("..") {
        let end = num(b)?;
        if end == 0 {
            return Err(format!("the seed range {t} is empty"));
        }
        num(a)?..=end - 1
    } else {
        let n = num(t)?;
        n..=n
    };
    Sweep::check(&range)?;
    Ok(range)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::StrategyName;

    #[test]
    fn distribution_of_known_values() {
        let d = Distribution::of(&[5, 1, 3, 2, 4, 100]);
        assert_eq!((d.min, d.median, d.max), (1, 3, 100));
        assert_eq!(d.histogram.iter().map(|b| b.count).sum::<u64>(), 6);
        assert_eq!(
            d.histogram[0],
            Bin {
                lo: 1,
                hi: 10,
                count: 5
            }
        );
        assert_eq!(d.histogram.last().unwrap().count, 1);
        let flat = Distribution::of(&[7, 7, 7]);
        assert_eq!(
            flat.histogram,
            vec![Bin {
                lo: 7,
                hi: 7,
                count: 3
            }]
        );
        assert_eq!(Distribution::of(&[1, 2]).median, 1, "the lower median");
    }

    #[test]
    fn sweep_matches_single_runs() {
        let base = Scenario::article(StrategyName::TimeoutNoKey, 0);
        let sweep = Sweep::run(&base, 1..=9).unwrap();
        let mut dups: Vec<u64> = (1..=9)
            .map(|seed| {
                crate::sim::run(&Scenario {
                    seed,
                    ..base.clone()
                })
                .unwrap()
                .duplicates
            })
            .collect();
        dups.sort_unstable();
        assert_eq!(
            sweep.distribution(StatField::Duplicates).unwrap().median,
            dups[4]
        );
        assert!(Sweep { runs: Vec::new() }
            .distribution(StatField::Duplicates)
            .is_none());
    }

    #[test]
    fn seed_ranges_parse_or_explain() {
        assert_eq!(parse_seed_range("1..=200"), Ok(1..=200));
        assert_eq!(parse_seed_range("1..201"), Ok(1..=200));
        assert_eq!(parse_seed_range("7"), Ok(7..=7));
        assert!(parse_seed_range("5..=1").unwrap_err().contains("empty"));
        assert!(parse_seed_range("1..=10000").is_ok());
        assert!(parse_seed_range("1..=10001")
            .unwrap_err()
            .contains("at most 10000"));
        assert!(parse_seed_range("0..=18446744073709551615")
            .unwrap_err()
            .contains("at most"));
        assert!(parse_seed_range("a..=3").unwrap_err().contains("'a'"));
        assert!(parse_seed_range("0..0").unwrap_err().contains("empty"));
    }

    #[test]
    fn a_job_steps_through_every_strategy_and_seed_and_matches_a_whole_sweep() {
        let base = Scenario {
            customers: 60,
            ..Scenario::default()
        };
        let strategies = [StrategyName::Naive, StrategyName::Pool];
        let mut job = SweepJob::new(&base, &strategies, 3).unwrap();
        assert_eq!(job.total(), 6);
        let mut steps = 0;
        while job.step() {
            steps += 1;
            assert_eq!(job.done(), steps);
        }
        assert_eq!(steps, 6);
        for (strategy, sweep) in job.sweeps() {
            let whole = Sweep::run(
                &Scenario {
                    strategy: *strategy,
                    ..base.clone()
                },
                1..=3,
            )
            .unwrap();
            assert_eq!(sweep.runs, whole.runs, "{strategy}");
        }
        let too_many = Scenario {
            customers: crate::sim::budget::SWEEP_MAX_CUSTOMERS + 1,
            ..base.clone()
        };
        assert!(matches!(
            SweepJob::new(&too_many, &strategies, 3),
            Err(SweepError::TooLarge(_))
        ));
        assert!(matches!(
            SweepJob::new(&base, &[], 3),
            Err(SweepError::Empty)
        ));
        assert!(matches!(
            SweepJob::new(&base, &strategies, MAX_SEEDS + 1),
            Err(SweepError::Empty)
        ));
    }
}

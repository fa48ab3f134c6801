//! Seed sweeps: run one scenario over many seeds and summarise each stat's distribution.
//! The CLI and the app use the same code, so their medians agree.

use super::param::ScenarioError;
use super::scenario::{Scenario, TooManyCustomers};
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

/// Why a range of seeds cannot be swept (the page layer writes the sentence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedRangeError {
    /// The range holds no seed: its start is after its end.
    Empty {
        /// The first seed.
        start: u64,
        /// The last seed.
        end: u64,
    },
    /// The range holds more than [`MAX_SEEDS`] seeds.
    TooMany {
        /// The first seed.
        start: u64,
        /// The last seed.
        end: u64,
    },
}

impl SeedRangeError {
    /// Seeds in the range (0 when it is empty). A `u128`: `0..=u64::MAX` holds 2⁶⁴.
    pub fn seeds(&self) -> u128 {
        let (SeedRangeError::Empty { start, end } | SeedRangeError::TooMany { start, end }) = *self;
        (u128::from(end) + 1).saturating_sub(u128::from(start))
    }
}

crate::error_display!(SeedRangeError, "seed range refused");

/// The runs of a sweep, one per seed, in seed order.
pub struct Sweep {
    /// Each seed with its stats.
    pub runs: Vec<(u64, Stats)>,
}

impl Sweep {
    /// Checks a seed range before running it.
    pub fn check(seeds: &RangeInclusive<u64>) -> Result<(), SeedRangeError> {
        let (start, end) = (*seeds.start(), *seeds.end());
        if seeds.is_empty() {
            return Err(SeedRangeError::Empty { start, end });
        }
        if end - start >= MAX_SEEDS {
            return Err(SeedRangeError::TooMany { start, end });
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

/// Work that runs one whole simulation per step, so a page can run as many steps as fit
/// in a frame and yield: the seed sweep and the parameter sweep.
pub trait Stepped {
    /// Runs the next simulation; false once there is none left.
    fn step(&mut self) -> bool;
    /// Simulations run so far.
    fn done(&self) -> u64;
    /// Simulations in the whole job.
    fn total(&self) -> u64;
}

impl Stepped for SweepJob {
    fn step(&mut self) -> bool {
        SweepJob::step(self)
    }
    fn done(&self) -> u64 {
        SweepJob::done(self)
    }
    fn total(&self) -> u64 {
        SweepJob::total(self)
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
    /// More customers than the caller sweeps.
    TooManyCustomers(TooManyCustomers),
    /// No strategies, or no seeds, or more seeds than [`MAX_SEEDS`].
    Empty,
}

impl SweepJob {
    /// A sweep of `strategies` over seeds `1..=seeds` of `base`'s parameters, checked
    /// first: parameters, the caller's bound on customers (`max_customers`), and the
    /// number of seeds.
    pub fn new(
        base: &Scenario,
        strategies: &[StrategyName],
        seeds: u64,
        max_customers: u32,
    ) -> Result<Self, SweepError> {
        base.validate().map_err(SweepError::Scenario)?;
        base.within(max_customers)
            .map_err(SweepError::TooManyCustomers)?;
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
        let Some(stats) = self.run_unit(self.done()) else {
            return false;
        };
        self.push_result(stats)
    }

    /// Run `i` of the sweep (from 0, in the order [`SweepJob::step`] runs them: each
    /// strategy's seeds in turn): its strategy and seed, or `None` past the end.
    pub fn unit(&self, i: u64) -> Option<(StrategyName, u64)> {
        let strategy = *self.strategies.get(usize::try_from(i / self.seeds).ok()?)?;
        Some((strategy, i % self.seeds + 1))
    }

    /// Runs run `i` alone, whatever has run before: a run depends on its scenario and
    /// seed only, so runs can be shared out between threads and put back in order.
    pub fn run_unit(&self, i: u64) -> Option<Stats> {
        let (strategy, seed) = self.unit(i)?;
        let scenario = Scenario {
            strategy,
            seed,
            ..self.base.clone()
        };
        let stats = Simulation::new(&scenario)
            .expect("the parameters were checked before the sweep started")
            .run_to_end();
        Some(stats)
    }

    /// Takes the stats of the next run in order ([`SweepJob::unit`] of [`SweepJob::done`]),
    /// however they were computed; false if every run is in already.
    pub fn push_result(&mut self, stats: Stats) -> bool {
        let Some((strategy, seed)) = self.unit(self.done()) else {
            return false;
        };
        if self.sweeps.last().is_none_or(|(s, _)| *s != strategy) {
            self.sweeps.push((strategy, Sweep { runs: Vec::new() }));
        }
        let (_, sweep) = self.sweeps.last_mut().expect("just ensured");
        sweep.runs.push((seed, stats));
        true
    }

    /// Each strategy's sweep so far, in order.
    pub fn sweeps(&self) -> &[(StrategyName, Sweep)] {
        &self.sweeps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::MAX_CUSTOMERS;
    use crate::StrategyName;

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
    fn runs_shared_out_in_chunks_and_put_back_in_order_equal_the_stepped_sweep() {
        let base = Scenario {
            customers: 200,
            ..Scenario::default()
        };
        let strategies = [
            StrategyName::Naive,
            StrategyName::Keyed,
            StrategyName::Adaptive,
        ];
        let mut stepped = SweepJob::new(&base, &strategies, 7, MAX_CUSTOMERS).unwrap();
        while stepped.step() {}
        for threads in [1u64, 2, 3, 4, 8, 21, 30] {
            let mut shared = SweepJob::new(&base, &strategies, 7, MAX_CUSTOMERS).unwrap();
            let total = shared.total();
            let chunk = total.div_ceil(threads);
            // The chunks finish in reverse, as threads might; each is put back in its place.
            let mut chunks: Vec<Vec<Stats>> = (0..threads)
                .rev()
                .map(|t| {
                    (t * chunk..((t + 1) * chunk).min(total))
                        .map(|i| shared.run_unit(i).unwrap())
                        .collect()
                })
                .collect();
            chunks.reverse();
            for stats in chunks.into_iter().flatten() {
                assert!(shared.push_result(stats));
            }
            assert!(!shared.push_result(Stats::default()), "no run past the end");
            assert_eq!(shared.done(), total);
            for ((s1, a), (s2, b)) in stepped.sweeps().iter().zip(shared.sweeps()) {
                assert_eq!((s1, &a.runs), (s2, &b.runs), "{threads} threads");
            }
            assert_eq!(shared.sweeps().len(), strategies.len());
        }
        assert_eq!(stepped.unit(0), Some((StrategyName::Naive, 1)));
        assert_eq!(stepped.unit(7), Some((StrategyName::Keyed, 1)));
        assert_eq!(stepped.unit(20), Some((StrategyName::Adaptive, 7)));
        assert_eq!(stepped.unit(21), None);
    }

    #[test]
    fn sweep_matches_single_runs() {
        let base = Scenario::article(StrategyName::TimeoutNoKey, 0);
        let sweep = Sweep::run(&base, 1..=9).unwrap();
        let mut dups: Vec<u64> = (1..=9)
            .map(|seed| {
                crate::run(&Scenario {
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
    fn seed_ranges_are_checked() {
        assert_eq!(Sweep::check(&(1..=MAX_SEEDS)), Ok(()));
        assert_eq!(Sweep::check(&(7..=7)), Ok(()));
        let empty = Sweep::check(&RangeInclusive::new(5, 1)).unwrap_err();
        assert_eq!(empty, SeedRangeError::Empty { start: 5, end: 1 });
        assert_eq!(empty.seeds(), 0);
        let e = Sweep::check(&(1..=MAX_SEEDS + 1)).unwrap_err();
        assert_eq!(
            e,
            SeedRangeError::TooMany {
                start: 1,
                end: MAX_SEEDS + 1
            }
        );
        assert_eq!(e.seeds(), 10_001);
        let all = Sweep::check(&(0..=u64::MAX)).unwrap_err();
        assert_eq!(all.seeds(), 1 << 64);
    }

    #[test]
    fn a_job_steps_through_every_strategy_and_seed_and_matches_a_whole_sweep() {
        let base = Scenario {
            customers: 60,
            ..Scenario::default()
        };
        let strategies = [StrategyName::Naive, StrategyName::Pool];
        let mut job = SweepJob::new(&base, &strategies, 3, 60).unwrap();
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
            customers: 61,
            ..base.clone()
        };
        assert!(matches!(
            SweepJob::new(&too_many, &strategies, 3, 60),
            Err(SweepError::TooManyCustomers(_))
        ));
        assert!(matches!(
            SweepJob::new(&base, &[], 3, 60),
            Err(SweepError::Empty)
        ));
        assert!(matches!(
            SweepJob::new(&base, &strategies, MAX_SEEDS + 1, 60),
            Err(SweepError::Empty)
        ));
    }
}

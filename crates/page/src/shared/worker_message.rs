//! What crosses between a page and its simulation workers, typed: the page hands a worker
//! a [`Job`] (what the work is: the scenario, the strategies, the seeds, the swept
//! parameter, the runs) and the worker hands back an [`Answer`] (the runs' results). Each
//! crosses `postMessage` as a short array of `u64` words that only this module writes and
//! reads: a version word, a kind, then the values in a fixed order, every list led by its
//! length. A message that is not one (cut short, too long, of another version, or naming
//! what does not exist) is refused with [`Unreadable`], never a panic.
//!
//! A scenario crosses as its seed, strategy and record switch, then every parameter of
//! [`Param::ALL`] in the table's units (what the URL carries), each checked as the URL
//! reader checks it.

use super::words::Words;
use sim::matrix::MatrixCell;
use sim::param::{ParamKind, ParamValue};
use sim::param_sweep::ParamSweepSpec;
use sim::rng::Odds;
use sim::world::Fate;
use sim::{Param, Scenario, Snapshot, StatField, Stats, StrategyName};
use std::fmt;
use std::ops::Range;

/// The first word of every message: "rll" and the format's version, so a worker cached
/// from another release refuses the page's message in words.
const VERSION: u64 = 0x726c_6c01;

/// Work of numbered runs that a page shares out between workers: what the runs are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Work {
    /// A seed sweep: each strategy over seeds `1..=seeds` of `base`.
    Seeds {
        /// The numbers every run shares.
        base: Scenario,
        /// The strategies swept, in order.
        strategies: Vec<StrategyName>,
        /// Seeds `1..=seeds`.
        seeds: u64,
    },
    /// A parameter sweep.
    Param {
        /// The numbers every run shares.
        base: Scenario,
        /// The parameter stepped, its span and the stat kept.
        spec: ParamSweepSpec,
        /// The strategies swept, in order.
        strategies: Vec<StrategyName>,
        /// Seeds `1..=seeds` at each value.
        seeds: u64,
    },
    /// The matrix of `base`: every strategy against every incident.
    Matrix {
        /// The numbers and seed every cell shares.
        base: Scenario,
    },
}

/// What a page hands a worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// Runs `runs` (by their place in the work's order) of a sweep or the matrix.
    Slice {
        /// The work the runs belong to.
        work: Work,
        /// The runs.
        runs: Range<u64>,
    },
    /// One run computed whole, with progress on the way.
    Run {
        /// The run.
        scenario: Scenario,
    },
}

/// What a worker hands back: the results of its [`Job`], in the runs' order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A seed sweep's runs: each run's stats.
    Stats(Vec<Stats>),
    /// A parameter sweep's runs: each run's swept stat.
    Points(Vec<u64>),
    /// The matrix's runs: each run's cell.
    Cells(Vec<MatrixCell>),
    /// A run computed whole.
    Run {
        /// Its final snapshot (boxed: the other answers are a list's size).
        snapshot: Box<Snapshot>,
        /// The fates of its first customers, as many as the grid draws.
        fates: Vec<Fate>,
    },
}

/// Why a message between a page and a worker cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// It is not of this release's format.
    Version,
    /// It ends before its last value.
    Short,
    /// It goes on past its last value.
    Long,
    /// A value names nothing of its kind (what it should have named).
    Value(&'static str),
}

impl Words for Unreadable {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("A message between the page and a simulation worker could not be read: ")?;
        let (what, why) = match self {
            Unreadable::Version => (
                "",
                "it is from another release of the lab (reload the page)",
            ),
            Unreadable::Short => ("", "it ends early"),
            Unreadable::Long => ("", "it goes on past its end"),
            Unreadable::Value(what) => (*what, " is not one"),
        };
        f.write_str(what)?;
        f.write_str(why)?;
        f.write_str(".")
    }
}

/// A place in `all`, as a word (past the end if it is not there, which reading refuses).
fn place<T: PartialEq>(all: &[T], x: &T) -> u64 {
    all.iter().position(|a| a == x).unwrap_or(all.len()) as u64
}

/// Words, written.
struct Writer(Vec<u64>);

impl Writer {
    fn new(kind: u64) -> Self {
        Writer(vec![VERSION, kind])
    }

    fn scenario(&mut self, s: &Scenario) {
        self.0.extend([
            s.seed,
            place(&StrategyName::ALL, &s.strategy),
            u64::from(s.record),
        ]);
        for p in Param::ALL {
            self.0.push(match p.get(s) {
                ParamValue::Whole(n) => n,
                ParamValue::Odds(o) => u64::from(o.num) << 32 | u64::from(o.den),
                ParamValue::Switch(on) => u64::from(on),
                ParamValue::Choice(i) => i as u64,
            });
        }
    }

    fn strategies(&mut self, seeds: u64, strategies: &[StrategyName]) {
        self.0.extend([seeds, strategies.len() as u64]);
        self.0
            .extend(strategies.iter().map(|s| place(&StrategyName::ALL, s)));
    }
}

/// Words, read from the front.
struct Reader<'a>(&'a [u64]);

impl<'a> Reader<'a> {
    /// A message of this version: its kind, and a reader of the rest.
    fn open(words: &'a [u64]) -> Result<(u64, Self), Unreadable> {
        match words {
            [VERSION, kind, rest @ ..] => Ok((*kind, Reader(rest))),
            [VERSION] | [] => Err(Unreadable::Short),
            _ => Err(Unreadable::Version),
        }
    }

    /// A message of this version and of kind `kind`: a reader of the rest.
    fn of_kind(words: &'a [u64], kind: u64) -> Result<Self, Unreadable> {
        match Reader::open(words)? {
            (k, r) if k == kind => Ok(r),
            _ => Err(Unreadable::Value("the kind of answer")),
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u64], Unreadable> {
        let head = self.0.get(..n).ok_or(Unreadable::Short)?;
        self.0 = &self.0[n..];
        Ok(head)
    }

    fn next(&mut self) -> Result<u64, Unreadable> {
        Ok(self.take(1)?[0])
    }

    /// A length: never more than the words left, as every item takes at least one.
    fn len(&mut self) -> Result<usize, Unreadable> {
        let n = self.next()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.0.len())
            .ok_or(Unreadable::Short)
    }

    fn pick<T: Copy>(&mut self, all: &[T], what: &'static str) -> Result<T, Unreadable> {
        let i = self.next()?;
        usize::try_from(i)
            .ok()
            .and_then(|i| all.get(i))
            .copied()
            .ok_or(Unreadable::Value(what))
    }

    fn scenario(&mut self) -> Result<Scenario, Unreadable> {
        let seed = self.next()?;
        let strategy = self.pick(&StrategyName::ALL, "a strategy")?;
        let record = self.pick(&[false, true], "a switch")?;
        let mut s = Scenario {
            seed,
            strategy,
            record,
            ..Scenario::default()
        };
        for p in Param::ALL {
            let w = self.next()?;
            let value = match p.kind() {
                ParamKind::Count | ParamKind::Micros => ParamValue::Whole(w),
                ParamKind::Odds => ParamValue::Odds(Odds {
                    num: (w >> 32) as u32,
                    den: w as u32,
                }),
                ParamKind::Switch => ParamValue::Switch(match w {
                    0 => false,
                    1 => true,
                    _ => return Err(Unreadable::Value("a switch")),
                }),
                ParamKind::Choice => ParamValue::Choice(
                    usize::try_from(w).map_err(|_| Unreadable::Value("a choice"))?,
                ),
            };
            p.set_unchecked(&mut s, value)
                .map_err(|_| Unreadable::Value("a parameter's value"))?;
        }
        Ok(s)
    }

    fn strategies(&mut self) -> Result<(u64, Vec<StrategyName>), Unreadable> {
        let seeds = self.next()?;
        let n = self.len()?;
        let strategies = (0..n)
            .map(|_| self.pick(&StrategyName::ALL, "a strategy"))
            .collect::<Result<_, _>>()?;
        Ok((seeds, strategies))
    }

    fn stats(&mut self) -> Result<Stats, Unreadable> {
        Stats::from_values(self.take(StatField::ALL.len())?)
            .ok_or(Unreadable::Value("a run's stats"))
    }

    /// The value read, if nothing is left after it.
    fn end<T>(self, value: T) -> Result<T, Unreadable> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(Unreadable::Long)
        }
    }
}

/// The kinds of job, as their second word.
const SEEDS: u64 = 0;
const PARAM: u64 = 1;
const MATRIX: u64 = 2;
const RUN: u64 = 3;

impl Job {
    /// The job as words, for a worker.
    pub fn encode(&self) -> Vec<u64> {
        let (kind, scenario) = match self {
            Job::Slice { work, .. } => match work {
                Work::Seeds { base, .. } => (SEEDS, base),
                Work::Param { base, .. } => (PARAM, base),
                Work::Matrix { base } => (MATRIX, base),
            },
            Job::Run { scenario } => (RUN, scenario),
        };
        let mut w = Writer::new(kind);
        w.scenario(scenario);
        if let Job::Slice { work, runs } = self {
            match work {
                Work::Seeds {
                    strategies, seeds, ..
                } => w.strategies(*seeds, strategies),
                Work::Param {
                    spec,
                    strategies,
                    seeds,
                    ..
                } => {
                    w.0.extend([
                        place(&Param::ALL, &spec.param),
                        spec.from,
                        spec.to,
                        spec.steps,
                        place(&StatField::ALL, &spec.stat),
                    ]);
                    w.strategies(*seeds, strategies);
                }
                Work::Matrix { .. } => {}
            }
            w.0.extend([runs.start, runs.end]);
        }
        w.0
    }

    /// A job back from [`Job::encode`]'s words, or why they are not one.
    pub fn decode(words: &[u64]) -> Result<Job, Unreadable> {
        let (kind, mut r) = Reader::open(words)?;
        if kind > RUN {
            return Err(Unreadable::Value("the kind of job"));
        }
        let base = r.scenario()?;
        let work = match kind {
            SEEDS => {
                let (seeds, strategies) = r.strategies()?;
                Work::Seeds {
                    base,
                    strategies,
                    seeds,
                }
            }
            PARAM => {
                let param = r.pick(&Param::ALL, "a parameter")?;
                let [from, to, steps] = [r.next()?, r.next()?, r.next()?];
                let stat = r.pick(&StatField::ALL, "a stat")?;
                let (seeds, strategies) = r.strategies()?;
                Work::Param {
                    base,
                    spec: ParamSweepSpec {
                        param,
                        from,
                        to,
                        steps,
                        stat,
                    },
                    strategies,
                    seeds,
                }
            }
            MATRIX => Work::Matrix { base },
            _ => return r.end(Job::Run { scenario: base }),
        };
        let runs = r.next()?..r.next()?;
        r.end(Job::Slice { work, runs })
    }
}

impl Answer {
    /// The answer as words, for the page.
    pub fn encode(&self) -> Vec<u64> {
        let mut w = Writer::new(match self {
            Answer::Stats(_) => SEEDS,
            Answer::Points(_) => PARAM,
            Answer::Cells(_) => MATRIX,
            Answer::Run { .. } => RUN,
        });
        match self {
            Answer::Stats(runs) => {
                w.0.push(runs.len() as u64);
                runs.iter().for_each(|s| w.0.extend(s.values()));
            }
            Answer::Points(points) => {
                w.0.push(points.len() as u64);
                w.0.extend(points);
            }
            Answer::Cells(cells) => {
                w.0.push(cells.len() as u64);
                for cell in cells {
                    let words = cell.values();
                    w.0.push(words.len() as u64);
                    w.0.extend(words);
                }
            }
            Answer::Run { snapshot: s, fates } => {
                w.0.extend([
                    s.now_us,
                    s.customers_done,
                    u64::from(s.customers),
                    u64::from(s.inflight),
                    u64::from(s.outstanding),
                    u64::from(s.finished),
                ]);
                w.0.extend(s.stats.values());
                w.0.push(fates.len() as u64);
                w.0.extend(fates.iter().map(|f| place(&Fate::ALL, f)));
            }
        }
        w.0
    }

    /// An answer of any kind back from [`Answer::encode`]'s words, or why they are not
    /// one.
    pub fn decode(words: &[u64]) -> Result<Answer, Unreadable> {
        let (kind, _) = Reader::open(words)?;
        let read: [Read; 4] = [
            Answer::read_stats,
            Answer::read_points,
            Answer::read_cells,
            Answer::read_run,
        ];
        let read = usize::try_from(kind).ok().and_then(|k| read.get(k));
        read.ok_or(Unreadable::Value("the kind of answer"))?(words)
    }

    /// A seed sweep's answer ([`Answer::Stats`]), or why the words are not one.
    pub fn read_stats(words: &[u64]) -> Result<Answer, Unreadable> {
        let mut r = Reader::of_kind(words, SEEDS)?;
        let n = r.len()?;
        let mut runs = Vec::new();
        for _ in 0..n {
            runs.push(r.stats()?);
        }
        r.end(Answer::Stats(runs))
    }

    /// A parameter sweep's answer ([`Answer::Points`]), or why the words are not one.
    pub fn read_points(words: &[u64]) -> Result<Answer, Unreadable> {
        let mut r = Reader::of_kind(words, PARAM)?;
        let n = r.len()?;
        let points = r.take(n)?.to_vec();
        r.end(Answer::Points(points))
    }

    /// The matrix's answer ([`Answer::Cells`]), or why the words are not one.
    pub fn read_cells(words: &[u64]) -> Result<Answer, Unreadable> {
        let mut r = Reader::of_kind(words, MATRIX)?;
        let n = r.len()?;
        let mut cells = Vec::new();
        for _ in 0..n {
            let n = r.len()?;
            let mut words = r.take(n)?;
            let cell = MatrixCell::take_values(&mut words).filter(|_| words.is_empty());
            cells.push(cell.ok_or(Unreadable::Value("a cell"))?);
        }
        r.end(Answer::Cells(cells))
    }

    /// A whole run's answer ([`Answer::Run`]), or why the words are not one.
    pub fn read_run(words: &[u64]) -> Result<Answer, Unreadable> {
        let mut r = Reader::of_kind(words, RUN)?;
        let [now_us, customers_done, customers, inflight, outstanding] =
            [r.next()?, r.next()?, r.next()?, r.next()?, r.next()?];
        let finished = r.pick(&[false, true], "a switch")?;
        let stats = r.stats()?;
        let narrow = |n: u64| u32::try_from(n).map_err(|_| Unreadable::Value("a count"));
        let snapshot = Box::new(Snapshot {
            now_us,
            stats,
            customers_done,
            customers: narrow(customers)?,
            inflight: narrow(inflight)?,
            outstanding: narrow(outstanding)?,
            finished,
        });
        let n = r.len()?;
        let mut fates = Vec::new();
        for _ in 0..n {
            fates.push(r.pick(&Fate::ALL, "a fate")?);
        }
        r.end(Answer::Run { snapshot, fates })
    }
}

/// A reader of one kind of answer: each page hands its workers one kind of job and reads
/// only that kind's answer, so its module holds only that reader.
pub type Read = fn(&[u64]) -> Result<Answer, Unreadable>;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;
    use sim::matrix::MatrixRun;

    /// A scenario whose every parameter is a value its table accepts, drawn from `raw`.
    fn scenario_of(seed: u64, strategy: usize, record: bool, raw: &[u64]) -> Scenario {
        let mut s = Scenario {
            seed,
            strategy: StrategyName::ALL[strategy % StrategyName::ALL.len()],
            record,
            ..Scenario::default()
        };
        for (p, &w) in Param::ALL.iter().zip(raw) {
            let value = match p.kind() {
                ParamKind::Count | ParamKind::Micros => {
                    let b = p.bounds().unwrap();
                    ParamValue::Whole(b.start() + w % (b.end() - b.start() + 1))
                }
                ParamKind::Odds => {
                    let den = (w as u32).max(1);
                    let num = ((w >> 32) % (u64::from(den) + 1)) as u32;
                    ParamValue::Odds(Odds { num, den })
                }
                ParamKind::Switch => ParamValue::Switch(w & 1 == 1),
                ParamKind::Choice => ParamValue::Choice(w as usize % p.choices().len()),
            };
            p.set_unchecked(&mut s, value).unwrap();
        }
        s
    }

    fn scenarios() -> impl Strategy<Value = Scenario> {
        (
            any::<u64>(),
            any::<usize>(),
            any::<bool>(),
            vec(any::<u64>(), Param::ALL.len()),
        )
            .prop_map(|(seed, strategy, record, raw)| scenario_of(seed, strategy, record, &raw))
    }

    fn strategies() -> impl Strategy<Value = Vec<StrategyName>> {
        vec(0..StrategyName::ALL.len(), 0..12)
            .prop_map(|i| i.into_iter().map(|i| StrategyName::ALL[i]).collect())
    }

    fn jobs() -> impl Strategy<Value = Job> {
        let work = prop_oneof![
            (scenarios(), strategies(), any::<u64>()).prop_map(|(base, strategies, seeds)| {
                Work::Seeds {
                    base,
                    strategies,
                    seeds,
                }
            }),
            (
                scenarios(),
                0..Param::ALL.len(),
                any::<[u64; 3]>(),
                0..StatField::ALL.len(),
                strategies(),
                any::<u64>(),
            )
                .prop_map(|(base, p, [from, to, steps], stat, strategies, seeds)| {
                    Work::Param {
                        base,
                        spec: ParamSweepSpec {
                            param: Param::ALL[p],
                            from,
                            to,
                            steps,
                            stat: StatField::ALL[stat],
                        },
                        strategies,
                        seeds,
                    }
                }),
            scenarios().prop_map(|base| Work::Matrix { base }),
        ];
        prop_oneof![
            (work, any::<u64>(), any::<u64>()).prop_map(|(work, from, to)| Job::Slice {
                work,
                runs: from..to
            }),
            scenarios().prop_map(|scenario| Job::Run { scenario }),
        ]
    }

    /// Stats from words that fit every field.
    fn stats() -> impl Strategy<Value = Stats> {
        vec(0..=u64::from(u32::MAX), StatField::ALL.len())
            .prop_map(|v| Stats::from_values(&v).unwrap())
    }

    /// The cells of a small matrix, to draw answers from.
    fn cells() -> Vec<MatrixCell> {
        let base = Scenario {
            customers: 40,
            ..Scenario::default()
        };
        MatrixRun::new(&base).unwrap().run_to_end()
    }

    fn answers() -> impl Strategy<Value = Answer> {
        let all = cells();
        prop_oneof![
            vec(stats(), 0..6).prop_map(Answer::Stats),
            vec(any::<u64>(), 0..40).prop_map(Answer::Points),
            vec(0..all.len(), 0..6)
                .prop_map(move |i| Answer::Cells(i.into_iter().map(|i| all[i].clone()).collect())),
            (
                any::<[u64; 2]>(),
                any::<[u32; 3]>(),
                any::<bool>(),
                stats(),
                vec(0..Fate::ALL.len(), 0..50),
            )
                .prop_map(
                    |(
                        [now_us, done],
                        [customers, inflight, outstanding],
                        finished,
                        stats,
                        fates,
                    )| {
                        Answer::Run {
                            snapshot: Box::new(Snapshot {
                                now_us,
                                stats,
                                customers_done: done,
                                customers,
                                inflight,
                                outstanding,
                                finished,
                            }),
                            fates: fates.into_iter().map(|i| Fate::ALL[i]).collect(),
                        }
                    }
                ),
        ]
    }

    proptest! {
        #[test]
        fn jobs_cross_as_words_and_come_back_the_same(job in jobs()) {
            prop_assert_eq!(Job::decode(&job.encode()), Ok(job));
        }

        #[test]
        fn answers_cross_as_words_and_come_back_the_same(answer in answers()) {
            prop_assert_eq!(Answer::decode(&answer.encode()), Ok(answer));
        }

        #[test]
        fn a_message_cut_short_or_run_long_is_refused(job in jobs(), answer in answers(), extra in any::<u64>()) {
            let (job, answer) = (job.encode(), answer.encode());
            for cut in 0..job.len() {
                prop_assert_eq!(Job::decode(&job[..cut]).err(), Some(Unreadable::Short));
            }
            for cut in 0..answer.len() {
                prop_assert_eq!(Answer::decode(&answer[..cut]).err(), Some(Unreadable::Short));
            }
            let long = |words: &[u64]| [words, &[extra]].concat();
            prop_assert_eq!(Job::decode(&long(&job)).err(), Some(Unreadable::Long));
            prop_assert_eq!(Answer::decode(&long(&answer)).err(), Some(Unreadable::Long));
        }

        #[test]
        fn any_words_are_read_or_refused_never_a_panic(
            kind in 0u64..5,
            mut words in vec(any::<u64>(), 0..80),
            small in vec(0u64..4, 0..80),
        ) {
            for rest in [&mut words, &mut small.clone()] {
                rest.splice(0..0, [VERSION, kind]);
                let _ = Job::decode(rest);
                let _ = Answer::decode(rest);
            }
        }

        #[test]
        fn a_message_with_one_word_changed_is_read_or_refused_never_a_panic(
            job in jobs(),
            answer in answers(),
            at in any::<prop::sample::Index>(),
            to in prop_oneof![any::<u64>(), 0u64..64],
        ) {
            for mut words in [job.encode(), answer.encode()] {
                let i = at.index(words.len());
                words[i] = to;
                let _ = Job::decode(&words);
                let _ = Answer::decode(&words);
            }
        }
    }

    #[test]
    fn what_a_message_that_cannot_be_read_is_refused_with() {
        let job = Job::Run {
            scenario: Scenario::default(),
        };
        let words = job.encode();
        let said = |words: &[u64]| Job::decode(words).unwrap_err().sentence();
        let start = "A message between the page and a simulation worker could not be read: ";
        assert_eq!(said(&words[..5]), format!("{start}it ends early."));
        assert_eq!(said(&[]), format!("{start}it ends early."));
        let long = [words.as_slice(), &[0]].concat();
        assert_eq!(said(&long), format!("{start}it goes on past its end."));
        let mut other = words.clone();
        other[0] = VERSION + 1;
        assert_eq!(
            said(&other),
            format!("{start}it is from another release of the lab (reload the page).")
        );
        let mut kind = words.clone();
        kind[1] = 9;
        assert_eq!(said(&kind), format!("{start}the kind of job is not one."));
        // The strategy is the scenario's second word.
        let mut strategy = words.clone();
        strategy[3] = StrategyName::ALL.len() as u64;
        assert_eq!(said(&strategy), format!("{start}a strategy is not one."));
        // The customers, the first parameter, past the core's bound.
        let mut customers = words.clone();
        customers[5] = u64::from(sim::scenario::MAX_CUSTOMERS) + 1;
        assert_eq!(
            said(&customers),
            format!("{start}a parameter's value is not one.")
        );
        assert_eq!(Job::decode(&words), Ok(job));
        let answer = Answer::Points(vec![7]).encode();
        assert_eq!(
            Answer::decode(&[answer[0], 4, 0]).unwrap_err(),
            Unreadable::Value("the kind of answer")
        );
        assert_eq!(Answer::decode(&answer), Ok(Answer::Points(vec![7])));
        assert_eq!(Answer::read_points(&answer), Ok(Answer::Points(vec![7])));
        assert_eq!(
            Answer::read_stats(&answer),
            Err(Unreadable::Value("the kind of answer")),
            "a page reads only the kind it asked for"
        );
    }
}

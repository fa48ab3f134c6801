//! The matrix: every strategy against every incident, from one seed. Its schedule is a
//! pure rule ([`MatrixRun`]): which runs, in what order, a few at a time, so a page can
//! run it across frames and the command line all at once, with the same cells.
//!
//! Each run keeps no record, only its stats, where its client stood against the incident
//! ([`Overlap`]) and a compact [`Series`] of what it did over time, for a picture: a few
//! dozen numbers, read from the run's own counters between slices of simulated time.

use super::incident::Incident;
use super::param::ScenarioError;
use super::scenario::Scenario;
use super::stats::{StatField, Stats};
use super::strategy::StrategyName;
use super::time::ms;
use super::world::Simulation;

/// One run of the matrix: a strategy under an incident.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatrixCell {
    /// The row.
    pub strategy: StrategyName,
    /// The column.
    pub incident: Incident,
    /// The run's stats.
    pub stats: Stats,
    /// Where the run's client stood when the incident began and ended.
    pub overlap: Overlap,
    /// Requests and charges over time.
    pub series: Series,
}

/// Where a run's client stood against its incident, from the instants just before the
/// incident began and just before it ended: had it finished every charge?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlap {
    /// The column has no incident.
    NoIncident,
    /// The client had finished every charge before the incident began: it never met it,
    /// so there was nothing to recover from.
    FinishedBefore,
    /// The client finished its last charge while the incident was on.
    FinishedDuring,
    /// The client was still at work when the incident ended: the run has a recovery.
    RanPast,
}

impl Overlap {
    /// Every overlap, in the order [`MatrixCell::values`] numbers them.
    pub const ALL: [Overlap; 4] = [
        Overlap::NoIncident,
        Overlap::FinishedBefore,
        Overlap::FinishedDuring,
        Overlap::RanPast,
    ];
}

/// The width of a [`Series`]' slices at first.
pub const SERIES_FIRST_SLICE_US: u64 = ms(100);
/// The most slices a [`Series`] keeps: past it, neighbouring slices merge and the width
/// doubles, so a run of any length takes the same few hundred bytes.
pub const SERIES_MAX_SLICES: usize = 48;

/// What a run did over time: the requests that reached the provider and the charges it
/// completed, counted per slice of simulated time. Slice `i` covers
/// `[i · slice_us, (i + 1) · slice_us)`; the slices run from 0 to past the run's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    /// The width of each slice.
    pub slice_us: u64,
    /// Requests sent in each slice (as [`Stats::requests`] counts them).
    pub requests: Vec<u64>,
    /// Charges completed in each slice (as [`Stats::charges`] counts them).
    pub charges: Vec<u64>,
    /// Charges the client learned of in each slice: its goodput
    /// ([`Flow::goodput`](super::flow::Flow::goodput)).
    pub goodput: Vec<u64>,
}

impl Default for Series {
    fn default() -> Self {
        Self {
            slice_us: SERIES_FIRST_SLICE_US,
            requests: Vec::with_capacity(SERIES_MAX_SLICES),
            charges: Vec::with_capacity(SERIES_MAX_SLICES),
            goodput: Vec::with_capacity(SERIES_MAX_SLICES),
        }
    }
}

impl Series {
    /// The time the slices cover, from 0.
    pub fn span_us(&self) -> u64 {
        self.slice_us.saturating_mul(self.requests.len() as u64)
    }

    /// Makes room for one more slice: when full, each pair of neighbours becomes one
    /// slice twice as wide.
    fn make_room(&mut self) {
        if self.requests.len() < SERIES_MAX_SLICES {
            return;
        }
        for v in [&mut self.requests, &mut self.charges, &mut self.goodput] {
            let merged: Vec<u64> = v.chunks(2).map(|p| p.iter().sum()).collect();
            *v = merged;
        }
        self.slice_us = self.slice_us.saturating_mul(2);
    }
}

/// Runs one cell's scenario to its end in slices of simulated time, reading its counters
/// after each slice (a run stepped in slices equals one run at once:
/// `tests/determinism.rs`), and whether every charge had finished just before the
/// incident began and just before it ended.
fn run_cell(scenario: &Scenario) -> (Stats, Overlap, Series) {
    let mut sim = Simulation::new(scenario)
        .expect("the base scenario was checked, and an incident kind is always valid");
    let plan = scenario.provider.incident;
    let everyone = u64::from(scenario.customers);
    // The last instants before the incident's start and end (none before an instant 0).
    let mut checks = [plan.start_us.checked_sub(1), plan.end_us().checked_sub(1)];
    let mut done_by = [false; 2];
    let mut series = Series::default();
    let (mut requests, mut charges, mut goodput) = (0, 0, 0);
    loop {
        series.make_room();
        let end_us = series
            .slice_us
            .saturating_mul(series.requests.len() as u64 + 1);
        for (check, done) in checks.iter_mut().zip(&mut done_by) {
            if let Some(at_us) = check.filter(|&at| at < end_us) {
                sim.run_until(at_us);
                *done = sim.snapshot().customers_done == everyone;
                *check = None;
            }
        }
        sim.run_until(end_us - 1);
        let now = sim.stats();
        series.requests.push(now.requests - requests);
        series.charges.push(now.charges - charges);
        let served = sim.flow().goodput();
        series.goodput.push(served - goodput);
        (requests, charges, goodput) = (now.requests, now.charges, served);
        if sim.is_finished() || end_us == u64::MAX {
            break;
        }
    }
    // An instant not reached came after the run had finished.
    for (check, done) in checks.iter().zip(&mut done_by) {
        *done |= check.is_some();
    }
    let overlap = match (plan.kind, done_by) {
        (Incident::None, _) => Overlap::NoIncident,
        (_, [true, _]) => Overlap::FinishedBefore,
        (_, [false, true]) => Overlap::FinishedDuring,
        (_, [false, false]) => Overlap::RanPast,
    };
    (sim.run_to_end(), overlap, series)
}

impl MatrixCell {
    /// The harm fields this run has any of, in table order.
    pub fn harms(&self) -> Vec<StatField> {
        StatField::ALL
            .into_iter()
            .filter(|f| self.stats.harmed(*f))
            .collect()
    }

    /// The cell as flat numbers, for a simulation worker to hand back: its place in the
    /// [`schedule`], its stats ([`Stats::values`]), its overlap ([`Overlap::ALL`]'s order),
    /// its series' slice width and length, then the requests, the charges and the goodput
    /// per slice.
    pub fn values(&self) -> Vec<u64> {
        let place = schedule()
            .position(|p| p == (self.strategy, self.incident))
            .unwrap_or(RUNS);
        let overlap = Overlap::ALL.iter().position(|&o| o == self.overlap);
        let s = &self.series;
        let mut values = vec![place as u64];
        values.extend(self.stats.values());
        values.extend([
            overlap.unwrap_or(0) as u64,
            s.slice_us,
            s.requests.len() as u64,
        ]);
        values.extend(&s.requests);
        values.extend(&s.charges);
        values.extend(&s.goodput);
        values
    }

    /// Reads one cell from the front of `values` ([`MatrixCell::values`]), leaving the
    /// rest: `None` if they do not start with one.
    pub fn take_values(values: &mut &[u64]) -> Option<MatrixCell> {
        let mut next = |n: usize| -> Option<&[u64]> {
            let (head, rest) = (values.get(..n)?, values.get(n..)?);
            *values = rest;
            Some(head)
        };
        let place = usize::try_from(next(1)?[0]).ok()?;
        let (strategy, incident) = schedule().nth(place)?;
        let stats = Stats::from_values(next(StatField::ALL.len())?)?;
        let [overlap, slice_us, slices] = <[u64; 3]>::try_from(next(3)?).ok()?;
        let overlap = *Overlap::ALL.get(usize::try_from(overlap).ok()?)?;
        let slices = usize::try_from(slices)
            .ok()
            .filter(|&n| n <= SERIES_MAX_SLICES)?;
        let requests = next(slices)?.to_vec();
        let charges = next(slices)?.to_vec();
        let goodput = next(slices)?.to_vec();
        Some(MatrixCell {
            strategy,
            incident,
            stats,
            overlap,
            series: Series {
                slice_us,
                requests,
                charges,
                goodput,
            },
        })
    }
}

/// The runs of the matrix, in order: row by row (strategies in their order), each row
/// across the incidents in theirs.
pub fn schedule() -> impl Iterator<Item = (StrategyName, Incident)> {
    StrategyName::ALL
        .into_iter()
        .flat_map(|s| Incident::ALL.into_iter().map(move |i| (s, i)))
}

/// How many runs the matrix has.
pub const RUNS: usize = StrategyName::ALL.len() * Incident::ALL.len();

/// A matrix in progress: the base scenario (its seed and numbers; its strategy and
/// incident kind are replaced by each cell's) and the cells run so far.
#[derive(Clone, Debug)]
pub struct MatrixRun {
    base: Scenario,
    cells: Vec<MatrixCell>,
}

impl MatrixRun {
    /// A matrix of `base`, checked first. Each run keeps no record.
    pub fn new(base: &Scenario) -> Result<Self, ScenarioError> {
        base.validate()?;
        Ok(Self {
            base: Scenario {
                record: false,
                ..base.clone()
            },
            cells: Vec::with_capacity(RUNS),
        })
    }

    /// The scenario of cell `(strategy, incident)`.
    pub fn scenario(&self, strategy: StrategyName, incident: Incident) -> Scenario {
        let mut s = Scenario {
            strategy,
            ..self.base.clone()
        };
        s.provider.incident.kind = incident;
        s
    }

    /// Runs the next `runs` cells (fewer at the end); returns how many it ran.
    pub fn step(&mut self, runs: usize) -> usize {
        let from = self.cells.len();
        let todo = (from..RUNS.min(from.saturating_add(runs))).filter_map(|i| self.run_unit(i));
        let cells: Vec<MatrixCell> = todo.collect();
        let ran = cells.len();
        self.cells.extend(cells);
        ran
    }

    /// Runs cell `i` of the [`schedule`] alone (`None` past its end): a run depends on its
    /// scenario only, so cells run anywhere, in any order, are the same cells.
    pub fn run_unit(&self, i: usize) -> Option<MatrixCell> {
        let (strategy, incident) = schedule().nth(i)?;
        let (stats, overlap, series) = run_cell(&self.scenario(strategy, incident));
        Some(MatrixCell {
            strategy,
            incident,
            stats,
            overlap,
            series,
        })
    }

    /// Takes the next cell in [`schedule`] order, run elsewhere ([`MatrixRun::run_unit`]):
    /// false if it is not that cell, or the matrix has every cell.
    pub fn push_cell(&mut self, cell: MatrixCell) -> bool {
        let next = schedule().nth(self.cells.len());
        if next != Some((cell.strategy, cell.incident)) {
            return false;
        }
        self.cells.push(cell);
        true
    }

    /// Runs every cell left.
    pub fn run_to_end(mut self) -> Vec<MatrixCell> {
        self.step(RUNS);
        self.cells
    }

    /// Cells run so far, and how many there are.
    pub fn progress(&self) -> (usize, usize) {
        (self.cells.len(), RUNS)
    }

    /// The cells run so far, in schedule order.
    pub fn cells(&self) -> &[MatrixCell] {
        &self.cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_is_every_pair_once_row_by_row_and_steps_add_up() {
        let all: Vec<_> = schedule().collect();
        assert_eq!(all.len(), RUNS);
        assert_eq!(all[0], (StrategyName::Naive, Incident::None));
        assert_eq!(all[1], (StrategyName::Naive, Incident::Errors));
        assert_eq!(all[RUNS - 1], (StrategyName::Adaptive, Incident::Capacity));
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), RUNS);
        let base = Scenario {
            customers: 60,
            ..Scenario::default()
        };
        let mut m = MatrixRun::new(&base).unwrap();
        let mut steps = 0;
        while m.progress().0 < RUNS {
            assert!(m.step(7) > 0);
            steps += 1;
        }
        assert_eq!(steps, RUNS.div_ceil(7));
        assert_eq!(m.step(7), 0);
        assert_eq!(
            m.cells().to_vec(),
            MatrixRun::new(&base).unwrap().run_to_end()
        );
    }

    /// The overlap and the series as a record of the same run says they are: the last
    /// instant the client finished a charge against the incident's span, and each request
    /// (by when it was sent) and charge (by when it completed) in its slice.
    fn from_record(scenario: &Scenario, slice_us: u64, slices: usize) -> (Overlap, Series) {
        let mut sim = Simulation::new(&Scenario {
            record: true,
            ..scenario.clone()
        })
        .unwrap();
        sim.run_to_end();
        let record = sim.record().unwrap();
        let last_us = record
            .iter()
            .filter_map(|r| r.client.at_us())
            .max()
            .unwrap();
        let plan = scenario.provider.incident;
        let overlap = if plan.kind == Incident::None {
            Overlap::NoIncident
        } else if last_us < plan.start_us {
            Overlap::FinishedBefore
        } else if last_us < plan.end_us() {
            Overlap::FinishedDuring
        } else {
            Overlap::RanPast
        };
        let mut series = Series {
            slice_us,
            requests: vec![0; slices],
            charges: vec![0; slices],
            goodput: vec![0; slices],
        };
        let mut last = std::collections::BTreeMap::new();
        for r in record {
            series.requests[(r.sent_at_us / slice_us) as usize] += 1;
            if r.charged {
                series.charges[(r.done_at_us / slice_us) as usize] += 1;
            }
            last.insert(r.customer, r);
        }
        // A customer's goodput is its last request's 200, when the client received it.
        for r in last.values() {
            if let crate::record::ClientView::Answered {
                status: crate::provider::Status::Ok,
                at_us,
            } = r.client
            {
                series.goodput[(at_us / slice_us) as usize] += 1;
            }
        }
        (overlap, series)
    }

    use crate::traffic::Traffic;

    #[test]
    fn each_cells_overlap_and_series_agree_with_its_record_over_seeds() {
        // Small batches finish before the default incident (4 s) or during it, large
        // ones run past it: every kind of overlap is met.
        let mut met = std::collections::BTreeSet::new();
        for seed in 1..=6u64 {
            for customers in [40, 300, 420, 1_000] {
                // Every other seed under steady traffic, whose series carry goodput
                // that parts from the charges.
                let traffic = crate::traffic::TrafficPlan {
                    shape: [Traffic::Batch, Traffic::Steady][seed as usize % 2],
                    rate_per_s: 150,
                };
                let base = Scenario {
                    customers,
                    seed,
                    traffic,
                    ..Scenario::default()
                };
                let m = MatrixRun::new(&base).unwrap();
                for cell in m.clone().run_to_end() {
                    let at = format!(
                        "seed {seed}, {customers} customers, {}/{}",
                        cell.strategy, cell.incident
                    );
                    let scenario = m.scenario(cell.strategy, cell.incident);
                    assert_eq!(
                        cell.stats,
                        crate::world::run(&scenario).unwrap(),
                        "{at}: stats"
                    );
                    let s = &cell.series;
                    assert!(s.requests.len() <= SERIES_MAX_SLICES, "{at}");
                    assert_eq!(s.requests.iter().sum::<u64>(), cell.stats.requests, "{at}");
                    assert_eq!(s.charges.iter().sum::<u64>(), cell.stats.charges, "{at}");
                    assert!(
                        s.span_us() > cell.stats.elapsed_ms * 1_000,
                        "{at}: the slices cover the run"
                    );
                    let (overlap, series) = from_record(&scenario, s.slice_us, s.requests.len());
                    assert_eq!(cell.overlap, overlap, "{at}: overlap");
                    assert_eq!(cell.series, series, "{at}: series");
                    met.insert(format!("{:?}", cell.overlap));
                }
            }
        }
        assert_eq!(met.len(), 4, "{met:?}");
    }

    #[test]
    fn cells_run_alone_in_any_order_and_read_back_from_values_are_the_matrix() {
        let base = Scenario {
            customers: 300,
            seed: 4,
            ..Scenario::default()
        };
        let whole = MatrixRun::new(&base).unwrap().run_to_end();
        let m = MatrixRun::new(&base).unwrap();
        // Run backwards, as flat values, then read back and put in order.
        let mut flat = Vec::new();
        for i in (0..RUNS).rev() {
            flat.push(m.run_unit(i).unwrap().values());
        }
        assert!(m.run_unit(RUNS).is_none());
        flat.reverse();
        let flat: Vec<u64> = flat.concat();
        let mut rest = flat.as_slice();
        let mut rebuilt = MatrixRun::new(&base).unwrap();
        while !rest.is_empty() {
            let cell = MatrixCell::take_values(&mut rest).unwrap();
            assert!(rebuilt.push_cell(cell));
        }
        assert_eq!(rebuilt.cells(), whole.as_slice());
        // Out of order, or one too many, is refused; cut values are not a cell.
        assert!(!rebuilt.push_cell(whole[0].clone()));
        let mut fresh = MatrixRun::new(&base).unwrap();
        assert!(!fresh.push_cell(whole[1].clone()));
        let one = whole[3].values();
        for cut in 0..one.len() {
            assert_eq!(
                MatrixCell::take_values(&mut &one[..cut]),
                None,
                "cut at {cut}"
            );
        }
        let mut bad = one.clone();
        bad[0] = RUNS as u64;
        assert_eq!(MatrixCell::take_values(&mut bad.as_slice()), None);
    }

    #[test]
    fn a_full_series_merges_neighbours_and_doubles_its_slices() {
        let mut s = Series {
            requests: (1..=SERIES_MAX_SLICES as u64).collect(),
            charges: vec![1; SERIES_MAX_SLICES],
            ..Series::default()
        };
        s.make_room();
        assert_eq!(s.slice_us, 2 * SERIES_FIRST_SLICE_US);
        assert_eq!(s.requests.len(), SERIES_MAX_SLICES / 2);
        assert_eq!(&s.requests[..2], &[3, 7]);
        assert!(s.charges.iter().all(|&c| c == 2));
        assert_eq!(
            s.span_us(),
            SERIES_MAX_SLICES as u64 * SERIES_FIRST_SLICE_US
        );
        // Room left: nothing changes.
        s.make_room();
        assert_eq!(s.slice_us, 2 * SERIES_FIRST_SLICE_US);
    }
}

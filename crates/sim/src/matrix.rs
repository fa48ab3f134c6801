//! The matrix: every strategy against every incident, from one seed. Its schedule is a
//! pure rule ([`MatrixRun`]): which runs, in what order, a few at a time, so a page can
//! run it across frames and the command line all at once, with the same cells.

use super::incident::Incident;
use super::param::ScenarioError;
use super::scenario::Scenario;
use super::stats::{StatField, Stats};
use super::strategy::StrategyName;
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
}

impl MatrixCell {
    /// The harm fields this run has any of, in table order.
    pub fn harms(&self) -> Vec<StatField> {
        StatField::ALL
            .into_iter()
            .filter(|f| self.stats.harmed(*f))
            .collect()
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
        let todo: Vec<_> = schedule().skip(self.cells.len()).take(runs).collect();
        for &(strategy, incident) in &todo {
            let stats = Simulation::new(&self.scenario(strategy, incident))
                .expect("the base scenario was checked, and an incident kind is always valid")
                .run_to_end();
            self.cells.push(MatrixCell {
                strategy,
                incident,
                stats,
            });
        }
        todo.len()
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
}

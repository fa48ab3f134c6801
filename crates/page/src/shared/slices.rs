//! Work of numbered runs shared out in slices: each worker is handed a slice of runs, and
//! another each time it answers, until none are left. Answers come back in any order;
//! [`Slices::answer`] gives them back in the runs' order, so whoever consumes them sees
//! the same sequence however many workers there were and whichever finished first.

use std::ops::Range;

/// What the page says when a simulation worker cannot load its module.
pub const WORKER_FAILED: &str = "The simulation worker could not start.";
/// What the page says when a worker's answer carries neither values nor an error.
pub const WORKER_NO_VALUES: &str = "The simulation worker answered without values.";

/// The slices of a job: handed out, back, and given back in order, each with its answer
/// (`T`).
#[derive(Clone, Debug)]
pub struct Slices<T> {
    total: u64,
    batch: u64,
    /// The next run to hand out.
    next: u64,
    /// The first run not yet given back in order.
    taken: u64,
    /// Each slice handed out and not yet given back: its runs, and its answer once back
    /// (a few per worker at most, so a list).
    out: Vec<(Range<u64>, Option<T>)>,
    /// Runs back so far, in any order.
    back: u64,
}

impl<T> Slices<T> {
    /// `total` runs, handed out `batch` at a time (at least one).
    pub fn new(total: u64, batch: u64) -> Self {
        Slices {
            total,
            batch: batch.max(1),
            next: 0,
            taken: 0,
            out: Vec::new(),
            back: 0,
        }
    }

    /// The next slice to hand a worker, or `None` once every run is handed out.
    pub fn hand(&mut self) -> Option<Range<u64>> {
        let from = self.next;
        let to = (from + self.batch).min(self.total);
        if from >= to {
            return None;
        }
        self.next = to;
        self.out.push((from..to, None));
        Some(from..to)
    }

    /// Takes the answer of the slice that starts at run `from`: the slices now back in
    /// order, each its answer (none if a slice before it is still out), or why the answer
    /// is refused (a slice never handed out, or answered twice).
    pub fn answer(&mut self, from: u64, values: T) -> Result<Vec<T>, String> {
        let Some((runs, slot)) = self
            .out
            .iter_mut()
            .find(|(r, v)| r.start == from && v.is_none())
        else {
            return Err(format!(
                "An answer came for runs from {from}, which no worker was handed."
            ));
        };
        self.back += runs.end - runs.start;
        *slot = Some(values);
        let mut ready = Vec::new();
        while let Some(i) = self
            .out
            .iter()
            .position(|(r, v)| r.start == self.taken && v.is_some())
        {
            let (runs, values) = self.out.swap_remove(i);
            ready.push(values.expect("just seen"));
            self.taken = runs.end;
        }
        Ok(ready)
    }

    /// Runs back so far (in any order), and in all.
    pub fn progress(&self) -> (u64, u64) {
        (self.back, self.total)
    }

    /// True once every run is back and given back in order.
    pub fn is_done(&self) -> bool {
        self.taken >= self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shares `total` runs over `workers` that finish in an order set by `seed`, each run's
    /// value its number: what comes back, in the order it comes back.
    fn share(total: u64, batch: u64, workers: usize, seed: u64) -> Vec<u64> {
        let mut slices = Slices::<Vec<u64>>::new(total, batch);
        let mut busy: Vec<Range<u64>> = (0..workers).filter_map(|_| slices.hand()).collect();
        let mut order = seed;
        let mut got = Vec::new();
        while !busy.is_empty() {
            order = order
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (order >> 33) as usize % busy.len();
            let range = busy.swap_remove(i);
            let ready = slices.answer(range.start, range.clone().collect()).unwrap();
            got.extend(ready.into_iter().flatten());
            busy.extend(slices.hand());
        }
        assert!(slices.is_done());
        assert_eq!(slices.progress(), (total, total));
        got
    }

    #[test]
    fn answers_in_any_order_come_back_in_the_runs_order() {
        for (total, batch, workers) in [
            (100, 7, 4),
            (2_000, 31, 4),
            (5, 64, 8),
            (1, 1, 1),
            (64, 1, 3),
        ] {
            for seed in 0..20 {
                let want: Vec<u64> = (0..total).collect();
                assert_eq!(
                    share(total, batch, workers, seed),
                    want,
                    "{total} runs, {batch} a slice, {workers} workers, seed {seed}"
                );
            }
        }
    }

    #[test]
    fn an_answer_for_a_slice_never_handed_or_answered_twice_is_refused() {
        let mut slices = Slices::<Vec<u64>>::new(10, 4);
        let first = slices.hand().unwrap();
        assert_eq!(first, 0..4);
        assert!(slices.answer(4, vec![]).unwrap_err().contains("from 4"));
        assert_eq!(slices.answer(0, vec![1]).unwrap(), vec![vec![1]]);
        assert!(slices.answer(0, vec![1]).is_err(), "answered twice");
        assert_eq!(slices.hand(), Some(4..8));
        assert_eq!(slices.hand(), Some(8..10));
        assert_eq!(slices.hand(), None);
        assert_eq!(slices.progress(), (4, 10));
        assert!(!slices.is_done());
        assert_eq!(
            slices.answer(8, vec![3]).unwrap(),
            Vec::<Vec<u64>>::new(),
            "4..8 is still out"
        );
        assert_eq!(slices.answer(4, vec![2]).unwrap(), vec![vec![2], vec![3]]);
        assert!(slices.is_done());
    }
}

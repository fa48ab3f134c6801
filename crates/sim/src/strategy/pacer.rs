//! The pacer: one number, the time the next request may start.

use crate::time::US_PER_S;

/// Hands out turns `gap_us` apart. Asking for a turn books the one after it at once,
/// before any waiting, so callers asking at the same instant get consecutive turns.
#[derive(Clone, Debug)]
pub struct Pacer {
    gap_us: u64,
    next_turn_us: u64,
}

impl Pacer {
    /// A pacer for `per_s` requests per second (the gap is rounded down to whole µs).
    pub fn new(per_s: u32) -> Self {
        assert!(per_s > 0, "a pacer needs a positive rate");
        Self {
            gap_us: US_PER_S / u64::from(per_s),
            next_turn_us: 0,
        }
    }

    /// Time between turns.
    pub fn gap_us(&self) -> u64 {
        self.gap_us
    }

    /// The caller's turn: the later of now and the next free turn. The turn after it is
    /// booked before the caller waits.
    pub fn book(&mut self, now_us: u64) -> u64 {
        let my_turn_us = now_us.max(self.next_turn_us);
        self.next_turn_us = my_turn_us + self.gap_us;
        my_turn_us
    }

    /// Books `n` consecutive turns at once and returns the first; turn k is
    /// `first + k · gap`. Same as calling [`Pacer::book`] `n` times at `now_us`.
    pub fn book_many(&mut self, now_us: u64, n: u64) -> u64 {
        let first_us = now_us.max(self.next_turn_us);
        self.next_turn_us = first_us + n * self.gap_us;
        first_us
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_are_booked_before_waiting() {
        let mut p = Pacer::new(90);
        assert_eq!(p.gap_us(), 11_111);
        // Three callers at t = 0 get consecutive turns, not the same one.
        assert_eq!(p.book(0), 0);
        assert_eq!(p.book(0), 11_111);
        assert_eq!(p.book(0), 22_222);
        // A caller long after the last turn goes at once.
        assert_eq!(p.book(1_000_000), 1_000_000);
        assert_eq!(p.book(1_000_000), 1_011_111);
    }

    #[test]
    fn book_many_equals_repeated_book() {
        let mut a = Pacer::new(90);
        let mut b = Pacer::new(90);
        a.book(0);
        b.book(0);
        let first = a.book_many(5, 1000);
        let turns: Vec<u64> = (0..1000).map(|_| b.book(5)).collect();
        assert_eq!(first, turns[0]);
        assert_eq!(turns[999], first + 999 * a.gap_us());
        assert_eq!(a.book(7), b.book(7));
    }
}

//! The run's only source of randomness: one PCG generator seeded from the scenario.
//!
//! `Pcg64Mcg` is a named algorithm with a fixed output for a given seed, so a seed means
//! the same run natively, in tests and in the browser. The helpers below use integer
//! arithmetic only, so no float rounding can differ between platforms.

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A probability written as a fraction, e.g. 1/20 or 5/100.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Odds {
    /// Favourable outcomes.
    pub num: u32,
    /// Out of this many. Never zero.
    pub den: u32,
}

impl Odds {
    /// `1 in n`.
    pub const fn one_in(n: u32) -> Self {
        Self { num: 1, den: n }
    }

    /// Never happens.
    pub const NEVER: Odds = Odds { num: 0, den: 1 };

    /// Parses `1/33`, `1 in 33`, `5%` or `0`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let t = text.trim();
        let bad = || format!("'{t}' is not a probability: write it as 1/33, '1 in 33' or 5%");
        let num_den = if let Some(p) = t.strip_suffix('%') {
            let pct: u32 = p.trim().parse().map_err(|_| bad())?;
            (pct, 100)
        } else if let Some((a, b)) = t.split_once('/').or_else(|| t.split_once(" in ")) {
            let a: u32 = a.trim().parse().map_err(|_| bad())?;
            let b: u32 = b.trim().parse().map_err(|_| bad())?;
            (a, b)
        } else if t == "0" {
            (0, 1)
        } else {
            return Err(bad());
        };
        let odds = Odds {
            num: num_den.0,
            den: num_den.1,
        };
        odds.check().map(|()| odds)
    }

    /// Checks that the fraction is a probability between 0 and 1.
    pub fn check(&self) -> Result<(), String> {
        if self.den == 0 {
            return Err("a probability cannot have 0 as its denominator".into());
        }
        if self.num > self.den {
            return Err(format!(
                "{}/{} is more than certain: the numerator must not exceed the denominator",
                self.num, self.den
            ));
        }
        Ok(())
    }
}

impl fmt::Display for Odds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.num == 0 {
            write!(f, "never")
        } else if self.num == 1 {
            write!(f, "1 in {}", self.den)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

/// The seeded generator every random choice in a run draws from.
pub struct SimRng(Pcg64Mcg);

impl SimRng {
    /// The generator for `seed`.
    pub fn from_seed(seed: u64) -> Self {
        Self(Pcg64Mcg::seed_from_u64(seed))
    }

    /// A uniform integer in `0..n`. Unbiased (Lemire's multiply-and-reject).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no values to choose from");
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.0.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// A uniform integer in `lo..=hi`.
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        assert!(lo <= hi);
        match (hi - lo).checked_add(1) {
            Some(span) => lo + self.below(span),
            None => self.0.next_u64(),
        }
    }

    /// True with probability `odds`.
    pub fn chance(&mut self, odds: Odds) -> bool {
        debug_assert!(odds.check().is_ok());
        self.below(u64::from(odds.den)) < u64::from(odds.num)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = SimRng::from_seed(42);
        let mut b = SimRng::from_seed(42);
        let xs: Vec<u64> = (0..100).map(|_| a.below(1000)).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.below(1000)).collect();
        assert_eq!(xs, ys);
        let mut c = SimRng::from_seed(43);
        let zs: Vec<u64> = (0..100).map(|_| c.below(1000)).collect();
        assert_ne!(xs, zs);
    }

    #[test]
    fn stream_is_pinned() {
        // The first draws for seed 1. If this changes, every published figure changes.
        let mut r = SimRng::from_seed(1);
        let xs: Vec<u64> = (0..5).map(|_| r.below(1_000_000)).collect();
        assert_eq!(xs, PINNED_SEED_1);
    }
    const PINNED_SEED_1: [u64; 5] = [856_717, 137_554, 470_461, 726_249, 369_843];

    #[test]
    fn chance_matches_its_odds() {
        let mut r = SimRng::from_seed(7);
        let n = 200_000;
        let hits = (0..n).filter(|_| r.chance(Odds::one_in(20))).count();
        // 1/20 of 200,000 is 10,000; the standard deviation is about 97.
        assert!((9_500..=10_500).contains(&hits), "{hits}");
        assert!(!(0..1000).any(|_| r.chance(Odds::NEVER)));
        assert!((0..1000).all(|_| r.chance(Odds { num: 3, den: 3 })));
    }

    #[test]
    fn between_covers_its_ends() {
        let mut r = SimRng::from_seed(3);
        let xs: Vec<u64> = (0..1000).map(|_| r.between(12, 18)).collect();
        assert_eq!(*xs.iter().min().unwrap(), 12);
        assert_eq!(*xs.iter().max().unwrap(), 18);
        assert_eq!(r.between(5, 5), 5);
    }

    #[test]
    fn odds_parse() {
        assert_eq!(Odds::parse("1/33"), Ok(Odds::one_in(33)));
        assert_eq!(Odds::parse(" 1 in 20 "), Ok(Odds::one_in(20)));
        assert_eq!(Odds::parse("5%"), Ok(Odds { num: 5, den: 100 }));
        assert_eq!(Odds::parse("0"), Ok(Odds { num: 0, den: 1 }));
        for bad in ["", "abc", "1/0", "3/2", "-1/3", "150%", "1/x", "1e30"] {
            assert!(Odds::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Odds::one_in(33).to_string(), "1 in 33");
    }
}

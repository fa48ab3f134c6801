//! Seed ranges as readers type them (`1..=200`, `1..201`, `7`), and the sentence for a
//! range the core will not sweep.

use crate::shared::words::Words;
use sim::sweep::{SeedRangeError, Sweep, MAX_SEEDS};
use std::fmt;
use std::ops::RangeInclusive;

/// Reads `1..=200`, `1..200` (exclusive end) or a single seed `7`, and checks that a
/// sweep may run it ([`Sweep::check`]). A mistake is a sentence.
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
    Sweep::check(&range).map_err(|e| e.sentence())?;
    Ok(range)
}

impl Words for SeedRangeError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SeedRangeError::Empty { start, end } => {
                write!(f, "the seed range {start}..={end} is empty")
            }
            SeedRangeError::TooMany { start, end } => write!(
                f,
                "a sweep runs at most {MAX_SEEDS} seeds; {start}..={end} is {} seeds",
                self.seeds()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_ranges_parse_or_explain() {
        assert_eq!(parse_seed_range("1..=200"), Ok(1..=200));
        assert_eq!(parse_seed_range("1..201"), Ok(1..=200));
        assert_eq!(parse_seed_range(" 7 "), Ok(7..=7));
        assert!(parse_seed_range("1..=10000").is_ok());
        assert_eq!(
            parse_seed_range("5..=1").unwrap_err(),
            "the seed range 5..=1 is empty"
        );
        assert_eq!(
            parse_seed_range("0..0").unwrap_err(),
            "the seed range 0..0 is empty"
        );
        assert_eq!(
            parse_seed_range("1..=10001").unwrap_err(),
            "a sweep runs at most 10000 seeds; 1..=10001 is 10001 seeds"
        );
        assert_eq!(
            parse_seed_range("0..=18446744073709551615").unwrap_err(),
            "a sweep runs at most 10000 seeds; 0..=18446744073709551615 is \
             18446744073709551616 seeds"
        );
        assert_eq!(
            parse_seed_range("a..=3").unwrap_err(),
            "'a' in the seed range is not a whole number"
        );
    }
}

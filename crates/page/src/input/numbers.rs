//! Whole numbers and seeds as readers type them.

use crate::shared::words::shown;

/// A whole number in `lo..=hi`, or what is wrong with it (a phrase: "… must be …").
pub fn parse_count(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let t = text.trim();
    match t.parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} is outside {lo}–{hi}")),
        Err(_) => Err(format!(
            "'{}' is not a whole number from {lo} to {hi}",
            shown(t)
        )),
    }
}

/// A seed: a whole number from 0 to 18446744073709551615.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("The seed is empty: it must be a whole number.".into());
    }
    t.parse::<u64>().map_err(|_| {
        if t.bytes().all(|b| b.is_ascii_digit()) {
            format!(
                "The seed {} is too large: the largest is {}.",
                shown(t),
                u64::MAX
            )
        } else {
            format!(
                "The seed '{}' is not a whole number from 0 to {}.",
                shown(t),
                u64::MAX
            )
        }
    })
}

//! Probabilities as readers type them: `1/33`, `1 in 33`, `5%` or `0`. How they are
//! written back for readers is [`crate::shared::format::odds_text`].

use crate::shared::cut::around;
use sim::rng::Odds;

/// Reads `1/33`, `1 in 33`, `5%` or `0`; `None` for anything else, and for a fraction
/// that is not a probability (a zero denominator, or more than certain). The caller
/// writes the sentence: it knows what the value was for.
pub fn parse_odds(text: &str) -> Option<Odds> {
    let t = text.trim();
    let whole = |s: &str| s.trim().parse::<u32>().ok();
    let (num, den) = if let Some(pct) = t.strip_suffix('%') {
        (whole(pct)?, 100)
    } else if let Some((a, b)) = t.split_once('/').or_else(|| around(t, " in ")) {
        (whole(a)?, whole(b)?)
    } else if t == "0" {
        (0, 1)
    } else {
        return None;
    };
    let odds = Odds { num, den };
    odds.is_probability().then_some(odds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_are_read_in_every_spelling_and_only_as_probabilities() {
        assert_eq!(parse_odds("1/33"), Some(Odds::one_in(33)));
        assert_eq!(parse_odds(" 1 in 20 "), Some(Odds::one_in(20)));
        assert_eq!(parse_odds("5%"), Some(Odds { num: 5, den: 100 }));
        assert_eq!(parse_odds("0"), Some(Odds::NEVER));
        assert_eq!(parse_odds("3/3"), Some(Odds { num: 3, den: 3 }));
        for bad in ["", "abc", "1/0", "3/2", "-1/3", "150%", "1/x", "1e30"] {
            assert_eq!(parse_odds(bad), None, "{bad}");
        }
    }
}

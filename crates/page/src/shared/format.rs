//! Numbers and runs as readers see them: counts with separators, durations, the run in
//! one sentence, the article's panel. The core keeps integers; every format is here.

use sim::rng::Odds;
use sim::stats::{StatField, Stats};

/// Requests sent per charge made, to two decimals ("—" when nothing was charged): what
/// each strategy pays in traffic for the money it moves.
pub fn requests_per_charge(stats: &Stats) -> String {
    match stats.requests_per_charge_hundredths() {
        None => "—".to_string(),
        Some(h) => format!("{}.{:02}", h / 100, h % 100),
    }
}

/// The panel in the article's shape: `provider stats: { ... } elapsed: N ms`.
pub fn panel(stats: &Stats) -> String {
    let mut out = String::from("provider stats: {\n");
    for field in StatField::ALL
        .into_iter()
        .filter(|f| *f != StatField::ElapsedMs)
    {
        out.push_str(&format!("  {field}: {},\n", stats.get(field)));
    }
    out.push_str(&format!("}} elapsed: {} ms", stats.elapsed_ms));
    out
}

/// `text` with its first letter in upper case. Our texts are ASCII, and an ASCII-only
/// rule keeps Unicode's case tables (several KB) out of the browser build.
pub fn capitalised(text: &str) -> String {
    let mut s = text.to_string();
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    s
}

/// `1084` as "1,084".
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and a noun, singular for 1: "1 customer", "1,000 customers".
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// A probability for people: "never", "1 in 20", or the fraction "5/100".
pub fn odds_text(odds: Odds) -> String {
    match odds {
        Odds { num: 0, .. } => "never".to_string(),
        Odds { num: 1, den } => format!("1 in {den}"),
        Odds { num, den } => format!("{num}/{den}"),
    }
}

/// A duration for people: "17 ms" below a second, "13.2 s" above (rounded to the
/// nearest tenth, not cut).
pub fn duration_ms(ms: u64) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else {
        let tenths = ms.saturating_add(50) / 100;
        format!("{}.{} s", count(tenths / 10), tenths % 10)
    }
}

/// The simulated clock: "17 ms" below a second (rounded to the millisecond), "13.43 s"
/// above (rounded to the hundredth). A run's first act can last 17 ms, so a clock in
/// seconds alone would not move through it.
pub fn clock_us(us: u64) -> String {
    if us < 999_500 {
        format!("{} ms", us.saturating_add(500) / 1_000)
    } else {
        let hundredths = us.saturating_add(5_000) / 10_000;
        format!("{}.{:02} s", count(hundredths / 100), hundredths % 100)
    }
}

/// `v` with `decimals` digits after the point (0 to 3), rounded: `dec(12.345, 1)` is
/// "12.3". Integer arithmetic: Rust's float formatting is one of the larger pieces of a
/// .wasm, and a page needs no more than a fixed decimal.
pub fn dec(v: f64, decimals: u32) -> String {
    let scale = 10u64.pow(decimals.min(3));
    let scaled = (v.abs() * scale as f64).round() as u64;
    let sign = if v < 0.0 && scaled > 0 { "-" } else { "" };
    match decimals.min(3) {
        0 => format!("{sign}{scaled}"),
        d => format!(
            "{sign}{}.{:0width$}",
            scaled / scale,
            scaled % scale,
            width = d as usize
        ),
    }
}

/// A percentage for a CSS width: "42.5%".
pub fn percent(v: f64) -> String {
    format!("{}%", dec(v, 1))
}

/// A coordinate rounded to a whole unit, for SVG attributes in a viewBox.
pub fn r(v: f64) -> i64 {
    v.round() as i64
}

/// A small count in words, as prose writes it: "ten"; digits from 13 on.
pub fn number_word(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_durations_read_well() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_084), "1,084");
        assert_eq!(count(1_000_000), "1,000,000");
        assert_eq!(duration_ms(17), "17 ms");
        assert_eq!(duration_ms(13_236), "13.2 s");
        assert_eq!(duration_ms(13_299), "13.3 s");
        assert_eq!(duration_ms(999), "999 ms");
        assert_eq!(duration_ms(1_960), "2.0 s");
        assert_eq!(clock_us(17_400), "17 ms");
        assert_eq!(clock_us(999_499), "999 ms");
        assert_eq!(clock_us(999_500), "1.00 s");
        assert_eq!(clock_us(13_434_999), "13.43 s");
        assert_eq!(clock_us(13_435_000), "13.44 s");
        assert_eq!(duration_ms(3_600_000), "3,600.0 s");
        assert_eq!(dec(12.345, 1), "12.3");
        assert_eq!(dec(-0.04, 1), "0.0");
        assert_eq!(percent(42.46), "42.5%");
        assert_eq!(capitalised("1 in 20"), "1 in 20");
        assert_eq!(capitalised("never"), "Never");
    }

    #[test]
    fn odds_read_as_words() {
        assert_eq!(odds_text(Odds::NEVER), "never");
        assert_eq!(odds_text(Odds { num: 0, den: 7 }), "never");
        assert_eq!(odds_text(Odds::one_in(33)), "1 in 33");
        assert_eq!(odds_text(Odds { num: 5, den: 100 }), "5/100");
    }

    #[test]
    fn requests_per_charge_rounds_to_hundredths() {
        let s = Stats {
            requests: 1_084,
            charges: 990,
            ..Stats::default()
        };
        assert_eq!(requests_per_charge(&s), "1.09");
        let s = Stats {
            requests: 1_000,
            charges: 9,
            ..Stats::default()
        };
        assert_eq!(requests_per_charge(&s), "111.11");
        let s = Stats {
            requests: 5,
            ..Stats::default()
        };
        assert_eq!(requests_per_charge(&s), "—");
    }

    #[test]
    fn the_panel_lists_every_field_but_elapsed_then_elapsed() {
        let s = Stats {
            requests: 7,
            elapsed_ms: 12,
            ..Stats::default()
        };
        let p = panel(&s);
        assert!(p.starts_with("provider stats: {\n  requests: 7,\n"), "{p}");
        assert!(p.ends_with("} elapsed: 12 ms"), "{p}");
        assert_eq!(p.lines().count(), StatField::ALL.len() + 1);
    }

    #[test]
    fn small_counts_are_words_and_larger_ones_digits() {
        assert_eq!(number_word(10), "ten");
        assert_eq!(number_word(1), "one");
        assert_eq!(number_word(13), "13");
    }
}

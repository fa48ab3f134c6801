//! The header reader against its table (`tests/fixtures/header_cases.txt`, each case
//! naming its rule or source), and two properties: no byte string makes it panic, and a
//! wait written as an HTTP-date reads back as the same wait.

mod header_cases;

use header_cases::cases;
use page::headers::reader::{read_block, rfc850_date};
use page::shared::words::Words;
use proptest::prelude::*;
use sim::headers::{http_date, read_headers, READER_MAX_WAIT_S};
use sim::time::US_PER_S;

#[test]
fn the_table_has_at_least_80_cases() {
    assert!(cases().len() >= 80, "{} cases", cases().len());
}

#[test]
fn every_case_of_the_table_reads_as_expected() {
    let mut failures = Vec::new();
    for case in cases() {
        let (pairs, r) = read_block(&case.block, case.now_s)
            .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        let got = r.wait_us.zip(r.from.clone());
        if got != case.expected || r.capped != case.capped {
            failures.push(format!(
                "line {} ({}): expected {:?} capped {}, got {:?} capped {}; ignored {:?}",
                case.line, case.rule, case.expected, case.capped, got, r.capped, r.ignored
            ));
        }
        // Every line is accounted for: it gave the wait, went into it, or is listed (a
        // positive Age, which the reader used, is not).
        let not_age = |n: &str| !n.eq_ignore_ascii_case("age");
        let lines = pairs.iter().filter(|(n, _)| not_age(n)).count();
        let listed = r.ignored.iter().filter(|i| not_age(&i.header)).count();
        if r.wait_us.is_none() {
            assert_eq!(listed, lines, "line {}", case.line);
        } else {
            assert!(listed < lines, "line {}", case.line);
        }
        for i in &r.ignored {
            let sentence = i.sentence();
            assert!(sentence.starts_with(&i.header), "{sentence}");
            assert!(sentence.ends_with('.'), "{sentence}");
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Any bytes as the value of any header the reader knows: a reading, never a panic,
    /// and never a wait above the cap.
    #[test]
    fn any_value_reads_or_is_ignored(
        value in proptest::collection::vec(any::<u8>(), 0..64),
        name in prop::sample::select(vec![
            "Retry-After", "RateLimit", "RateLimit-Policy", "RateLimit-Reset",
            "RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After",
            "X-RateLimit-Remaining", "x-ratelimit-reset-requests", "retry-after-ms",
            "X-Shopify-Shop-Api-Call-Limit", "Age",
        ]),
        now_s in 0u64..4_000_000_000,
    ) {
        let value = String::from_utf8_lossy(&value).into_owned();
        let block = [
            (name, value.as_str()),
            ("X-RateLimit-Remaining", "0"),
            ("RateLimit-Remaining", "0"),
        ];
        let r = read_headers(&block, now_s * US_PER_S);
        prop_assert!(r.wait_us.is_none_or(|w| w <= READER_MAX_WAIT_S * US_PER_S));
        prop_assert_eq!(r.wait_us.is_some(), r.from.is_some());
        prop_assert!(r.ignored.len() <= block.len());
    }

    /// Any text at all as a header block: the block parser and the reader answer.
    #[test]
    fn any_block_parses_or_is_refused(text in "\\PC{0,200}", now_s in 0u64..4_000_000_000) {
        let _ = read_block(&text, now_s);
    }

    /// A wait written as an HTTP-date (IMF-fixdate and RFC 850) reads back as that wait.
    #[test]
    fn a_wait_as_a_date_reads_back(now_s in 0u64..3_000_000_000, wait_s in 0u64..=READER_MAX_WAIT_S) {
        let imf = http_date(now_s + wait_s);
        for date in [imf.clone(), rfc850_date(&imf)] {
            let r = read_headers(&[("Retry-After", date.as_str())], now_s * US_PER_S);
            prop_assert_eq!(r.wait_us, Some(wait_s * US_PER_S), "{}", date);
            prop_assert!(!r.capped);
        }
    }
}

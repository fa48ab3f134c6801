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

/// Whether a case reads as the table expects.
fn reads_as_expected(case: &header_cases::Case) -> bool {
    let (_, r) =
        read_block(&case.block, case.now_s).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
    r.wait_us.zip(r.from.clone()) == case.expected && r.capped == case.capped
}

#[test]
fn docs_headers_md_states_the_measured_size_and_share_of_the_table() {
    let doc = include_str!("../../../docs/headers.md").replace('\n', " ");
    let all = cases();
    let right = all.iter().filter(|c| reads_as_expected(c)).count();
    let (n, share_per_mille) = (all.len(), right * 1_000 / all.len());
    let share = if share_per_mille == 1_000 {
        "100%".to_string()
    } else {
        format!("{}.{}%", share_per_mille / 10, share_per_mille % 10)
    };
    for said in [
        format!("The table holds {n} cases."),
        format!("The reader reads {right} of its {n} cases ({share}) as the table expects"),
    ] {
        assert!(doc.contains(&said), "docs/headers.md should say: {said}");
    }
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

/// `ns` nanoseconds as Go's `time.Duration.String()` writes them: `0s`, `100ns`, `1.5µs`,
/// `20ms`, `1.5s`, `6m0s`, `1h2m3.5s`.
fn go_string(ns: u64) -> String {
    let frac = |whole: u64, part: u64, digits: usize| {
        let f = format!("{part:0digits$}");
        let f = f.trim_end_matches('0');
        if f.is_empty() {
            whole.to_string()
        } else {
            format!("{whole}.{f}")
        }
    };
    const S: u64 = 1_000_000_000;
    match ns {
        0 => "0s".into(),
        n if n < 1_000 => format!("{n}ns"),
        n if n < 1_000_000 => format!("{}µs", frac(n / 1_000, n % 1_000, 3)),
        n if n < S => format!("{}ms", frac(n / 1_000_000, n % 1_000_000, 6)),
        n => {
            let secs = frac(n / S % 60, n % S, 9);
            let (m, h) = (n / S / 60 % 60, n / S / 3_600);
            match (h, n / S / 60) {
                (0, 0) => format!("{secs}s"),
                (0, _) => format!("{m}m{secs}s"),
                _ => format!("{h}h{m}m{secs}s"),
            }
        }
    }
}

/// Epoch second `at_s` as RFC 3339 at a zone `offset_min` minutes east of UTC.
fn rfc3339(at_s: u64, offset_min: i64) -> String {
    let local_s = (at_s as i64 + offset_min * 60) as u64;
    // http_date gives "Sun, 30 Aug 2026 10:42:59 GMT": day, month, year, time.
    let date = http_date(local_s);
    let p: Vec<&str> = date.split(' ').collect();
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = months.iter().position(|m| *m == p[2]).unwrap() + 1;
    let zone = match offset_min {
        0 => "Z".to_string(),
        o => format!(
            "{}{:02}:{:02}",
            if o < 0 { '-' } else { '+' },
            o.abs() / 60,
            o.abs() % 60
        ),
    };
    format!("{}-{month:02}-{}T{}{zone}", p[3], p[1], p[4])
}

#[test]
fn go_strings_are_written_as_go_writes_them() {
    // Examples from Go's time package (Duration.String) and OpenAI's rate-limit docs.
    for (ns, text) in [
        (0, "0s"),
        (100, "100ns"),
        (1_500, "1.5µs"),
        (20_000_000, "20ms"),
        (1_500_000_000, "1.5s"),
        (360_000_000_000, "6m0s"),
        (3_723_500_000_000, "1h2m3.5s"),
        (7_200_000_000_000, "2h0m0s"),
        (i64::MAX as u64, "2562047h47m16.854775807s"),
    ] {
        assert_eq!(go_string(ns), text);
    }
    assert_eq!(rfc3339(1_788_086_579, 0), "2026-08-30T10:42:59Z");
    assert_eq!(rfc3339(1_788_086_579, 120), "2026-08-30T12:42:59+02:00");
    assert_eq!(rfc3339(1_788_086_579, -330), "2026-08-30T05:12:59-05:30");
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
            "X-Shopify-Shop-Api-Call-Limit", "Age", "x-ms-retry-after-ms",
            "x-ratelimit-reset-tokens", "anthropic-ratelimit-requests-reset",
            "anthropic-ratelimit-tokens-reset", "anthropic-ratelimit-requests-remaining",
        ]),
        now_s in 0u64..4_000_000_000,
    ) {
        let value = String::from_utf8_lossy(&value).into_owned();
        let block = [
            (name, value.as_str()),
            ("X-RateLimit-Remaining", "0"),
            ("RateLimit-Remaining", "0"),
            ("x-ratelimit-remaining-tokens", "0"),
            ("anthropic-ratelimit-tokens-remaining", "0"),
        ];
        let r = read_headers(&block, now_s * US_PER_S);
        prop_assert!(r.wait_us.is_none_or(|w| w <= READER_MAX_WAIT_S * US_PER_S));
        prop_assert_eq!(r.wait_us.is_some(), r.from.is_some());
        prop_assert!(r.ignored.len() <= block.len());
    }

    /// Text made of what Go durations, RFC 3339 timestamps and millisecond values are made
    /// of, in any order and length, under each vendor header that reads them: a reading,
    /// never a panic, never above the cap.
    #[test]
    fn near_misses_of_the_vendor_forms_read_or_are_ignored(
        value in "[0-9.hmsunµμ+:TtZz -]{0,48}",
        name in prop::sample::select(vec![
            "x-ratelimit-reset-requests", "retry-after-ms", "x-ms-retry-after-ms",
            "X-RateLimit-Reset", "anthropic-ratelimit-requests-reset",
        ]),
        now_s in 0u64..4_000_000_000,
    ) {
        let block = [
            (name, value.as_str()),
            ("Retry-After", "1"),
            ("X-RateLimit-Remaining", "0"),
            ("x-ratelimit-remaining-requests", "0"),
            ("anthropic-ratelimit-requests-remaining", "0"),
        ];
        let r = read_headers(&block, now_s * US_PER_S);
        prop_assert!(r.wait_us.is_none_or(|w| w <= READER_MAX_WAIT_S * US_PER_S));
        prop_assert_eq!(r.wait_us.is_some(), r.from.is_some());
    }

    /// Any `time.Duration` Go can hold, written as Go's `String()` writes it, reads back as
    /// that wait rounded up to the microsecond (then capped).
    #[test]
    fn a_go_duration_reads_back(ns in 0u64..=i64::MAX as u64) {
        let text = go_string(ns);
        let r = read_headers(
            &[("x-ratelimit-remaining-requests", "0"), ("x-ratelimit-reset-requests", &text)],
            0,
        );
        let want_us = ns.div_ceil(1_000);
        let cap_us = READER_MAX_WAIT_S * US_PER_S;
        prop_assert_eq!(r.wait_us, Some(want_us.min(cap_us)), "{}", text);
        prop_assert_eq!(r.capped, want_us > cap_us, "{}", text);
    }

    /// A wait written as an RFC 3339 timestamp, with any offset, reads back as that wait.
    #[test]
    fn a_wait_as_an_rfc_3339_timestamp_reads_back(
        now_s in 86_400u64..3_000_000_000,
        wait_s in 0u64..=READER_MAX_WAIT_S,
        offset_min in -(23 * 60 + 59i64)..=(23 * 60 + 59),
    ) {
        let stamp = rfc3339(now_s + wait_s, offset_min);
        let r = read_headers(
            &[
                ("anthropic-ratelimit-requests-remaining", "0"),
                ("anthropic-ratelimit-requests-reset", stamp.as_str()),
            ],
            now_s * US_PER_S,
        );
        prop_assert_eq!(r.wait_us, Some(wait_s * US_PER_S), "{}", stamp);
    }

    /// A millisecond Retry-After beside the whole seconds it rounds up to: the milliseconds
    /// give the wait, whichever spelling carries them.
    #[test]
    fn milliseconds_refine_the_retry_after_they_round_to(
        wait_ms in 0u64..=READER_MAX_WAIT_S * 1_000,
        azure in any::<bool>(),
    ) {
        let name = if azure { "x-ms-retry-after-ms" } else { "retry-after-ms" };
        let (ms, s) = (wait_ms.to_string(), wait_ms.div_ceil(1_000).to_string());
        let r = read_headers(&[("Retry-After", s.as_str()), (name, ms.as_str())], 0);
        prop_assert_eq!(r.wait_us, Some(wait_ms * 1_000));
        prop_assert_eq!(r.from.as_deref(), Some(name));
        prop_assert!(r.ignored.is_empty());
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

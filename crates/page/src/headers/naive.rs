//! The naive reading in words, one row per language: what `setTimeout` does with
//! `Number(value) * 1000` in a browser and in Node, what Python's
//! `time.sleep(float(value))` and Go's `strconv.Atoi` + `time.Sleep` do with the same
//! value. The rules are the core's ([`sim::headers::naive_readings`]); the figures are
//! written with integers, so the page's module carries no float formatting.

use super::reader::seconds_text;
use crate::limits::lab::wait_text;
use crate::shared::format::count;
use crate::shared::markup::Whole;
use maud::{html, Markup};
use serde::Serialize;
use sim::headers::{GoSleep, JsTimer, NaiveReadings, PythonSleep, JS_MAX_DELAY_MS};
use sim::time::{US_PER_MS, US_PER_S};

/// The four runtimes a row is written for, in the page's order: (key, label, the line of
/// code that reads the value).
pub const LANGUAGES: [(&str, &str, &str); 4] = [
    (
        "browser",
        "JavaScript, browser",
        "setTimeout(retry, Number(value) * 1000)",
    ),
    (
        "node",
        "JavaScript, Node",
        "setTimeout(retry, Number(value) * 1000)",
    ),
    ("python", "Python", "time.sleep(float(value))"),
    (
        "go",
        "Go",
        "n, _ := strconv.Atoi(value); time.Sleep(time.Duration(n) * time.Second)",
    ),
];

/// The naive reading's sentence for each runtime, as the page and the CLI's JSON give it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LanguageSentences {
    /// JavaScript in a browser.
    pub browser: String,
    /// JavaScript in Node.
    pub node: String,
    /// CPython.
    pub python: String,
    /// Go.
    pub go: String,
}

/// Every runtime's sentence for one reading.
pub fn language_sentences(r: &NaiveReadings) -> LanguageSentences {
    LanguageSentences {
        browser: browser_sentence(&r.js),
        node: node_sentence(&r.js),
        python: python_sentence(r.python),
        go: go_sentence(r.go),
    }
}

/// A double for people, without float formatting: "NaN", "Infinity", "-5,000",
/// "250.9", or "1.0 × 10^23" from 10¹⁵ up.
pub fn double_text(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let a = x.abs();
    if a.is_infinite() {
        return format!("{sign}Infinity");
    }
    if a < 1e15 {
        let whole = a.trunc();
        // Three decimals, rounded, trailing zeros dropped: enough for a millisecond count.
        let mut thousandths = ((a - whole) * 1000.0 + 0.5) as u64;
        let mut whole = whole as u64;
        if thousandths == 1000 {
            whole += 1;
            thousandths = 0;
        }
        let mut text = format!("{sign}{}", count(whole));
        if thousandths > 0 {
            let frac = format!("{thousandths:03}");
            text.push('.');
            text.push_str(frac.trim_end_matches('0'));
        }
        return text;
    }
    // m.d × 10^e, the mantissa found by dividing: two digits survive any rounding on the way.
    let (mut m, mut e) = (a, 0u32);
    while m >= 10.0 {
        m /= 10.0;
        e += 1;
    }
    let mut tenths = (m * 10.0 + 0.5) as u64;
    if tenths >= 100 {
        tenths /= 10;
        e += 1;
    }
    format!("{sign}{}.{} × 10^{e}", tenths / 10, tenths % 10)
}

/// Milliseconds as a wait for people.
fn ms_wait(ms: u32) -> String {
    sleep_text(u64::from(ms) * US_PER_MS)
}

/// A sleep for people, exact under a minute ("1.5 s"), then rounded: "120 s",
/// "16.0 days", "56.7 years".
pub fn sleep_text(us: u64) -> String {
    const DAY_US: u64 = 86_400 * US_PER_S;
    if us > 0 && us < 60 * US_PER_S {
        return format!("{} s", seconds_text(us));
    }
    if (DAY_US..365 * DAY_US).contains(&us) {
        let tenths = (us + DAY_US / 20) / (DAY_US / 10);
        return format!("{}.{} days", tenths / 10, tenths % 10);
    }
    wait_text(us)
}

/// What a browser's timer does.
pub fn browser_sentence(t: &JsTimer) -> String {
    let delay = double_text(t.delay_ms);
    if t.delay_ms.is_nan() || t.delay_ms.is_infinite() {
        return format!(
            "the delay is {delay}, which the timer reads as 0: it fires at once, and the client retries in a loop."
        );
    }
    if t.overflows() {
        let to = format!(
            "{delay} ms does not fit the timer's 32-bit delay and wraps to {} ms",
            double_text(f64::from(t.int32_ms))
        );
        return if t.browser_ms == 0 {
            format!("{to}: it fires at once, and the client retries in a loop.")
        } else {
            format!("{to}: it waits {}.", ms_wait(t.browser_ms))
        };
    }
    if t.browser_ms == 0 {
        return format!("{delay} ms: the timer fires at once.");
    }
    format!("waits {}.", ms_wait(t.browser_ms))
}

/// What Node's timer does.
pub fn node_sentence(t: &JsTimer) -> String {
    let delay = double_text(t.delay_ms);
    if t.overflows() {
        return format!(
            "{delay} ms is above {} ms (24.8 days), so Node sets it to 1 ms with a TimeoutOverflowWarning: the client retries in a loop.",
            count(u64::from(JS_MAX_DELAY_MS))
        );
    }
    if t.delay_ms.is_nan() || t.delay_ms < 1.0 {
        return format!("{delay} ms is below 1 ms, so Node sets it to 1 ms: at once.");
    }
    format!("waits {}.", ms_wait(t.node_ms))
}

/// What CPython's `time.sleep(float(value))` does.
pub fn python_sentence(p: PythonSleep) -> String {
    match p {
        PythonSleep::NotAFloat => "float() raises ValueError: not a number to Python.".into(),
        PythonSleep::NotModelled => {
            "not worked out here: Python's float() also reads digits and spaces of other scripts."
                .into()
        }
        PythonSleep::NaN => "float() gives nan, and time.sleep raises ValueError.".into(),
        PythonSleep::Overflow => {
            "time.sleep raises OverflowError: the sleep reaches 2^63 ns (about 292 years).".into()
        }
        PythonSleep::Negative => {
            "time.sleep raises ValueError: sleep length must be non-negative.".into()
        }
        PythonSleep::Sleeps { us, near_limit } => {
            let mut s = format!("sleeps {}", sleep_text(us));
            if near_limit {
                s.push_str(
                    ", or raises OSError on Python 3.11 and later when the machine's uptime plus the sleep passes 2^63 ns",
                );
            }
            s.push('.');
            s
        }
    }
}

/// What Go's `strconv.Atoi` and `time.Sleep` do.
pub fn go_sentence(g: GoSleep) -> String {
    let wrap = |n: i64, ns: &str| format!("{n} s × 10^9 wraps around int64 to {ns} ns");
    match g {
        GoSleep::Syntax => "strconv.Atoi fails: invalid syntax.".into(),
        GoSleep::Range => "strconv.Atoi fails: value out of range (more than an int64).".into(),
        GoSleep::AtOnce { n, wrapped: true } => {
            format!("{}: time.Sleep returns at once.", wrap(n, "zero or less"))
        }
        GoSleep::AtOnce { .. } => "time.Sleep returns at once.".into(),
        GoSleep::Sleeps { n, ns, wrapped } => {
            let us = (ns as u64).div_ceil(1_000);
            if wrapped {
                format!(
                    "{}: it sleeps {}.",
                    wrap(n, &count(ns as u64)),
                    sleep_text(us)
                )
            } else {
                format!("sleeps {}.", sleep_text(us))
            }
        }
    }
}

/// The rows, one per runtime, as markup: label, code, sentence. Each row carries
/// `data-lang`; the browser's also its real delay in `data-browser-ms`, which a test
/// checks against a real timer.
pub fn languages_markup(r: &NaiveReadings) -> Markup {
    let s = language_sentences(r);
    let sentences = [&s.browser, &s.node, &s.python, &s.go];
    html! {
        ul.rll-naive-langs data-testid="naive-languages" data-browser-ms=(Whole(u64::from(r.js.browser_ms))) {
            @for ((key, label, code), sentence) in LANGUAGES.iter().zip(sentences) {
                li data-lang=(key) {
                    strong { (label) } " " code { (code) } ": "
                    span data-testid={ "naive-" (key) } { (sentence) }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::headers::naive_readings;

    fn say(value: &str) -> LanguageSentences {
        language_sentences(&naive_readings(value))
    }

    #[test]
    fn numbers_are_written_without_float_formatting() {
        assert_eq!(sleep_text(1_500_000), "1.5 s");
        assert_eq!(sleep_text(0), wait_text(0));
        assert_eq!(sleep_text(120 * US_PER_S), "120 s");
        assert_eq!(sleep_text(1_380_183_864 * US_PER_MS), "16.0 days");
        assert_eq!(sleep_text(1_788_086_579 * US_PER_S), "56.7 years");
        assert_eq!(double_text(f64::NAN), "NaN");
        assert_eq!(double_text(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(double_text(-5000.0), "-5,000");
        assert_eq!(double_text(250.9), "250.9");
        assert_eq!(double_text(1_788_086_579_000.0), "1,788,086,579,000");
        assert_eq!(double_text(1e23), "1.0 × 10^23");
        assert_eq!(double_text(9.9e22), "9.9 × 10^22");
        assert_eq!(double_text(1.7976931348623157e308), "1.8 × 10^308");
    }

    #[test]
    fn a_twenty_digit_retry_after_reads_as_each_language_computes_it() {
        // Number() gives 10²⁰; × 1000 is the double nearest 10²³, whose low 32 bits are
        // -167,772,160 as a signed integer (`1e23 | 0` in JavaScript).
        let s = say("99999999999999999999");
        assert_eq!(
            s.browser,
            "1.0 × 10^23 ms does not fit the timer's 32-bit delay and wraps to -167,772,160 ms: it fires at once, and the client retries in a loop."
        );
        assert!(
            s.node
                .starts_with("1.0 × 10^23 ms is above 2,147,483,647 ms"),
            "{}",
            s.node
        );
        assert!(s.python.contains("OverflowError"), "{}", s.python);
        assert_eq!(
            s.go,
            "strconv.Atoi fails: value out of range (more than an int64)."
        );
        for text in [&s.browser, &s.node, &s.python, &s.go] {
            assert!(!text.contains("584"), "no saturated count: {text}");
        }
    }

    #[test]
    fn an_epoch_read_as_seconds_wraps_in_a_browser_and_sleeps_decades_elsewhere() {
        let s = say("1788086579");
        assert_eq!(
            s.browser,
            "1,788,086,579,000 ms does not fit the timer's 32-bit delay and wraps to 1,380,183,864 ms: it waits 16.0 days."
        );
        assert!(s.node.contains("sets it to 1 ms"), "{}", s.node);
        assert_eq!(s.python, "sleeps 56.7 years.");
        assert_eq!(s.go, "sleeps 56.7 years.");
    }

    #[test]
    fn a_date_is_nan_in_javascript_and_an_error_elsewhere() {
        let s = say("Sun, 30 Aug 2026 10:42:59 GMT");
        assert!(s.browser.starts_with("the delay is NaN"), "{}", s.browser);
        assert!(s.node.starts_with("NaN ms is below 1 ms"), "{}", s.node);
        assert_eq!(
            s.python,
            "float() raises ValueError: not a number to Python."
        );
        assert_eq!(s.go, "strconv.Atoi fails: invalid syntax.");
        let s = say("120");
        assert_eq!([&s.browser, &s.node], ["waits 120 s.", "waits 120 s."]);
        let s = say("-5");
        assert_eq!(s.browser, "-5,000 ms: the timer fires at once.");
        assert!(s.python.contains("non-negative"));
        assert_eq!(s.go, "time.Sleep returns at once.");
        assert!(say("100000000000").go.starts_with(
            "100000000000 s × 10^9 wraps around int64 to 7,766,279,631,452,241,920 ns"
        ));
    }

    #[test]
    fn the_rows_name_each_language_and_the_browser_delay() {
        let m = languages_markup(&naive_readings("4294967.596")).into_string();
        assert!(m.contains("data-browser-ms=\"300\""), "{m}");
        for (key, label, _) in LANGUAGES {
            assert!(
                m.contains(&format!("data-lang=\"{key}\"><strong>{label}</strong>")),
                "{m}"
            );
        }
    }
}

//! The header reader's door and its words: a pasted (or piped) header block read into
//! name/value pairs, the reading as JSON (`ratelab headers read --json` and the page print
//! the same), the naive reading beside it with what it costs, and the page's examples.

use super::naive::{
    double_text, language_sentences, languages_markup, sleep_text, LanguageSentences,
};
use crate::limits::lab::wait_text;
use crate::shared::markup::Whole;
use crate::shared::words::Words;
use serde::Serialize;
use sim::headers::{
    http_date, naive_header, naive_readings, read_headers, NaiveReadings, Reading,
    READER_MAX_WAIT_S,
};
use sim::time::{US_PER_MS, US_PER_S};
use std::fmt;

/// The longest header line read, in bytes: common servers refuse header lines past 8 KiB.
pub const MAX_LINE_BYTES: usize = 8 * 1024;
/// The most lines a block may have.
pub const MAX_LINES: usize = 200;
/// The most bytes a block may have (what the CLI reads before it gives up).
pub const MAX_BLOCK_BYTES: usize = 64 * 1024;

/// Why a header block cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockError {
    /// Not UTF-8 text.
    NotText,
    /// Longer than [`MAX_BLOCK_BYTES`].
    TooBig,
    /// More than [`MAX_LINES`] lines.
    TooManyLines,
    /// A line longer than [`MAX_LINE_BYTES`].
    LineTooLong {
        /// 1-based.
        line: usize,
    },
    /// A control character (other than tab) in a line.
    ControlCharacter {
        /// 1-based.
        line: usize,
    },
    /// A line without a colon.
    NoColon {
        /// 1-based.
        line: usize,
    },
    /// A name that is not an HTTP token (empty, spaces, space before the colon, …).
    BadName {
        /// 1-based.
        line: usize,
    },
    /// A line that starts with whitespace: the obsolete line folding.
    Folded {
        /// 1-based.
        line: usize,
    },
}

impl std::error::Error for BlockError {}

impl fmt::Display for BlockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockError::NotText => f.write_str("The header block is not UTF-8 text."),
            BlockError::TooBig => write!(
                f,
                "The header block is larger than {} KiB, more than any response's headers.",
                MAX_BLOCK_BYTES / 1024
            ),
            BlockError::TooManyLines => {
                write!(f, "The header block has more than {MAX_LINES} lines.")
            }
            BlockError::LineTooLong { line } => write!(
                f,
                "Line {line} is longer than {} KiB, which servers refuse in a header.",
                MAX_LINE_BYTES / 1024
            ),
            BlockError::ControlCharacter { line } => write!(
                f,
                "Line {line} has a control character: a header line is printable text."
            ),
            BlockError::NoColon { line } => write!(
                f,
                "Line {line} has no colon: each line must be 'Name: value'."
            ),
            BlockError::BadName { line } => write!(
                f,
                "Line {line} has no valid header name before its colon (letters, digits and !#$%&'*+-.^_`|~, no spaces)."
            ),
            BlockError::Folded { line } => write!(
                f,
                "Line {line} starts with a space: folded header lines are obsolete (RFC 9112)."
            ),
        }
    }
}

/// An HTTP token character (RFC 9110, `tchar`).
fn tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// A header block as bytes (what the CLI reads): text, then [`parse_block`].
pub fn parse_block_bytes(bytes: &[u8]) -> Result<Vec<(String, String)>, BlockError> {
    if bytes.len() > MAX_BLOCK_BYTES {
        return Err(BlockError::TooBig);
    }
    parse_block(std::str::from_utf8(bytes).map_err(|_| BlockError::NotText)?)
}

/// A header block, one `Name: value` per line, an optional status line (`HTTP/1.1 429 …`)
/// first. Blank lines are skipped; `\r\n` is accepted.
pub fn parse_block(text: &str) -> Result<Vec<(String, String)>, BlockError> {
    if text.len() > MAX_BLOCK_BYTES {
        return Err(BlockError::TooBig);
    }
    let mut pairs = Vec::new();
    let mut first = true;
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i + 1;
        if line_no > MAX_LINES {
            if text
                .split('\n')
                .skip(MAX_LINES)
                .all(|l| l.trim().is_empty())
            {
                break;
            }
            return Err(BlockError::TooManyLines);
        }
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.len() > MAX_LINE_BYTES {
            return Err(BlockError::LineTooLong { line: line_no });
        }
        if line.chars().any(|c| c.is_control() && c != '\t') {
            return Err(BlockError::ControlCharacter { line: line_no });
        }
        if line.trim().is_empty() {
            continue;
        }
        let is_first = std::mem::replace(&mut first, false);
        if is_first && line.starts_with("HTTP/") {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            return Err(BlockError::Folded { line: line_no });
        }
        let (name, value) = line
            .split_once(':')
            .ok_or(BlockError::NoColon { line: line_no })?;
        if name.is_empty() || !name.bytes().all(tchar) {
            return Err(BlockError::BadName { line: line_no });
        }
        pairs.push((
            name.to_string(),
            value.trim_matches([' ', '\t']).to_string(),
        ));
    }
    Ok(pairs)
}

/// One ignored header in the JSON.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IgnoredJson {
    /// Its name as written.
    pub header: String,
    /// The sentence.
    pub why: String,
}

/// The reading as `ratelab headers read --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadingJson {
    /// The wait in seconds (fractions when the header had them), or null.
    pub wait_s: Option<serde_json::Number>,
    /// The header it came from, or null.
    pub from: Option<String>,
    /// Whether the cap applied.
    pub capped: bool,
    /// The headers set aside, each with its sentence.
    pub ignored: Vec<IgnoredJson>,
    /// What the naive client reads, and each runtime's sentence; null when it reads none.
    pub naive: Option<NaiveJson>,
}

/// Microseconds as seconds for JSON: a whole number when whole.
pub fn seconds_number(us: u64) -> serde_json::Number {
    if us.is_multiple_of(US_PER_S) {
        serde_json::Number::from(us / US_PER_S)
    } else {
        serde_json::Number::from_f64(us as f64 / US_PER_S as f64)
            .unwrap_or_else(|| serde_json::Number::from(us / US_PER_S))
    }
}

/// Microseconds as seconds in decimal, exact, without trailing zeros: "120", "1.25".
/// The page shows this where the CLI's JSON has its number, so the page does not carry
/// serde_json.
pub fn seconds_text(us: u64) -> String {
    if us.is_multiple_of(US_PER_S) {
        return (us / US_PER_S).to_string();
    }
    let text = format!("{}.{:06}", us / US_PER_S, us % US_PER_S);
    text.trim_end_matches('0').to_string()
}

/// The reading as the page shows it: the JSON's fields, the wait as text.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadingView {
    /// The wait in seconds ([`seconds_text`]), or none.
    pub wait_s: Option<String>,
    /// The header it came from, or none.
    pub from: Option<String>,
    /// Whether the cap applied.
    pub capped: bool,
    /// The headers set aside, each with its sentence.
    pub ignored: Vec<IgnoredJson>,
}

/// The reading for the page.
pub fn reading_view(r: &Reading) -> ReadingView {
    ReadingView {
        wait_s: r.wait_us.map(seconds_text),
        from: r.from.clone(),
        capped: r.capped,
        ignored: ignored_sentences(r),
    }
}

/// Each ignored header with its sentence.
fn ignored_sentences(r: &Reading) -> Vec<IgnoredJson> {
    r.ignored
        .iter()
        .map(|i| IgnoredJson {
            header: i.header.clone(),
            why: i.sentence(),
        })
        .collect()
}

/// The reading of `block` as JSON, with the naive reading beside it.
pub fn reading_json(block: &[(String, String)], r: &Reading) -> ReadingJson {
    ReadingJson {
        wait_s: r.wait_us.map(seconds_number),
        from: r.from.clone(),
        capped: r.capped,
        ignored: ignored_sentences(r),
        naive: naive_json(block),
    }
}

/// The reading as the CLI prints it without `--json`: the wait, the cap, each ignored
/// header, then what the naive client does in each runtime.
pub fn reading_text(block: &[(String, String)], r: &Reading) -> String {
    let mut out = match (&r.wait_us, &r.from) {
        (Some(us), Some(from)) => format!("wait: {} (from {from})", exact_wait_text(*us)),
        _ => "wait: none (no header asks for one)".to_string(),
    };
    if r.capped {
        out.push_str(&format!(
            "\ncapped: the header asked for longer than {READER_MAX_WAIT_S} s (one day)"
        ));
    }
    for i in &r.ignored {
        out.push_str(&format!("\nignored: {}", i.said()));
    }
    if let Some(n) = naive_json(block) {
        let l = &n.languages;
        out.push_str(&format!("\nnaive: reads {}: {}", n.header, n.value));
        for (key, said) in [
            ("browser", &l.browser),
            ("node", &l.node),
            ("python", &l.python),
            ("go", &l.go),
        ] {
            out.push_str(&format!("\nnaive ({key}): {said}"));
        }
    }
    out
}

/// The note beside a capped wait.
pub fn capped_text() -> String {
    format!(
        " Capped: the header asked for longer than {}, the most the reader obeys.",
        wait_text(READER_MAX_WAIT_S * US_PER_S)
    )
}

/// A wait for people, exact below a minute: "0 s", "1.25 s", "120 s", "1 day".
pub fn exact_wait_text(us: u64) -> String {
    if us == 0 {
        return "0 s (retry now)".into();
    }
    if us.is_multiple_of(US_PER_S) {
        return format!("{} s", us / US_PER_S);
    }
    format!("{} s", seconds_text(us))
}

/// What the naive client does with the block, and what that costs, against the reader.
/// The cost is the browser's: the page's naive line is JavaScript, run in a browser.
#[derive(Clone, Debug, PartialEq)]
pub struct NaiveComparison {
    /// The header it read, as written, or none.
    pub header: Option<String>,
    /// Its value.
    pub value: String,
    /// What each runtime does with the value; none when no header was read.
    pub readings: Option<NaiveReadings>,
    /// How long a browser's timer really waits.
    pub slept_us: u64,
    /// The sentence: what it does in a browser and what follows.
    pub consequence: String,
}

/// The naive reading of `block` beside the reader's.
pub fn naive_comparison(block: &[(String, String)], reading: &Reading) -> NaiveComparison {
    let right_us = reading.wait_us.unwrap_or(0);
    let found = naive_header(block).map(|i| (block[i].0.clone(), block[i].1.clone()));
    let readings = found.as_ref().map(|(_, v)| naive_readings(v));
    let slept_us = readings.map_or(0, |r| u64::from(r.js.browser_ms) * US_PER_MS);
    let (header, value) = found.map_or((None, String::new()), |(h, v)| (Some(h), v));
    let what = match (&header, readings) {
        (Some(h), Some(r)) if r.js.delay_ms.is_nan() => {
            format!("Number('{value}') is NaN, so a timer set from {h} fires at once")
        }
        (Some(h), Some(r)) if r.js.overflows() => format!(
            "In a browser, {} ms from {h} wraps around the timer's 32 bits to {}",
            double_text(r.js.delay_ms),
            if slept_us == 0 {
                "a delay of 0 or less, so it fires at once".to_string()
            } else {
                sleep_text(slept_us)
            }
        ),
        (Some(h), Some(_)) => format!("It reads {h} as {} of sleep", sleep_text(slept_us)),
        _ => "It finds none of the headers it knows, and retries at once".to_string(),
    };
    let then = if slept_us < right_us {
        format!(
            "{} early, so the server refuses it again",
            wait_text(right_us - slept_us)
        )
    } else if slept_us > right_us.saturating_add(US_PER_S) {
        format!(
            "{} longer than needed: a worker asleep while the quota is back",
            wait_text(slept_us - right_us)
        )
    } else {
        "the same as the reader, on this block".to_string()
    };
    NaiveComparison {
        header,
        value,
        readings,
        slept_us,
        consequence: format!("{what}: {then}."),
    }
}

/// The naive reading in the CLI's JSON: the header, its value and each runtime's sentence.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NaiveJson {
    /// The header the naive client read, as written.
    pub header: String,
    /// Its value.
    pub value: String,
    /// How long a browser's timer waits, in whole milliseconds.
    pub browser_ms: u32,
    /// Each runtime's sentence.
    pub languages: LanguageSentences,
}

/// The naive reading of `block` for the JSON, or none when it reads no header.
pub fn naive_json(block: &[(String, String)]) -> Option<NaiveJson> {
    let i = naive_header(block)?;
    let r = naive_readings(&block[i].1);
    Some(NaiveJson {
        header: block[i].0.clone(),
        value: block[i].1.clone(),
        browser_ms: r.js.browser_ms,
        languages: language_sentences(&r),
    })
}

/// A one-click example for the page: a block in a shape some server really sends.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// For `data-example` and tests.
    pub id: &'static str,
    /// The button's label.
    pub label: &'static str,
    /// Where the shape comes from.
    pub source: &'static str,
    /// Builds the block for a "now" (epoch seconds), so timestamps stay near it.
    pub block: fn(u64) -> String,
}

/// The examples, each timed relative to the page's "now".
pub const EXAMPLES: [Example; 8] = [
    Example {
        id: "github",
        label: "GitHub: epoch reset",
        source: "GitHub REST API docs, “Rate limits for the REST API”: x-ratelimit-reset in UTC epoch seconds",
        block: |now| {
            format!(
                "HTTP/1.1 403 Forbidden\nx-ratelimit-limit: 60\nx-ratelimit-remaining: 0\nx-ratelimit-used: 60\nx-ratelimit-reset: {}\nx-ratelimit-resource: core",
                now + 1_800
            )
        },
    },
    Example {
        id: "discord",
        label: "Discord: float reset-after",
        source: "Discord developer docs, “Rate Limits”: X-RateLimit-Reset-After in seconds, with decimals",
        block: |now| {
            format!(
                "HTTP/1.1 429 Too Many Requests\nX-RateLimit-Limit: 5\nX-RateLimit-Remaining: 0\nX-RateLimit-Reset: {}.250\nX-RateLimit-Reset-After: 1.250\nX-RateLimit-Bucket: abcd1234",
                now + 1
            )
        },
    },
    Example {
        id: "draft-06",
        label: "Draft 00–06: three fields",
        source: "draft-ietf-httpapi-ratelimit-headers-06: RateLimit-Limit, -Remaining, -Reset",
        block: |_| {
            "HTTP/1.1 429 Too Many Requests\nRateLimit-Limit: 10\nRateLimit-Remaining: 0\nRateLimit-Reset: 7".to_string()
        },
    },
    Example {
        id: "draft-07",
        label: "Draft 07: one dictionary",
        source: "draft-ietf-httpapi-ratelimit-headers-07: RateLimit as a Dictionary",
        block: |_| {
            "HTTP/1.1 200 OK\nRateLimit-Policy: 100;w=60\nRateLimit: limit=100, remaining=0, reset=50".to_string()
        },
    },
    Example {
        id: "draft-08",
        label: "Draft 08 on: named policies",
        source: "draft-ietf-httpapi-ratelimit-headers-08 and later: RateLimit and RateLimit-Policy as Lists",
        block: |_| {
            "HTTP/1.1 200 OK\nRateLimit-Policy: \"burst\";q=100;w=60, \"daily\";q=1000;w=86400\nRateLimit: \"burst\";r=0;t=30, \"daily\";r=200;t=4000".to_string()
        },
    },
    Example {
        id: "rfc850",
        label: "RFC 850 date",
        source: "RFC 9110, section 5.6.7: the obsolete form a recipient must still accept",
        block: |now| {
            let date = http_date(now + 120);
            format!(
                "HTTP/1.1 503 Service Unavailable\nRetry-After: {}",
                rfc850_date(&date)
            )
        },
    },
    Example {
        id: "quoted-comma",
        label: "Quoted comma",
        source: "RFC 9651 strings: a policy name may hold a comma or a semicolon",
        block: |_| {
            "HTTP/1.1 429 Too Many Requests\nRateLimit-Policy: \"org=1,user=2;x\";q=10;w=1\nRateLimit: \"org=1,user=2;x\";r=0;t=3".to_string()
        },
    },
    Example {
        id: "openai",
        label: "OpenAI: Go durations",
        source: "OpenAI API docs, “Rate limits”: x-ratelimit-reset-requests as a Go duration",
        block: |_| {
            "HTTP/1.1 429 Too Many Requests\nx-ratelimit-limit-requests: 60\nx-ratelimit-remaining-requests: 0\nx-ratelimit-reset-requests: 6m0s\nx-ratelimit-remaining-tokens: 149984\nx-ratelimit-reset-tokens: 6ms".to_string()
        },
    },
];

/// An IMF-fixdate (`Sun, 30 Aug 2026 10:42:59 GMT`) rewritten in the RFC 850 form
/// (`Sunday, 30-Aug-26 10:42:59 GMT`).
pub fn rfc850_date(imf: &str) -> String {
    const LONG: [(&str, &str); 7] = [
        ("Sun", "Sunday"),
        ("Mon", "Monday"),
        ("Tue", "Tuesday"),
        ("Wed", "Wednesday"),
        ("Thu", "Thursday"),
        ("Fri", "Friday"),
        ("Sat", "Saturday"),
    ];
    let parts: Vec<&str> = imf.split(' ').collect();
    let [day_name, day, month, year, time, _] = parts[..] else {
        return imf.to_string();
    };
    let short = day_name.trim_end_matches(',');
    let long = LONG
        .iter()
        .find(|(s, _)| *s == short)
        .map_or(short, |(_, l)| *l);
    // The year's last two digits (an IMF-fixdate's year is four ASCII digits).
    let yy = year.get(year.len().saturating_sub(2)..).unwrap_or(year);
    format!("{long}, {day}-{month}-{yy} {time} GMT")
}

/// A block's pairs and their reading.
pub type BlockReading = (Vec<(String, String)>, Reading);

/// Reads a pasted block at `now_s`: the pairs and the reading, or the block's error.
pub fn read_block(text: &str, now_s: u64) -> Result<BlockReading, BlockError> {
    let pairs = parse_block(text)?;
    let reading = read_headers(&pairs, now_s.saturating_mul(US_PER_S));
    Ok((pairs, reading))
}

/// The latest "now" accepted: the last second an HTTP-date can write (9999-12-31).
pub const MAX_NOW_S: u64 = 253_402_300_799;

/// Why a "now" cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NowError(pub String);

impl fmt::Display for NowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a time: give whole seconds since 1970 (Unix time), from 0 to {MAX_NOW_S}.",
            self.0
        )
    }
}

impl std::error::Error for NowError {}

/// A "now" typed by the reader or passed to `--now`: whole epoch seconds.
pub fn parse_now(text: &str) -> Result<u64, NowError> {
    let t = text.trim();
    let bad = || NowError(t.to_string());
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match t.parse::<u64>() {
        Ok(n) if n <= MAX_NOW_S => Ok(n),
        _ => Err(bad()),
    }
}

/// What the reader made of a block, beside the naive reading of the same block, as
/// markup: the wait and where it came from (and the cap, if it applied), what
/// `Number(value) × 1000` sleeps and what follows, then every header set aside with its
/// reason.
pub fn result_markup(pairs: &[(String, String)], reading: &Reading) -> maud::Markup {
    let view = reading_view(reading);
    let naive = naive_comparison(pairs, reading);
    let wait = match (reading.wait_us, &reading.from) {
        (Some(us), Some(_)) => exact_wait_text(us),
        _ => "no wait".to_string(),
    };
    let from = view
        .from
        .as_ref()
        .map_or("No header asks for a wait.".to_string(), |f| {
            format!("From {f}.")
        });
    let naive_what = match &naive.header {
        Some(h) => format!("{h}: {}", naive.value),
        None => "no header it knows".to_string(),
    };
    maud::html! {
        dl.rll-readings data-testid="reader-result" data-wait-s=(view.wait_s.as_deref().unwrap_or("none"))
            data-from=(view.from.as_deref().unwrap_or_default()) data-capped=(if view.capped { "true" } else { "false" }) {
            div {
                dt { "Careful: the reader" }
                dd data-testid="reader-wait" { (wait) }
                dd.rll-reading-note data-testid="reader-from" {
                    (from)
                    @if view.capped { (capped_text()) }
                }
            }
            div {
                dt { "Naive, in a browser: " code { "Number(value) × 1000" } " ms" }
                dd data-testid="reader-naive" { (sleep_text(naive.slept_us)) }
                dd.rll-reading-note data-testid="reader-naive-read" { (naive_what) }
                dd.rll-reading-note.rll-harm-text data-testid="reader-naive-consequence" { (naive.consequence) }
            }
        }
        @if let Some(r) = &naive.readings {
            h3.rll-reader-ignored-title { "The same naive line in four runtimes" }
            (languages_markup(r))
        }
        h3.rll-reader-ignored-title { "Ignored (" (Whole(view.ignored.len() as u64)) ")" }
        ul.rll-reader-ignored data-testid="reader-ignored" {
            @for i in &view.ignored {
                li data-header=(i.header) { (i.why) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab::LAB_EPOCH_S;

    #[test]
    fn every_example_gives_a_wait_from_the_header_it_is_about() {
        let from = [
            ("github", "x-ratelimit-reset"),
            ("discord", "X-RateLimit-Reset-After"),
            ("draft-06", "RateLimit-Reset"),
            ("draft-07", "RateLimit"),
            ("draft-08", "RateLimit"),
            ("rfc850", "Retry-After"),
            ("quoted-comma", "RateLimit"),
            ("openai", "x-ratelimit-reset-requests"),
        ];
        for (e, (id, header)) in EXAMPLES.iter().zip(from) {
            assert_eq!(e.id, id);
            let (_, r) = read_block(&(e.block)(LAB_EPOCH_S), LAB_EPOCH_S).unwrap();
            assert_eq!(r.from.as_deref(), Some(header), "{id}: {r:?}");
            assert!(r.wait_us.unwrap() > 0, "{id}");
        }
    }

    #[test]
    fn bad_blocks_are_sentences() {
        assert_eq!(
            parse_block("Retry-After 5"),
            Err(BlockError::NoColon { line: 1 })
        );
        assert_eq!(
            parse_block("HTTP/1.1 429 x\nRetry After: 5"),
            Err(BlockError::BadName { line: 2 })
        );
        assert_eq!(
            parse_block("a: 1\n  folded"),
            Err(BlockError::Folded { line: 2 })
        );
        assert_eq!(
            parse_block("a: \u{0}"),
            Err(BlockError::ControlCharacter { line: 1 })
        );
        assert_eq!(parse_block_bytes(&[0xff, 0xfe]), Err(BlockError::NotText));
        assert_eq!(
            parse_block(&format!("a: {}", "9".repeat(MAX_LINE_BYTES))),
            Err(BlockError::LineTooLong { line: 1 })
        );
        assert_eq!(
            parse_block_bytes(&vec![b'a'; 10 * 1024 * 1024]),
            Err(BlockError::TooBig)
        );
        assert_eq!(
            parse_block(&"a: 1\n".repeat(MAX_LINES + 1)),
            Err(BlockError::TooManyLines)
        );
        assert_eq!(
            parse_block("HTTP/1.1 200 OK\r\nAge: 3\r\n\r\n"),
            Ok(vec![("Age".into(), "3".into())])
        );
        assert_eq!(
            BlockError::NoColon { line: 2 }.to_string(),
            "Line 2 has no colon: each line must be 'Name: value'."
        );
    }

    #[test]
    fn the_naive_client_springs_the_traps() {
        let block = |text: &str| {
            let (pairs, r) = read_block(text, LAB_EPOCH_S).unwrap();
            naive_comparison(&pairs, &r).consequence
        };
        assert_eq!(
            block("Retry-After: Sun, 30 Aug 2026 10:42:59 GMT"),
            "Number('Sun, 30 Aug 2026 10:42:59 GMT') is NaN, so a timer set from Retry-After fires at once: 2 min early, so the server refuses it again."
                .replace("2 min", &wait_text(120 * US_PER_S))
        );
        // An epoch read as seconds: (LAB_EPOCH_S + 60) × 1000 ms is, as a 32-bit integer
        // (what `x | 0` gives in JavaScript), 1,380,123,864 ms: about 16 days, not decades.
        let epoch = block(&format!(
            "x-ratelimit-remaining: 0\nx-ratelimit-reset: {}",
            LAB_EPOCH_S + 60
        ));
        assert_eq!(
            epoch,
            format!(
                "In a browser, 1,788,086,519,000 ms from x-ratelimit-reset wraps around the timer's 32 bits to 16.0 days: {} longer than needed: a worker asleep while the quota is back.",
                wait_text(1_380_123_864 * US_PER_MS - 60 * US_PER_S)
            )
        );
        // 2³¹ + 300 ms: negative as 32 bits, so it fires at once.
        assert_eq!(
            block("Retry-After: 2147484"),
            format!(
                "In a browser, 2,147,484,000 ms from Retry-After wraps around the timer's 32 bits to a delay of 0 or less, so it fires at once: {} early, so the server refuses it again.",
                wait_text(READER_MAX_WAIT_S * US_PER_S)
            )
        );
        assert!(block("Retry-After: 5").ends_with("the same as the reader, on this block."));
    }

    #[test]
    fn now_is_whole_epoch_seconds() {
        assert_eq!(parse_now(" 1788086459 "), Ok(1_788_086_459));
        for bad in ["", "-1", "1.5", "soon", "253402300800"] {
            assert!(parse_now(bad).is_err(), "{bad}");
        }
        assert_eq!(
            rfc850_date("Sun, 30 Aug 2026 10:42:59 GMT"),
            "Sunday, 30-Aug-26 10:42:59 GMT"
        );
        assert_eq!(exact_wait_text(1_250_000), "1.25 s");
        assert_eq!(seconds_number(1_250_000).to_string(), "1.25");
        assert_eq!(seconds_number(120_000_000).to_string(), "120");
        for us in [
            0,
            1,
            12_000,
            1_250_000,
            90_500_000,
            86_400_000_000,
            123_456_789,
        ] {
            // The same number, as JSON readers (and the browser test) parse it.
            let (text, json) = (seconds_text(us), seconds_number(us).to_string());
            assert_eq!(
                text.parse::<f64>().unwrap(),
                json.parse::<f64>().unwrap(),
                "{us}"
            );
        }
    }

    #[test]
    fn the_result_markup_shows_both_readings_and_every_ignored_header() {
        let block = "Retry-After: 120\nX-RateLimit-Reset: 60\nX-Weird: 1";
        let (pairs, reading) = read_block(block, sim::lab::LAB_EPOCH_S).unwrap();
        let m = result_markup(&pairs, &reading).into_string();
        let view = reading_view(&reading);
        assert!(
            m.contains(&format!("data-wait-s=\"{}\"", view.wait_s.clone().unwrap())),
            "{m}"
        );
        assert!(
            m.contains("<dd data-testid=\"reader-wait\">120 s</dd>"),
            "{m}"
        );
        assert!(
            m.contains(&format!("Ignored ({})", view.ignored.len())),
            "{m}"
        );
        assert_eq!(m.matches("<li data-header=").count(), view.ignored.len());
        let naive = naive_comparison(&pairs, &reading);
        assert!(m.contains(&naive.consequence), "{m}");
    }

    #[test]
    fn what_a_server_sent_is_shown_as_text_never_as_markup() {
        // The naive client reads this value, and the page quotes it twice: in what the
        // naive client read, and in the sentence saying what it does with it.
        let block = "Retry-After: <b>1</b> & \"2\"";
        let (pairs, reading) = read_block(block, sim::lab::LAB_EPOCH_S).unwrap();
        let naive = naive_comparison(&pairs, &reading);
        assert_eq!(naive.value, "<b>1</b> & \"2\"", "the naive client reads it");
        let m = result_markup(&pairs, &reading).into_string();
        let shown = "&lt;b&gt;1&lt;/b&gt; &amp; &quot;2&quot;";
        assert!(
            m.contains(&format!(
                "data-testid=\"reader-naive-read\">Retry-After: {shown}</dd>"
            )),
            "{m}"
        );
        assert!(m.contains(&format!("Number('{shown}') is NaN")), "{m}");
        assert!(!m.contains("<b>"), "{m}");
    }
}

//! The code view's equivalents: how a reader would configure each strategy with a library
//! they may know (urllib3, tenacity, go-retryablehttp, resilience4j, …). They are not in
//! the page's `.wasm`: they live in `crates/page/src/run/equivalents.txt`, which `index.html` copies
//! next to the page (`source/equivalents.txt`) and the code view fetches once. This module
//! reads that file's small line format and fills each row with the run's numbers.
//!
//! The format, one row per line: `strategy | library version (language) | code`; a line
//! starting with `>` continues the row above on a new line of code; a line starting with
//! `#` is a comment. `{{name}}` in the code is a name [`value`] knows, replaced by the
//! run's number; single braces are code and stay as written.

use crate::shared::cut::around;
use maud::{html, Markup};
use sim::strategy::adaptive::VECTOR_ARC;
use sim::strategy::breaker::SCALED_RESILIENCE4J;
use sim::strategy::pacer::Pacer;
use sim::strategy::ClientParams;
use sim::time::whole_ms;
use sim::StrategyName;

/// Where the page finds the file, relative to the lab's own folder.
pub const EQUIVALENTS_PATH: &str = "source/equivalents.txt";

/// The languages in the order the code view lists them; any other comes after, as written.
pub const LANGUAGE_ORDER: [&str; 5] = ["Python", "Go", "Java", "JavaScript", "Rust"];

/// The names a row's code may use as `{{name}}` (the ones [`value`] knows).
#[cfg(test)]
const PLACEHOLDERS: [&str; 19] = [
    "attempts",
    "retries",
    "base_ms",
    "base_s",
    "timeout_ms",
    "timeout_s",
    "workers",
    "pacer_per_s",
    "gap_ms",
    "breaker_window",
    "breaker_minimum",
    "breaker_failure_percent",
    "breaker_open_ms",
    "breaker_probes",
    "aimd_initial",
    "aimd_max",
    "aimd_decrease",
    "aimd_ewma",
    "aimd_rtt_deviation_scale",
];

/// One row of the file, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equivalent {
    /// The strategy it configures.
    pub strategy: StrategyName,
    /// The library and the version it was checked against, e.g. `tenacity 9.0`.
    pub library: String,
    /// The language, e.g. `Python`.
    pub language: String,
    /// The code, lines joined by `\n`, placeholders not yet filled.
    pub template: String,
    /// The row's first line in the file (1-based).
    pub line: usize,
}

/// Reads the file, or says which line is wrong and why.
pub fn parse(text: &str) -> Result<Vec<Equivalent>, String> {
    let mut rows: Vec<Equivalent> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let err = |why: String| format!("Line {n} of the equivalents file: {why}");
        if let Some(rest) = raw.strip_prefix('>') {
            let row = rows
                .last_mut()
                .ok_or_else(|| err("a line starting with '>' continues no row.".into()))?;
            let code = rest.strip_prefix(' ').unwrap_or(rest);
            check_placeholders(code).map_err(err)?;
            row.template.push('\n');
            row.template.push_str(code);
            continue;
        }
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let mut parts = raw.splitn(3, '|');
        let (Some(strategy), Some(label), Some(code)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(err(format!(
                "'{t}' is not a row: 'strategy | library version (language) | code'."
            )));
        };
        let strategy: StrategyName = strategy
            .trim()
            .parse()
            .map_err(|_| err(format!("'{}' is not a strategy.", strategy.trim())))?;
        let (library, language) = split_label(label.trim()).map_err(err)?;
        check_placeholders(code).map_err(err)?;
        rows.push(Equivalent {
            strategy,
            library,
            language,
            template: code.trim().to_string(),
            line: n,
        });
    }
    Ok(rows)
}

/// `tenacity 9.0 (Python)` as (`tenacity 9.0`, `Python`); the library is a name, then a
/// last word holding a digit: the version the row was checked against.
fn split_label(label: &str) -> Result<(String, String), String> {
    let (library, language) = label
        .strip_suffix(')')
        .and_then(|l| l.rsplit_once('('))
        .ok_or_else(|| format!("'{label}' names no language, e.g. '(Python)'."))?;
    let (library, language) = (library.trim(), language.trim());
    let versioned = library
        .rsplit_once(' ')
        .is_some_and(|(name, v)| !name.is_empty() && v.chars().any(|c| c.is_ascii_digit()));
    if library.is_empty() || language.is_empty() || !versioned {
        return Err(format!(
            "'{label}' names no version, e.g. 'tenacity 9.0 (Python)'."
        ));
    }
    Ok((library.to_string(), language.to_string()))
}

/// Every `{{name}}` in `code` is closed and one of [`PLACEHOLDERS`] (that is, [`value`]
/// knows it).
fn check_placeholders(code: &str) -> Result<(), String> {
    let mut rest = code;
    while let Some((_, after)) = around(rest, "{{") {
        let (name, tail) =
            around(after, "}}").ok_or_else(|| "a '{{' is never closed.".to_string())?;
        if value(name, &ClientParams::default()).is_none() {
            return Err(format!("'{{{{{name}}}}}' is not a number the page knows."));
        }
        rest = tail;
    }
    Ok(())
}

/// Microseconds as seconds the way Python writes a float: 100 ms is `0.1`, 1 s is `1.0`.
fn seconds(us: u64) -> String {
    let frac = format!("{:06}", us % 1_000_000);
    let frac = frac.trim_end_matches('0');
    format!(
        "{}.{}",
        us / 1_000_000,
        if frac.is_empty() { "0" } else { frac }
    )
}

/// Tenths as a decimal: 9 is `0.9`.
pub(crate) fn tenths(t: u64) -> String {
    format!("{}.{}", t / 10, t % 10)
}

/// The number each placeholder stands for in this run.
pub fn value(name: &str, c: &ClientParams) -> Option<String> {
    let b = SCALED_RESILIENCE4J;
    let a = VECTOR_ARC;
    Some(match name {
        "attempts" => c.max_attempts.to_string(),
        "retries" => c.max_attempts.saturating_sub(1).to_string(),
        "base_ms" => whole_ms(c.backoff_base_us).to_string(),
        "base_s" => seconds(c.backoff_base_us),
        "timeout_ms" => whole_ms(c.timeout_us).to_string(),
        "timeout_s" => seconds(c.timeout_us),
        "workers" => c.pool_workers.to_string(),
        "pacer_per_s" => c.pacer_per_s.to_string(),
        "gap_ms" => whole_ms(Pacer::new(c.pacer_per_s.max(1)).gap_us()).to_string(),
        "breaker_window" => b.window.to_string(),
        "breaker_minimum" => b.minimum.to_string(),
        "breaker_failure_percent" => b.failure_percent.to_string(),
        "breaker_open_ms" => whole_ms(b.open_us).to_string(),
        "breaker_probes" => b.probes.to_string(),
        "aimd_initial" => a.initial_concurrency.to_string(),
        "aimd_max" => a.max_concurrency_limit.to_string(),
        "aimd_decrease" => tenths(u64::from(a.decrease_ratio_tenths)),
        "aimd_ewma" => tenths(a.ewma_alpha_tenths),
        "aimd_rtt_deviation_scale" => tenths(a.rtt_deviation_scale_tenths),
        _ => return None,
    })
}

/// The code with every `{{name}}` replaced by the run's number (a name [`parse`] let
/// through is always known; an unknown one is left as written).
pub fn fill(template: &str, c: &ClientParams) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some((before, after)) = around(rest, "{{") {
        out.push_str(before);
        match around(after, "}}").and_then(|(name, tail)| Some((value(name, c)?, tail))) {
            Some((v, tail)) => {
                out.push_str(&v);
                rest = tail;
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The rows for `s`, ordered by language ([`LANGUAGE_ORDER`], then the rest), each
/// language's rows as written.
pub fn for_strategy(rows: &[Equivalent], s: StrategyName) -> Vec<&Equivalent> {
    let rank = |lang: &str| {
        LANGUAGE_ORDER
            .iter()
            .position(|l| *l == lang)
            .unwrap_or(LANGUAGE_ORDER.len())
    };
    // A pass per rank rather than a sort: less code in the page's module.
    let mut out = Vec::new();
    for k in 0..=LANGUAGE_ORDER.len() {
        for r in rows {
            if r.strategy == s && rank(&r.language) == k {
                out.push(r);
            }
        }
    }
    out
}

/// The equivalents part of the code view as markup: a caption, then one item per row
/// (library and version, language, and the code in its own scrolling box); or, while the
/// file is on its way or if it did not come or does not read, the sentence that says so.
pub fn markup(text: Option<Result<&str, &str>>, s: StrategyName, c: &ClientParams) -> Markup {
    html! { div.rll-equivalent { (content(text, s, c)) } }
}

/// What [`markup`] holds in its box: the caption, then the rows or the sentence.
pub fn content(text: Option<Result<&str, &str>>, s: StrategyName, c: &ClientParams) -> Markup {
    let failed = |why: &str| {
        html! { p.rll-caption role="alert" { "The equivalents are not shown: " (why) } }
    };
    html! {
        p.rll-caption {
            "An equivalent configuration in a library you may know (not the code that ran), \
             each checked against the version named:"
        }
        @match text.map(|t| t.map(parse)) {
            None => { p.rll-caption { "Loading the equivalents…" } }
            Some(Err(why)) => { (failed(why)) }
            Some(Ok(Err(why))) => { (failed(&why)) }
            Some(Ok(Ok(rows))) => { (list_markup(&rows, s, c)) }
        }
    }
}

/// The rows for `s` as a list, each with its code in its own scrolling box.
fn list_markup(rows: &[Equivalent], s: StrategyName, c: &ClientParams) -> Markup {
    html! {
        ul data-testid="equivalents" {
            @for r in for_strategy(rows, s) {
                li data-lang=(r.language) {
                    span.rll-lib { (r.library) }
                    span.rll-caption { (r.language) }
                    pre.rll-source tabindex="0" {
                        code {
                            @for line in fill(&r.template, c).lines() {
                                span.rll-line { (line) "\n" }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file index.html copies next to the page (`copy_is_the_file_these_tests_read`).
    const FILE: &str = include_str!("equivalents.txt");

    fn rows() -> Vec<Equivalent> {
        parse(FILE).unwrap_or_else(|e| panic!("{e}"))
    }

    fn code(s: StrategyName, library: &str, c: &ClientParams) -> String {
        let rows = rows();
        let row = for_strategy(&rows, s)
            .into_iter()
            .find(|r| r.library.starts_with(library))
            .unwrap_or_else(|| panic!("{s} has a {library} row"));
        fill(&row.template, c)
    }

    #[test]
    fn every_strategy_has_python_go_and_java_rows_each_with_a_version() {
        let rows = rows();
        for s in StrategyName::ALL {
            let langs: Vec<&str> = rows
                .iter()
                .filter(|r| r.strategy == s)
                .map(|r| r.language.as_str())
                .collect();
            for lang in ["Python", "Go", "Java"] {
                assert!(langs.contains(&lang), "{s} has a {lang} row: {langs:?}");
            }
        }
        // The JavaScript and Rust rows the view showed before stay.
        for (s, lib) in [
            (StrategyName::Naive, "Promise.all"),
            (StrategyName::Paced, "Bottleneck"),
            (StrategyName::Paced, "governor"),
            (StrategyName::Retry, "backon"),
            (StrategyName::TimeoutNoKey, "tower"),
            (StrategyName::Keyed, "stripe-node"),
            (StrategyName::Pool, "tower"),
            (StrategyName::Pool, "Bottleneck"),
            (StrategyName::Budget, "AWS SDK for JavaScript"),
            (StrategyName::Breaker, "resilience4j"),
            (StrategyName::Adaptive, "Vector"),
        ] {
            code(s, lib, &ClientParams::default());
        }
        for r in &rows {
            let version = r.library.rsplit(' ').next().unwrap_or_default();
            assert!(
                r.library.contains(' ') && version.chars().any(|ch| ch.is_ascii_digit()),
                "line {}: {}",
                r.line,
                r.library
            );
        }
    }

    #[test]
    fn every_placeholder_is_known_and_none_is_left_after_filling() {
        let c = ClientParams::default();
        for name in PLACEHOLDERS {
            assert!(value(name, &c).is_some(), "{name}");
        }
        assert!(FILE.contains("{{"), "the file uses placeholders");
        for r in rows() {
            let filled = fill(&r.template, &c);
            assert!(
                !filled.contains("{{") && !filled.contains("}}"),
                "line {}: {filled}",
                r.line
            );
        }
        assert_eq!(seconds(100_000), "0.1");
        assert_eq!(seconds(1_000_000), "1.0");
        assert_eq!(seconds(2_250_000), "2.25");
        assert_eq!(tenths(9), "0.9");
    }

    #[test]
    fn the_filled_rows_use_the_runs_numbers() {
        let d = ClientParams::default();
        let c = ClientParams {
            max_attempts: 7,
            backoff_base_us: 250_000,
            timeout_us: 2_500_000,
            pool_workers: 9,
            pacer_per_s: 50,
            ..ClientParams::default()
        };
        let cases = [
            (
                StrategyName::Retry,
                "urllib3",
                "total=6, backoff_factor=0.25",
            ),
            (StrategyName::Retry, "tenacity", "stop_after_attempt(7)"),
            (StrategyName::Retry, "go-retryablehttp", "c.RetryMax = 6"),
            (
                StrategyName::Retry,
                "go-retryablehttp",
                "250 * time.Millisecond",
            ),
            (StrategyName::Retry, "resilience4j", ".maxAttempts(7)"),
            (StrategyName::TimeoutNoKey, "urllib3", "Timeout(total=2.5)"),
            (
                StrategyName::TimeoutNoKey,
                "go-retryablehttp",
                "2500 * time.Millisecond",
            ),
            (
                StrategyName::TimeoutNoKey,
                "resilience4j",
                "Duration.ofMillis(2500)",
            ),
            (StrategyName::Pool, "urllib3", "maxsize=9"),
            (StrategyName::Pool, "resilience4j", ".maxConcurrentCalls(9)"),
            (StrategyName::Paced, "resilience4j", "Duration.ofMillis(20)"),
            (
                StrategyName::Budget,
                "botocore",
                "\"total_max_attempts\": 7",
            ),
        ];
        for (s, lib, want) in cases {
            let with_run = code(s, lib, &c);
            assert!(with_run.contains(want), "{s} {lib}: {with_run}");
            assert!(
                !code(s, lib, &d).contains(want),
                "{s} {lib} changes with the run"
            );
        }
        let vector = code(StrategyName::Adaptive, "Vector", &d);
        let a = VECTOR_ARC;
        assert!(
            vector.contains(&format!(
                "max_concurrency_limit = {}\n",
                a.max_concurrency_limit
            )) && vector.contains(&format!(
                "decrease_ratio = {}",
                tenths(u64::from(a.decrease_ratio_tenths))
            )) && vector.contains(&format!(
                "rtt_deviation_scale = {}",
                tenths(a.rtt_deviation_scale_tenths)
            )),
            "{vector}"
        );
        let breaker = code(StrategyName::Breaker, "resilience4j", &d);
        let b = SCALED_RESILIENCE4J;
        assert!(
            breaker.contains(&format!(".slidingWindowSize({})", b.window))
                && breaker.contains(&format!(
                    ".permittedNumberOfCallsInHalfOpenState({})",
                    b.probes
                )),
            "{breaker}"
        );
    }

    #[test]
    fn rows_are_ordered_by_language_and_continuations_join_lines() {
        let text = "# a comment\n\
                    retry | x 1.0 (Rust) | a\n\
                    retry | y 2.0 (Python) | b(\n\
                    >     {{attempts}})\n\
                    \n\
                    retry | z 3 (Go) | c\n\
                    naive | w 4 (Java) | d\n";
        let rows = parse(text).unwrap();
        assert_eq!(rows[1].line, 3);
        let got = for_strategy(&rows, StrategyName::Retry);
        let langs: Vec<&str> = got.iter().map(|r| r.language.as_str()).collect();
        assert_eq!(langs, ["Python", "Go", "Rust"]);
        assert_eq!(
            fill(&got[0].template, &ClientParams::default()),
            "b(\n    5)"
        );
        let html = markup(
            Some(Ok(text)),
            StrategyName::Retry,
            &ClientParams::default(),
        )
        .into_string();
        assert!(html.contains("not the code that ran"), "{html}");
        assert_eq!(html.matches("<li data-lang=").count(), 3, "{html}");
        assert!(
            html.contains("<span class=\"rll-line\">    5)\n</span>"),
            "{html}"
        );
        assert!(markup(None, StrategyName::Retry, &ClientParams::default())
            .into_string()
            .contains("Loading"));
    }

    #[test]
    fn a_malformed_line_is_named_with_its_number() {
        let cases = [
            (
                "naive | a 1 (Go) | x\nretry a 1 (Go) x\n",
                "Line 2 ",
                "is not a row",
            ),
            (
                "# c\n\nsloppy | a 1 (Go) | x\n",
                "Line 3 ",
                "'sloppy' is not a strategy",
            ),
            (
                "naive | urllib3 (Python) | x\n",
                "Line 1 ",
                "names no version",
            ),
            ("naive | urllib3 2.2 | x\n", "Line 1 ", "names no language"),
            (
                "naive | a 1 (Go) | x({{retry}})\n",
                "Line 1 ",
                "'{{retry}}' is not a number",
            ),
            (
                "naive | a 1 (Go) | x\n> y {{attempts\n",
                "Line 2 ",
                "never closed",
            ),
            ("> y\n", "Line 1 ", "continues no row"),
        ];
        for (text, line, why) in cases {
            let err = parse(text).expect_err(text);
            assert!(
                err.starts_with(line) && err.contains(why),
                "{text:?}: {err}"
            );
        }
        let html = markup(
            Some(Ok("naive | a (Go) | x")),
            StrategyName::Naive,
            &ClientParams::default(),
        )
        .into_string();
        assert!(
            html.contains("role=\"alert\">The equivalents are not shown: Line 1 of"),
            "{html}"
        );
    }

    #[test]
    fn copy_is_the_file_these_tests_read() {
        // index.html copies crates/page/src/run/equivalents.txt, the file included above, to the path
        // the code view fetches.
        let index = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../index.html"),
        )
        .expect("index.html");
        let link = index
            .lines()
            .find(|l| l.contains("rel=\"copy-file\"") && l.contains("equivalents.txt"))
            .expect("index.html copies the equivalents");
        assert!(
            link.contains("href=\"crates/page/src/run/equivalents.txt\""),
            "{link}"
        );
        let (dir, name) = EQUIVALENTS_PATH.rsplit_once('/').unwrap();
        assert_eq!(name, "equivalents.txt");
        assert!(
            link.contains(&format!("data-target-path=\"{dir}\"")),
            "{link}"
        );
        let on_disk = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/run/equivalents.txt"),
        )
        .expect("the file");
        assert_eq!(on_disk, FILE);
    }
}

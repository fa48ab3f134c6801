//! The code view's material: where each strategy's source file is, which of its lines
//! are its one change, and an equivalent configuration in a library readers know. The
//! files themselves are not compiled into the page: `index.html` copies the folder next
//! to the page (`source/strategy/`), byte for byte, and the page fetches a file when its
//! code view opens.

use super::format::duration_ms;
use super::markup::escape;
use crate::sim::strategy::pacer::Pacer;
use crate::sim::strategy::ClientParams;
use crate::sim::time::whole_ms;
use crate::sim::StrategyName;

/// The file's name, e.g. `timeout_no_key.rs`.
pub fn file_name(s: StrategyName) -> String {
    format!("{}.rs", s.as_str().replace('-', "_"))
}

/// Where the file is in the repository, e.g. `src/sim/strategy/keyed.rs`.
pub fn repo_path(s: StrategyName) -> String {
    format!("src/sim/strategy/{}", file_name(s))
}

/// Where the page finds the file, relative to the lab's own folder.
pub fn served_path(s: StrategyName) -> String {
    format!("source/strategy/{}", file_name(s))
}

/// Where the page finds the loop every strategy shares.
pub const SHARED_LOOP_PATH: &str = "source/strategy/charge.rs";

/// The shared loop's file without its tests.
pub fn without_tests(file: &str) -> &str {
    file.split("#[cfg(test)]").next().unwrap_or(file).trim_end()
}

/// A file's lines as markup, one `<span class="rll-line">` each, the changed ones
/// marked (`data-changed` says which, for readers and tests alike).
pub fn source_markup(source: &str, marks: &[bool]) -> String {
    let mut out = String::with_capacity(source.len() * 2);
    for (i, line) in source.lines().enumerate() {
        let changed = marks.get(i).copied().unwrap_or(false);
        let comment = line.trim_start().starts_with("//");
        out.push_str("<span class=\"rll-line");
        if changed {
            out.push_str(" rll-changed");
        }
        if comment {
            out.push_str(" rll-comment");
        }
        out.push_str("\" data-changed=\"");
        out.push_str(if changed { "true" } else { "false" });
        out.push_str("\">");
        out.push_str(&escape(line));
        out.push_str("\n</span>");
    }
    out
}

/// The one line the code shows while a file is on its way, or why it did not come.
pub fn pending_markup(failure: Option<&str>) -> String {
    match failure {
        None => "<span class=\"rll-line rll-comment\">// loading the file…</span>".into(),
        Some(why) => format!(
            "<span class=\"rll-line rll-comment\" role=\"alert\">// {}</span>",
            escape(why)
        ),
    }
}

/// A file's lines as markup, marked by `marks`; or, while `text` is on its way or if it
/// did not come, the one line that says so.
pub fn file_markup(
    text: Option<Result<&str, &str>>,
    marks: impl FnOnce(&str) -> Vec<bool>,
) -> String {
    match text {
        None => pending_markup(None),
        Some(Err(why)) => pending_markup(Some(why)),
        Some(Ok(source)) => source_markup(source, &marks(source)),
    }
}

/// The equivalents as list items: the library, then its configuration.
pub fn equivalents_markup(s: StrategyName, c: &ClientParams) -> String {
    equivalent(s, c)
        .into_iter()
        .map(|(lib, code)| {
            format!(
                "<li><span class=\"rll-lib\">{}</span> <code>{}</code></li>",
                escape(lib),
                escape(&code)
            )
        })
        .collect()
}

/// The code view's head as markup: which file ran and how it differs from the one
/// before, the file's lines (`text`: none yet, why it did not come, or the file), and the
/// equivalents configured with the run's numbers.
pub fn view_markup(s: StrategyName, c: &ClientParams, text: Option<Result<&str, &str>>) -> String {
    let path = repo_path(s);
    let since = s.previous().map_or(String::new(), |p| {
        format!(
            "<span>, written as {} plus one change, marked <mark class=\"rll-mark-inline\">like this</mark>.</span>",
            escape(super::titles::strategy_label(p))
        )
    });
    let lines = file_markup(text, |source| changed_lines(s, source));
    format!(
        "<p>This is the code that produced the numbers above: <code>{path}</code>{since}</p>\
         <pre class=\"rll-source\" tabindex=\"0\" aria-label=\"Strategy source code\">\
         <code data-file=\"{path}\">{lines}</code></pre>\
         <div class=\"rll-equivalent\"><p class=\"rll-caption\">An equivalent configuration in a \
         library you may know (not the code that ran):</p><ul>{}</ul></div>",
        equivalents_markup(s, c)
    )
}

/// Which lines of a strategy's file are its one change: the fields set inside
/// `ClientPlan { … }` before `..previous::plan(p)`. The first strategy changes nothing.
pub fn changed_lines(s: StrategyName, source: &str) -> Vec<bool> {
    let lines: Vec<&str> = source.lines().collect();
    let mut marks = vec![false; lines.len()];
    if s.previous().is_none() {
        return marks;
    }
    let mut inside = false;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with("ClientPlan {") {
            inside = true;
        } else if inside && t.starts_with("..") {
            break;
        } else if inside {
            marks[i] = true;
        }
    }
    marks
}

/// The backoff base for the shared loop's caption, e.g. "100 ms".
pub fn backoff_text(c: &ClientParams) -> String {
    duration_ms(whole_ms(c.backoff_base_us))
}

/// A well-known library configured the same way, as (library, code).
pub fn equivalent(s: StrategyName, c: &ClientParams) -> Vec<(&'static str, String)> {
    let gap_ms = whole_ms(Pacer::new(c.pacer_per_s.max(1)).gap_us());
    let base_ms = whole_ms(c.backoff_base_us);
    let timeout_ms = whole_ms(c.timeout_us);
    let retries = c.max_attempts.saturating_sub(1);
    match s {
        StrategyName::Naive => vec![(
            "JavaScript",
            "await Promise.all(ids.map((id) => charge(id)))".into(),
        )],
        StrategyName::Paced => vec![
            (
                "Bottleneck (Node)",
                format!("new Bottleneck({{ minTime: {gap_ms} }})"),
            ),
            (
                "governor (Rust)",
                format!(
                    "RateLimiter::direct(Quota::per_second(nonzero!({}u32)))",
                    c.pacer_per_s
                ),
            ),
        ],
        StrategyName::Retry => vec![(
            "backon (Rust)",
            format!(
                "charge.retry(ExponentialBuilder::default().with_min_delay(Duration::from_millis({base_ms})).with_max_times({retries}))"
            ),
        )],
        StrategyName::TimeoutNoKey => vec![(
            "tower (Rust)",
            format!(
                "ServiceBuilder::new().timeout(Duration::from_millis({timeout_ms})).service(charge_client)"
            ),
        )],
        StrategyName::Keyed => vec![(
            "stripe-node",
            "stripe.charges.create(params, { idempotencyKey: `ck-${id}` })".into(),
        )],
        StrategyName::Pool => vec![
            (
                "tower (Rust)",
                format!(
                    "ServiceBuilder::new().concurrency_limit({}).service(charge_client)",
                    c.pool_workers
                ),
            ),
            (
                "Bottleneck (Node)",
                format!(
                    "new Bottleneck({{ maxConcurrent: {}, minTime: {gap_ms} }})",
                    c.pool_workers
                ),
            ),
        ],
        StrategyName::Headers => vec![(
            "urllib3 (Python)",
            format!(
                "Retry(total={retries}, status_forcelist=[429, 500, 503], respect_retry_after_header=True)"
            ),
        )],
        StrategyName::Budget => vec![
            (
                "AWS SDK for JavaScript v3",
                format!("new S3Client({{ retryMode: \"standard\", maxAttempts: {} }})", c.max_attempts),
            ),
            (
                "botocore (Python)",
                format!(
                    "Config(retries={{\"mode\": \"standard\", \"max_attempts\": {}}})",
                    c.max_attempts
                ),
            ),
        ],
        StrategyName::Breaker => vec![(
            "resilience4j (Java)",
            "CircuitBreakerConfig.custom().slidingWindowType(COUNT_BASED).slidingWindowSize(20).minimumNumberOfCalls(10).failureRateThreshold(50).waitDurationInOpenState(Duration.ofSeconds(1)).permittedNumberOfCallsInHalfOpenState(3).build()".into(),
        )],
        StrategyName::Adaptive => vec![(
            "Vector (sink config, TOML)",
            "request.concurrency = \"adaptive\"\nrequest.adaptive_concurrency = { initial_concurrency = 1, max_concurrency_limit = 50, decrease_ratio = 0.9, ewma_alpha = 0.4 }".into(),
        )],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files as the core compiles them: the page fetches these very bytes.
    fn compiled(s: StrategyName) -> &'static str {
        match s {
            StrategyName::Naive => include_str!("../sim/strategy/naive.rs"),
            StrategyName::Paced => include_str!("../sim/strategy/paced.rs"),
            StrategyName::Retry => include_str!("../sim/strategy/retry.rs"),
            StrategyName::TimeoutNoKey => include_str!("../sim/strategy/timeout_no_key.rs"),
            StrategyName::Keyed => include_str!("../sim/strategy/keyed.rs"),
            StrategyName::Pool => include_str!("../sim/strategy/pool.rs"),
            StrategyName::Headers => include_str!("../sim/strategy/headers.rs"),
            StrategyName::Budget => include_str!("../sim/strategy/budget.rs"),
            StrategyName::Breaker => include_str!("../sim/strategy/breaker.rs"),
            StrategyName::Adaptive => include_str!("../sim/strategy/adaptive.rs"),
        }
    }

    #[test]
    fn each_strategy_after_the_first_marks_its_one_change_and_nothing_else() {
        for s in StrategyName::ALL {
            let source = compiled(s);
            let marks = changed_lines(s, source);
            assert_eq!(marks.len(), source.lines().count());
            let marked: Vec<&str> = source
                .lines()
                .zip(&marks)
                .filter(|(_, m)| **m)
                .map(|(l, _)| l.trim())
                .collect();
            match s.previous() {
                None => assert!(marked.is_empty(), "{s}"),
                Some(_) => {
                    assert!(!marked.is_empty(), "{s} marks its change");
                    // One change: a field or two of the plan, never the whole file.
                    assert!(marked.len() <= 6, "{s}: {marked:?}");
                    assert!(marked[0].contains(':'), "{s} starts on a field: {marked:?}");
                    assert!(
                        !marked.iter().any(|l| l.starts_with("..")),
                        "{s}: {marked:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn paths_name_the_files_the_core_compiles() {
        assert_eq!(
            repo_path(StrategyName::TimeoutNoKey),
            "src/sim/strategy/timeout_no_key.rs"
        );
        assert_eq!(served_path(StrategyName::Keyed), "source/strategy/keyed.rs");
        let with_tests = "fn a() {}\n\n#[cfg(test)]\nmod tests {}\n";
        assert_eq!(without_tests(with_tests), "fn a() {}");
    }

    #[test]
    fn the_markup_escapes_each_line_and_marks_the_changed_ones() {
        let html = source_markup("// a <b>\nlet x = a && b;", &[false, true]);
        assert_eq!(
            html,
            "<span class=\"rll-line rll-comment\" data-changed=\"false\">// a &lt;b&gt;\n</span>\
             <span class=\"rll-line rll-changed\" data-changed=\"true\">let x = a &amp;&amp; b;\n</span>"
        );
        assert!(
            pending_markup(Some("Could not load <x>.")).contains("// Could not load &lt;x&gt;.")
        );
        let c = ClientParams::default();
        let head = view_markup(
            StrategyName::Keyed,
            &c,
            Some(Ok("ClientPlan {\n    key: true,\n..")),
        );
        assert!(
            head.contains("<code data-file=\"src/sim/strategy/keyed.rs\">"),
            "{head}"
        );
        assert!(
            head.contains(", written as Timeout, no key plus one change"),
            "{head}"
        );
        assert!(
            head.contains("rll-changed\" data-changed=\"true\">    key: true,"),
            "{head}"
        );
        let naive = view_markup(StrategyName::Naive, &c, None);
        assert!(
            !naive.contains("written as") && naive.contains("loading the file"),
            "{naive}"
        );
        let eq = equivalents_markup(StrategyName::Keyed, &c);
        assert!(
            eq.starts_with("<li><span class=\"rll-lib\">stripe-node</span>"),
            "{eq}"
        );
        assert!(eq.contains("`ck-${id}`"), "{eq}");
    }

    #[test]
    fn equivalents_use_the_runs_numbers() {
        let c = ClientParams {
            pool_workers: 9,
            ..ClientParams::default()
        };
        let pool = equivalent(StrategyName::Pool, &c);
        assert!(pool[0].1.contains("concurrency_limit(9)"), "{pool:?}");
        assert_eq!(backoff_text(&c), "100 ms");
    }
}

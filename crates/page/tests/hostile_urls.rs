//! Every line of `hostile_urls.txt` is a query string a reader could paste into the
//! address bar. Each must be read without a panic, into at least one clear, short
//! sentence, and into a scenario the simulation accepts. The browser tests load the same
//! file and check the page shows those sentences.

use page::{pairs_of, parse};

const CORPUS: &str = include_str!("hostile_urls.txt");

#[test]
fn the_corpus_is_big_enough_and_shaped_like_location_search() {
    let lines: Vec<&str> = CORPUS.lines().collect();
    assert!(lines.len() >= 40, "{} lines", lines.len());
    for line in &lines {
        assert!(line.starts_with('?'), "{line}");
        assert!(
            line.bytes().all(|b| b.is_ascii_graphic()),
            "percent-encoded, as a browser shows it: {line}"
        );
    }
    assert!(lines.iter().any(|l| l.len() > 5_000), "a very long line");
}

#[test]
fn every_hostile_query_is_refused_in_short_sentences_and_still_runs() {
    for (n, line) in CORPUS.lines().enumerate() {
        let q = parse(&pairs_of(line));
        let shown = line.chars().take(80).collect::<String>();
        assert!(
            !q.base.problems.is_empty(),
            "line {}: no problem found in {shown}",
            n + 1
        );
        for p in &q.base.problems {
            assert!(
                p.chars().count() < 400,
                "line {}: a {}-character sentence: {p}",
                n + 1,
                p.chars().count()
            );
            assert!(p.ends_with('.'), "line {}: not a sentence: {p}", n + 1);
            assert!(
                !p.contains('\u{202E}') && !p.contains('\n'),
                "line {}: a control or direction mark is quoted: {p}",
                n + 1
            );
        }
        assert_eq!(
            q.base.scenario.validate(),
            Ok(()),
            "line {}: {shown}",
            n + 1
        );
        if let Some(c) = q.own.story.customer {
            assert!(c >= 1 && c <= q.base.scenario.customers, "line {}", n + 1);
        }
    }
}

#[test]
fn the_sentences_name_what_was_wrong() {
    let read = |line: &str| parse(&pairs_of(line)).base.problems;
    let first = |line: &str| read(line).remove(0);
    assert!(first("?maxInflight=-5").contains("maxInflight"));
    assert!(first("?maxInflight=-5").contains("1 to 10000 requests"));
    assert!(first("?maxInflight=-5").contains("Using the default, 10 requests."));
    assert!(first("?customers=20000000").contains("too large"));
    assert!(first("?jitterMs=20").contains("cannot exceed the latency"));
    assert!(first("?pacer=%").contains("'%' is not a number"));
    assert!(first("?workers=0").contains("Pool workers (workers)"));
    let long = first(
        CORPUS
            .lines()
            .find(|l| l.starts_with("?timeoutMs=AAAA"))
            .unwrap(),
    );
    assert!(long.contains(&format!("'{}…'", "A".repeat(40))), "{long}");
}

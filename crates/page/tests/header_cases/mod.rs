//! The header reader's table (`tests/fixtures/header_cases.txt`), loaded.

use sim::lab::LAB_EPOCH_S;

/// One case of the table.
#[derive(Debug)]
pub struct Case {
    /// Its 1-based line in the file.
    pub line: usize,
    /// The rule or source it checks.
    pub rule: String,
    /// Now, epoch seconds.
    pub now_s: u64,
    /// The header lines, as the CLI reads them.
    pub block: String,
    /// The expected wait in µs and its header, or none.
    pub expected: Option<(u64, String)>,
    /// Whether the cap applies.
    pub capped: bool,
}

/// `"1.25"` seconds as µs.
fn micros(text: &str) -> u64 {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let frac = format!("{frac:0<6}");
    int.parse::<u64>().unwrap() * 1_000_000 + frac.parse::<u64>().unwrap()
}

/// Every case of the table.
pub fn cases() -> Vec<Case> {
    let text = include_str!("../fixtures/header_cases.txt");
    let mut cases = Vec::new();
    let mut line_no = 0;
    for chunk in text.split("\n\n") {
        let start = line_no + 1;
        line_no += chunk.matches('\n').count() + 2;
        let mut rule = Vec::new();
        let mut now_s = LAB_EPOCH_S;
        let mut block = Vec::new();
        let mut expectation = None;
        for l in chunk.lines() {
            if let Some(c) = l.strip_prefix('#') {
                rule.push(c.trim().to_string());
            } else if let Some(n) = l.strip_prefix("@now ") {
                now_s = n.parse().unwrap();
            } else if let Some(e) = l.strip_prefix("= ") {
                expectation = Some(e.to_string());
            } else if !l.is_empty() {
                block.push(l);
            }
        }
        let Some(e) = expectation else {
            // The file's header comment.
            assert!(block.is_empty(), "line {start}: a case without '= …'");
            continue;
        };
        assert!(!rule.is_empty(), "line {start}: each case names its rule");
        let words: Vec<&str> = e.split(' ').collect();
        let (expected, capped) = match words[..] {
            ["none"] => (None, false),
            [s, h] => (Some((micros(s), h.to_string())), false),
            [s, h, "capped"] => (Some((micros(s), h.to_string())), true),
            _ => panic!("line {start}: bad expectation '{e}'"),
        };
        cases.push(Case {
            line: start,
            rule: rule.join(" "),
            now_s,
            block: block.join("\n"),
            expected,
            capped,
        });
    }
    cases
}

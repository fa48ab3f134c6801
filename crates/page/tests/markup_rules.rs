//! One way to write markup: maud's `html!`, which escapes every value unless it is
//! already-built markup (`Markup`). No string of the page layer's own code spells an HTML
//! tag, so no `format!` (or `concat!`, or `push_str`) can be building one. This test reads
//! the source; a file that spells a tag fails with the file and line.

use source_rules::{assert_none, crate_sources, string_literals};

/// True if `text` spells a tag: `<` and a name ended by a space, `>`, `/` or a quote's
/// escape, or `</`, or `<!`.
fn spells_a_tag(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).any(|i| {
        if b[i] != b'<' {
            return false;
        }
        match b.get(i + 1) {
            Some(b'/' | b'!') => true,
            Some(c) if c.is_ascii_alphabetic() => {
                let name_end = b[i + 1..]
                    .iter()
                    .position(|c| !c.is_ascii_alphanumeric() && *c != b'-')
                    .map_or(b.len(), |p| i + 1 + p);
                name_end == b.len() || matches!(b[name_end], b' ' | b'>' | b'/' | b'\\')
            }
            _ => false,
        }
    })
}

#[test]
fn no_string_of_the_page_layer_spells_a_tag() {
    let mut problems = Vec::new();
    for file in crate_sources(env!("CARGO_MANIFEST_DIR")) {
        if file.rel.ends_with("tests.rs") {
            continue;
        }
        let tags = string_literals(&file.text)
            .into_iter()
            .filter(|(_, s)| spells_a_tag(s));
        for (line, s) in tags {
            problems.push(format!("{}:{line} spells a tag: {s:.60}", file.rel));
        }
    }
    assert_none(&problems);
}

#[test]
fn the_check_reads_literals_and_tags() {
    let source = "let a = \"<li>\"; // \"<b>\"\nlet b = \"a < b\";\n#[cfg(test)]\nlet c = \"<p>\";";
    let found: Vec<_> = string_literals(source)
        .into_iter()
        .filter(|(_, s)| spells_a_tag(s))
        .collect();
    assert_eq!(found, [(1, "<li>".to_string())]);
    assert!(!spells_a_tag("3 < 4"));
    assert!(!spells_a_tag("{frac:0<width$}"));
    assert!(spells_a_tag("</ul>"));
    assert!(spells_a_tag("<span class"));
    assert!(spells_a_tag("<li"));
}

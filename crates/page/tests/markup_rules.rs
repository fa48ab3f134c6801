//! One way to write markup: maud's `html!`, which escapes every value unless it is
//! already-built markup (`Markup`). No string of the page layer's own code spells an HTML
//! tag, so no `format!` (or `concat!`, or `push_str`) can be building one. This test reads
//! the source; a file that spells a tag fails with the file and line.

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).expect("a directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The code of a file before its tests, and each string literal in it with its line.
fn literals(source: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let code = source.lines().take_while(|l| *l != "#[cfg(test)]");
    for (n, line) in code.enumerate() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find('"') {
            if rest.find("//").is_some_and(|c| c < start) {
                break;
            }
            let after = &rest[start + 1..];
            let mut end = None;
            let mut escaped = false;
            for (i, c) in after.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = Some(i);
                        break;
                    }
                    _ => escaped = false,
                }
            }
            let Some(end) = end else { break };
            out.push((n + 1, after[..end].to_string()));
            rest = &after[end + 1..];
        }
    }
    out
}

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
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    for file in rust_files(&root) {
        let rel = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.ends_with("tests.rs") {
            continue;
        }
        let source = fs::read_to_string(&file).expect("a source file");
        let tags: Vec<_> = literals(&source)
            .into_iter()
            .filter(|(_, s)| spells_a_tag(s))
            .collect();
        for (line, s) in tags {
            problems.push(format!("{rel}:{line} spells a tag: {s:.60}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_reads_literals_and_tags() {
    let source = "let a = \"<li>\"; // \"<b>\"\nlet b = \"a < b\";\n#[cfg(test)]\nlet c = \"<p>\";";
    let found: Vec<_> = literals(source)
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

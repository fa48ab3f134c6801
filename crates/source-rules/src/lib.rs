//! Tests only: the reading of Rust source that the rule tests share. The compiler cannot
//! see some of the rules each layer keeps (the core reads no clock, the page layer spells
//! no tag, the UI finds no node by a selector of its own), so a test in each crate reads
//! the crate's source for them; this is how they read it, written once.
//!
//! It reads lines, not a syntax tree: a comment is what follows `//` on a line, and a
//! string literal is what lies between two unescaped quotes on one line. That is enough
//! for rules about words, and each rule test checks its own reading with a sample.

use std::fs;
use std::path::{Path, PathBuf};

/// One source file of a crate: where it is, its path below `src/` with `/` between the
/// folders (what a problem names), and its text.
pub struct Source {
    pub path: PathBuf,
    pub rel: String,
    pub text: String,
}

/// Every `.rs` file under `dir`, in the order of their paths.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
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

/// Every `.rs` file of the crate at `manifest_dir` (its `CARGO_MANIFEST_DIR`) under `src/`,
/// read.
pub fn crate_sources(manifest_dir: &str) -> Vec<Source> {
    let root = Path::new(manifest_dir).join("src");
    rust_files(&root)
        .into_iter()
        .map(|path| {
            let rel = path
                .strip_prefix(&root)
                .expect("a file under src/")
                .to_string_lossy()
                .replace('\\', "/");
            let text =
                fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Source { path, rel, text }
        })
        .collect()
}

/// A line's code: the part before its first `//` (a comment is not code: a doc may say
/// what the code does not do).
pub fn code_of(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// Each `(line number, word)` where `source` names one of `words` in code, in order.
pub fn reaches(source: &str, words: &[&str]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let code = code_of(line);
        for word in words {
            if code.contains(word) {
                found.push((n + 1, (*word).to_string()));
            }
        }
    }
    found
}

/// Each string literal of the code before the file's tests (`#[cfg(test)]` on a line of
/// its own), with its line number. A `//` inside a literal stays in it; one outside ends
/// the line's code.
pub fn string_literals(source: &str) -> Vec<(usize, String)> {
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

/// Fails with every problem, one a line, if there is any.
pub fn assert_none(problems: &[String]) {
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_stops_at_a_comment() {
        let source = "let t = Instant::now();\n/// Not HashMap.\nlet x = 1; // SystemTime\n";
        assert_eq!(
            reaches(source, &["Instant::now", "HashMap", "SystemTime"]),
            [(1, "Instant::now".to_string())]
        );
    }

    #[test]
    fn literals_keep_their_escapes_and_stop_at_the_tests() {
        let source = "let a = \"x \\\"y\\\" z\"; // \"no\"\nlet b = \"http://a\";\n#[cfg(test)]\nlet c = \"no\";";
        assert_eq!(
            string_literals(source),
            [
                (1, "x \\\"y\\\" z".to_string()),
                (2, "http://a".to_string())
            ]
        );
    }

    #[test]
    fn a_crate_is_read_below_its_src() {
        let files = crate_sources(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(
            files.iter().map(|f| f.rel.as_str()).collect::<Vec<_>>(),
            ["lib.rs"]
        );
        assert!(files[0].text.contains("pub fn crate_sources"));
    }
}

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

/// Each line of the code before the file's tests (`#[cfg(test)]` on a line of its own),
/// with its number and without its comment.
pub fn code_lines(source: &str) -> impl Iterator<Item = (usize, &str)> {
    source
        .lines()
        .take_while(|l| *l != "#[cfg(test)]")
        .enumerate()
        .map(|(n, line)| (n + 1, code_of(line)))
}

/// The module depth of a file at `rel` below `src/`: `lib.rs` 0, `run/mod.rs` 1,
/// `run/stage.rs` 2. So many `super::` in a row from that file reach the crate's root.
pub fn module_depth(rel: &str) -> usize {
    let folders = rel.matches('/').count();
    if rel.ends_with("mod.rs") || rel == "lib.rs" {
        folders
    } else {
        folders + 1
    }
}

/// The first segment of each path that `code`, in a file at module depth `depth` (see
/// [`module_depth`]), names from the crate's root: after `crate::`, or after as many
/// `super::` in a row as reach the root. A group names each of its items:
/// `crate::{a::x, b::{y, z}}` gives `a` and `b`.
pub fn from_root(code: &str, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    loop {
        let at_crate = rest.find("crate::");
        let at_super = rest.find("super::");
        let (at, prefix) = match (at_crate, at_super) {
            (Some(c), Some(s)) if s < c => (s, "super::"),
            (Some(c), _) => (c, "crate::"),
            (None, Some(s)) => (s, "super::"),
            (None, None) => break,
        };
        // A word that only ends in `crate` or `super` (`my_crate::`) is not the keyword.
        let before = rest.get(..at).and_then(|b| b.chars().next_back());
        let mut after = rest.get(at + prefix.len()..).unwrap_or("");
        let is_keyword = !before.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let mut at_root = prefix == "crate::";
        if prefix == "super::" {
            let mut supers = 1;
            while let Some(next) = after.strip_prefix("super::") {
                supers += 1;
                after = next;
            }
            at_root = supers >= depth;
        }
        if is_keyword && at_root {
            out.extend(first_segments(after));
        }
        rest = after;
    }
    out
}

/// The first segment of the path at the start of `text`, or of each item of the group
/// it opens (`{a::x, b}`), brace-aware.
fn first_segments(text: &str) -> Vec<String> {
    let word = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let Some(inner) = text.strip_prefix('{') else {
        let w = word(text);
        return if w.is_empty() { vec![] } else { vec![w] };
    };
    let mut out = Vec::new();
    let mut level = 0usize;
    let mut start = 0;
    let mut end = inner.len();
    for (i, c) in inner.char_indices() {
        match c {
            '{' => level += 1,
            '}' if level == 0 => {
                end = i;
                break;
            }
            '}' => level -= 1,
            ',' if level == 0 => {
                out.push(word(inner.get(start..i).unwrap_or("")));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(word(inner.get(start..end).unwrap_or("")));
    out.retain(|w| !w.is_empty());
    out
}

/// The names a crate's root re-exports, each with the folder of `src/` it comes from:
/// `pub use site::every::{parse, AnyQuery};` gives `(parse, site)` and `(AnyQuery, site)`.
pub fn reexports(lib: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for statement in lib.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let folder = path.split("::").next().unwrap_or("").trim().to_string();
        let names = match (path.find('{'), path.rfind('}')) {
            (Some(a), Some(b)) => path.get(a + 1..b).unwrap_or("").to_string(),
            _ => path.rsplit("::").next().unwrap_or("").to_string(),
        };
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            out.push((name.to_string(), folder.clone()));
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

    #[test]
    fn paths_from_the_root_are_found_however_they_are_written() {
        let code = "use crate::run::tour::STEPS; use crate::{input::numbers::{a, b}, sweep::x};";
        assert_eq!(from_root(code, 2), ["run", "input", "sweep"]);
        assert_eq!(
            from_root("let x = super::super::limits::KNOBS;", 2),
            ["limits"]
        );
        // One `super::` from a file two deep stays in its own folder.
        assert!(from_root("use super::base::Base;", 2).is_empty());
        assert_eq!(from_root("use super::base::Base;", 1), ["base"]);
        assert!(from_root("use my_crate::run::x;", 2).is_empty());
        assert_eq!(from_root("let q = crate::parse(&p);", 2), ["parse"]);
        assert_eq!(
            (
                module_depth("lib.rs"),
                module_depth("run/mod.rs"),
                module_depth("run/stage.rs")
            ),
            (0, 1, 2)
        );
        let lib =
            "pub mod run;\npub use query::page::{Page, Speed};\npub use shared::words::shown;\n";
        assert_eq!(
            reexports(lib),
            [
                ("Page".to_string(), "query".to_string()),
                ("Speed".to_string(), "query".to_string()),
                ("shown".to_string(), "shared".to_string())
            ]
        );
        let source =
            "use crate::a;\n// crate::b\nlet x = 1; // crate::c\n#[cfg(test)]\nuse crate::d;\n";
        assert_eq!(
            code_lines(source).collect::<Vec<_>>(),
            [(1, "use crate::a;"), (2, ""), (3, "let x = 1; ")]
        );
    }
}

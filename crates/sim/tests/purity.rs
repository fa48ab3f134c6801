//! What the compiler cannot see about the core: it names no wall clock, no OS
//! randomness and no hash order, so that a run depends on its seed and nothing else. (That
//! it names no layer above it, nor anything of the browser, the compiler now enforces:
//! `crates/sim/Cargo.toml` lists serde, a seeded generator and a structured-field parser,
//! and nothing else.) This test reads the source, so a file that reaches for one fails
//! with the file and line.

use std::fs;
use std::path::{Path, PathBuf};

/// What would make a run depend on more than its seed.
const NOT_IN_SIM: &[&str] = &[
    "SystemTime",
    "Instant::now",
    "getrandom",
    "thread_rng",
    "HashMap",
    "HashSet",
];

fn rust_files(dir: &Path) -> Vec<PathBuf> {
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

/// Each `(line number, word)` where `source` names one of `forbidden` in code (comments
/// are not code: a doc may say what the core does not do).
fn reaches(source: &str, forbidden: &[&str]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        for word in forbidden {
            if code.contains(word) {
                found.push((n + 1, (*word).to_string()));
            }
        }
    }
    found
}

#[test]
fn the_core_reads_no_clock_no_os_randomness_and_no_hash_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_files(&root);
    assert!(files.len() > 20, "the core's files are under src/");
    let mut problems = Vec::new();
    for file in files {
        let source = fs::read_to_string(&file).expect("a readable source file");
        for (line, word) in reaches(&source, NOT_IN_SIM) {
            problems.push(format!("{}:{line} names {word}", file.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_finds_a_reach_in_code_but_not_in_a_comment() {
    let source = "let t = Instant::now();\n/// Not HashMap.\nlet x = 1; // SystemTime\n";
    assert_eq!(
        reaches(source, NOT_IN_SIM),
        [(1, "Instant::now".to_string())]
    );
}

#[test]
fn the_core_depends_on_what_its_manifest_allows_and_nothing_else() {
    let manifest = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("Cargo.toml");
    let deps = manifest
        .split("[dependencies]")
        .nth(1)
        .expect("a [dependencies] section")
        .split("\n[")
        .next()
        .unwrap_or("");
    let names: Vec<&str> = deps
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .collect();
    assert_eq!(names, ["rand_core", "rand_pcg", "serde", "sfv"], "{deps}");
}

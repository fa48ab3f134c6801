//! What the compiler cannot see about the core: it names no wall clock, no OS
//! randomness and no hash order, so that a run depends on its seed and nothing else. (That
//! it names no layer above it, nor anything of the browser, the compiler now enforces:
//! `crates/sim/Cargo.toml` lists serde, a seeded generator and a structured-field parser,
//! and nothing else.) This test reads the source, so a file that reaches for one fails
//! with the file and line.

use source_rules::{assert_none, crate_sources, reaches};
use std::fs;
use std::path::Path;

/// What would make a run depend on more than its seed.
const NOT_IN_SIM: &[&str] = &[
    "SystemTime",
    "Instant::now",
    "getrandom",
    "thread_rng",
    "HashMap",
    "HashSet",
];

#[test]
fn the_core_reads_no_clock_no_os_randomness_and_no_hash_order() {
    let files = crate_sources(env!("CARGO_MANIFEST_DIR"));
    assert!(files.len() > 20, "the core's files are under src/");
    let mut problems = Vec::new();
    for file in files {
        for (line, word) in reaches(&file.text, NOT_IN_SIM) {
            problems.push(format!("src/{}:{line} names {word}", file.rel));
        }
    }
    assert_none(&problems);
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

//! The core's modules (each file and folder of `src/`) form no circle: following the
//! imports from any module never leads back to it, so each can be read, and changed,
//! knowing only the modules below it. When this test was written it found four: the
//! fleet and the lab's experiments (the fleet is now the lab's own folder), the provider
//! and the stats it counts (the stats a record gives now live with the record), the
//! scenario and the parameter table (a re-export), the scenario and its traffic (a
//! constructor, now the scenario's).
//!
//! This test reads the code of every file under `src/` (not its tests), takes each import
//! of another module (`use crate::x`, a `crate::x::` path, a `crate::{x, …}` group,
//! `super::` up to the root, or a name the root re-exports), and fails with the modules of
//! any circle and the file and line of each of its imports.

use source_rules::{assert_none, code_lines, crate_sources, from_root, module_depth, reexports};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The module a file at `rel` below `src/` belongs to: its folder, or its own name.
fn module_of(rel: &str) -> &str {
    let first = rel.split('/').next().unwrap_or(rel);
    first.strip_suffix(".rs").unwrap_or(first)
}

/// For each module, the modules it imports, each with the first place (file and line) it
/// does.
type Imports = BTreeMap<String, BTreeMap<String, String>>;

fn imports(files: &[(String, String)], reexported: &[(String, String)]) -> Imports {
    let modules: BTreeSet<&str> = files.iter().map(|(rel, _)| module_of(rel)).collect();
    let mut out = Imports::new();
    for (rel, text) in files {
        let own = module_of(rel);
        for (line, code) in code_lines(text) {
            for name in from_root(code, module_depth(rel)) {
                let target = if modules.contains(name.as_str()) {
                    name
                } else if let Some((_, m)) = reexported.iter().find(|(n, _)| *n == name) {
                    m.clone()
                } else {
                    continue;
                };
                if target != own && modules.contains(target.as_str()) {
                    out.entry(own.to_string())
                        .or_default()
                        .entry(target)
                        .or_insert_with(|| format!("src/{rel}:{line}"));
                }
            }
        }
    }
    out
}

/// Every circle: each module from which a path of imports leads back to itself, with
/// that path (found depth-first, each circle once, from its smallest module).
fn circles(imports: &Imports) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for start in imports.keys() {
        // Paths from `start` through modules greater than it only, so each circle is found
        // once, from its smallest module.
        let mut stack = vec![vec![start.clone()]];
        let mut seen = BTreeSet::new();
        while let Some(path) = stack.pop() {
            let last = path.last().expect("a path is never empty");
            for next in imports.get(last).into_iter().flat_map(BTreeMap::keys) {
                if next == start {
                    found.push(path.clone());
                } else if next > start && seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push(longer);
                }
            }
        }
    }
    found
}

fn described(circle: &[String], imports: &Imports) -> String {
    let mut steps = Vec::new();
    for (i, from) in circle.iter().enumerate() {
        let to = &circle[(i + 1) % circle.len()];
        steps.push(format!("{from} → {to} ({})", imports[from][to]));
    }
    format!("a circle: {}", steps.join(", "))
}

#[test]
fn no_circle_runs_through_the_cores_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("lib.rs");
    let files: Vec<(String, String)> = crate_sources(env!("CARGO_MANIFEST_DIR"))
        .into_iter()
        .filter(|f| f.rel != "lib.rs" && !f.rel.starts_with("bin/"))
        .map(|f| (f.rel, f.text))
        .collect();
    assert!(files.len() > 30, "read {} files", files.len());
    let imports = imports(&files, &reexports(&lib));
    let problems: Vec<String> = circles(&imports)
        .iter()
        .map(|c| described(c, &imports))
        .collect();
    assert_none(&problems);
}

#[test]
fn the_check_finds_a_circle_however_its_imports_are_written() {
    let files = [
        ("world.rs", "use crate::provider::Provider;\n"),
        ("provider.rs", "let cap = crate::budget::CAP;\n"),
        (
            "budget.rs",
            "use crate::{rng::Rng, Simulation};\n#[cfg(test)]\nuse crate::stats::x;\n",
        ),
        ("rng.rs", "// crate::world is only a comment\n"),
        ("stats.rs", "use crate::rng::Rng;\n"),
        ("limiter/mod.rs", "use super::stats::Stats;\n"),
        (
            "limiter/gcra.rs",
            "use super::super::stats::Stats;\nuse super::Limiter;\n",
        ),
    ]
    .map(|(r, t)| (r.to_string(), t.to_string()));
    let reexported = reexports("pub use world::Simulation;\n");
    let found = imports(&files, &reexported);
    assert_eq!(
        circles(&found),
        [vec![
            "budget".to_string(),
            "world".into(),
            "provider".into()
        ]]
    );
    assert_eq!(found["budget"]["world"], "src/budget.rs:1");
    assert!(!found.contains_key("rng"), "a comment imports nothing");
    assert!(
        !found["budget"].contains_key("stats"),
        "a test's import is not the code's"
    );
    assert_eq!(found["limiter"].keys().collect::<Vec<_>>(), ["stats"]);
}

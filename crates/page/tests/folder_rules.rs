//! The folders of the page layer's `src/` stand in an order, and no import runs back up
//! it: a file may name its own folder and the folders below it, never one above or one
//! beside it. From the bottom:
//!
//! 1. `shared`: formats, words, markup, slots, the parameter and stat tables;
//! 2. `input`: what readers type, read;
//! 3. `query`: the URL (its base, its reading and writing, the links to a page's base);
//! 4. the pages that name no other page: `client`, `compare`, `limits`, `sweep`;
//! 5. the pages that use one of those: `headers` and `run` (the limits page's memory
//!    words and waits), `matrix` (the limits and sweep pages' links and presets);
//! 6. `site`, above every page: every page's keys, titles and command lines, the
//!    section tabs.
//!
//! This test reads the code of every file under `src/` (not its tests: a test may read a
//! link back through the whole site) and fails with the file and line of an import
//! (`use crate::x`, a `crate::x::` path, a `crate::{x, …}` group, `super::` up to the
//! root) that names a folder at its own step or above, other than its own. A name the
//! root re-exports counts as its folder's. A folder added to `src/` fails until it is
//! placed in [`ORDER`].

use source_rules::{assert_none, code_lines, crate_sources, from_root, module_depth, reexports};
use std::path::Path;

/// The folders of `src/`, a step at a time from the bottom.
const ORDER: [&[&str]; 6] = [
    &["shared"],
    &["input"],
    &["query"],
    &["client", "compare", "limits", "sweep"],
    &["headers", "matrix", "run"],
    &["site"],
];

/// The step of `folder` in [`ORDER`].
fn step(folder: &str) -> Option<usize> {
    ORDER.iter().position(|step| step.contains(&folder))
}

/// Each `(line, folder)` where `source`, the file at `rel` below `src/`, names a folder
/// it may not: one at its own folder's step or above, other than its own.
fn imports_up(rel: &str, source: &str, reexported: &[(String, String)]) -> Vec<(usize, String)> {
    let own = rel.split('/').next().unwrap_or("");
    let Some(own_step) = step(own) else {
        return Vec::new();
    };
    let depth = module_depth(rel);
    let mut found = Vec::new();
    for (line, code) in code_lines(source) {
        for name in from_root(code, depth) {
            let folder = if step(&name).is_some() {
                name
            } else if let Some((_, folder)) = reexported.iter().find(|(n, _)| *n == name) {
                folder.clone()
            } else {
                continue;
            };
            if folder != own && step(&folder).is_some_and(|s| s >= own_step) {
                found.push((line, folder));
            }
        }
    }
    found
}

#[test]
fn no_import_runs_back_up_the_folders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("lib.rs");
    let reexported = reexports(&lib);
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(root.join("src")).expect("src/") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        if let Some(name) = name.filter(|n| path.is_dir() && n != "bin") {
            if step(&name).is_none() {
                problems.push(format!(
                    "src/{name}/ has no step in folder_rules.rs's ORDER"
                ));
            }
        }
    }
    let mut files = 0;
    for file in crate_sources(env!("CARGO_MANIFEST_DIR")) {
        // `lib.rs` is the root, and each file of `bin/` a crate of its own.
        if !file.rel.contains('/') || file.rel.starts_with("bin/") {
            continue;
        }
        files += 1;
        let own = file.rel.split('/').next().unwrap_or("");
        for (line, folder) in imports_up(&file.rel, &file.text, &reexported) {
            problems.push(format!(
                "src/{}:{line} names '{folder}', which does not stand below '{own}' (tests/folder_rules.rs)",
                file.rel
            ));
        }
    }
    assert!(files > 100, "read {files} files");
    assert_none(&problems);
}

#[test]
fn the_check_finds_an_import_however_it_is_written() {
    let reexported =
        reexports("pub use site::every::{parse, AnyQuery};\npub use shared::words::shown;\n");
    let source = "use crate::run::tour::STEPS;\n\
                  use crate::{input::numbers::parse_seed, sweep::{param_sweep, query}};\n\
                  let x = super::super::limits::settings::KNOBS.len();\n\
                  use crate::shared::params::PARAMS; // crate::run is only a comment\n\
                  let q = crate::parse(&pairs);\n\
                  use super::base::Base;\n\
                  let t = crate::shown(\"x\");\n\
                  use crate::compare::explore::read_form;\n\
                  #[cfg(test)]\n\
                  use crate::site::keys::link::page;\n";
    // From the sweep page: `run` above, `sweep` its own, `limits` and `compare` beside it,
    // `site` above; `input`, `shared` below.
    assert_eq!(
        imports_up("sweep/views.rs", source, &reexported),
        [
            (1, "run".to_string()),
            (3, "limits".to_string()),
            (5, "site".to_string()),
            (8, "compare".to_string())
        ]
    );
    // From `shared`, everything but itself is above.
    assert_eq!(
        imports_up("shared/format.rs", source, &reexported)
            .into_iter()
            .map(|(line, _)| line)
            .collect::<Vec<_>>(),
        [1, 2, 2, 3, 5, 8]
    );
}

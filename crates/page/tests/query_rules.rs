//! The URL layer (`src/query/`) names no page: every page reads the base it defines and
//! adds its own families of keys from its own folder, so an import from `query` into a
//! page's folder would run back up. This test reads the source; a file of `query` that
//! names a page's folder fails with the file and line.
//!
//! What `query` may name: itself and the folders below it, `shared` and `input`. Every
//! other folder of `src/` is a page's (or `site`, above them all), including any folder
//! added later. A name the crate's root re-exports from such a folder counts as that
//! folder's.

use source_rules::{assert_none, code_of, crate_sources, from_root, module_depth, reexports};
use std::path::Path;

/// The folders of `src/` that `query` may name.
const BELOW: [&str; 3] = ["query", "shared", "input"];

/// The folders of `src/` that `query` may not name.
fn pages() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out: Vec<String> = std::fs::read_dir(&src)
        .expect("src/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_dir())
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|name| name != "bin" && !BELOW.contains(&name.as_str()))
        .collect();
    out.sort();
    out
}

/// The names `lib.rs` re-exports from one of `pages`, e.g. `parse` from
/// `pub use site::every::{parse, AnyQuery};`.
fn reexported(lib: &str, pages: &[String]) -> Vec<(String, String)> {
    reexports(lib)
        .into_iter()
        .filter(|(_, folder)| pages.contains(folder))
        .collect()
}

/// Each `(line, folder)` where `source`, a file at module depth `depth`, names one of
/// `pages`, directly or by a name the root re-exports from it.
fn imports_of_pages(
    source: &str,
    depth: usize,
    pages: &[String],
    reexports: &[(String, String)],
) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in source.lines().enumerate() {
        for name in from_root(code_of(line), depth) {
            let folder = if pages.contains(&name) {
                Some(name)
            } else {
                reexports
                    .iter()
                    .find(|(reexport, _)| *reexport == name)
                    .map(|(_, folder)| folder.clone())
            };
            if let Some(folder) = folder {
                found.push((n + 1, folder));
            }
        }
    }
    found
}

#[test]
fn the_url_layer_names_no_page() {
    let pages = pages();
    assert!(pages.iter().any(|p| p == "run"), "{pages:?}");
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("lib.rs");
    let reexports = reexported(&lib, &pages);
    let mut problems = Vec::new();
    let mut files = 0;
    for file in crate_sources(env!("CARGO_MANIFEST_DIR")) {
        if !file.rel.starts_with("query/") {
            continue;
        }
        files += 1;
        for (line, folder) in
            imports_of_pages(&file.text, module_depth(&file.rel), &pages, &reexports)
        {
            problems.push(format!(
                "src/{}:{line} names the page folder '{folder}': the URL layer may name only {BELOW:?}",
                file.rel
            ));
        }
    }
    assert!(files >= 4, "read {files} files of src/query/");
    assert_none(&problems);
}

#[test]
fn the_check_finds_an_import_however_it_is_written() {
    let pages: Vec<String> = ["run", "sweep", "limits", "site"]
        .map(String::from)
        .to_vec();
    let lib = "pub use query::page::{Page, Speed};\npub use site::every::{parse, AnyQuery};\n";
    let reexports = reexported(lib, &pages);
    assert_eq!(
        reexports,
        [
            ("parse".to_string(), "site".to_string()),
            ("AnyQuery".to_string(), "site".to_string())
        ]
    );
    let source = "use crate::run::tour::STEPS;\n\
                  use crate::{input::numbers::shown, sweep::param_sweep};\n\
                  let x = super::super::limits::settings::KNOBS.len();\n\
                  use crate::shared::params::PARAMS; // crate::run is only a comment\n\
                  let q = crate::parse(&pairs);\n\
                  use super::base::Base;\n";
    assert_eq!(
        imports_of_pages(source, 2, &pages, &reexports),
        [
            (1, "run".to_string()),
            (2, "sweep".to_string()),
            (3, "limits".to_string()),
            (5, "site".to_string())
        ]
    );
}

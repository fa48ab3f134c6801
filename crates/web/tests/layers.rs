//! The three layers import in one direction only: `src/sim` (the pure core) names neither
//! the page layer nor the UI nor anything of the browser, and `src/page` (the pure page
//! layer) names nothing of the UI or the browser. This test reads the source, so a file
//! that reaches outward fails the build's tests, with the file and line.

use std::fs;
use std::path::{Path, PathBuf};

/// What the core must never name: the layers above it, the browser, and anything that
/// would make a run depend on more than its seed (the wall clock, OS randomness, hash
/// order).
const NOT_IN_SIM: &[&str] = &[
    "crate::page",
    "crate::ui",
    "super::super::page",
    "rate_limit_lab::page",
    "leptos",
    "web_sys",
    "js_sys",
    "wasm_bindgen",
    "SystemTime",
    "Instant::now",
    "getrandom",
    "thread_rng",
    "HashMap",
    "HashSet",
];

/// What the page layer must never name: the UI and the browser.
const NOT_IN_PAGE: &[&str] = &["crate::ui", "leptos", "web_sys", "js_sys", "wasm_bindgen"];

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

fn check_layer(dir: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let files = rust_files(&root);
    assert!(files.len() > 5, "{dir} holds the layer's files");
    let mut problems = Vec::new();
    for file in files {
        let source = fs::read_to_string(&file).expect("a readable source file");
        for (line, word) in reaches(&source, forbidden) {
            problems.push(format!("{}:{line} names {word}", file.display()));
        }
    }
    problems
}

#[test]
fn the_core_names_no_layer_above_it_nor_the_browser() {
    let problems = check_layer("src/sim", NOT_IN_SIM);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_page_layer_names_no_ui_nor_the_browser() {
    let problems = check_layer("src/page", NOT_IN_PAGE);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_check_finds_a_reach_in_code_but_not_in_a_comment() {
    let source = "use crate::page::format::count;\n/// Not crate::page.\nlet x = 1; // leptos\n";
    assert_eq!(
        reaches(source, NOT_IN_SIM),
        [(1, "crate::page".to_string())]
    );
    let source = "use leptos::prelude::*;\nuse web_sys::Window;\n";
    assert_eq!(
        reaches(source, NOT_IN_PAGE),
        [(1, "leptos".to_string()), (2, "web_sys".to_string())]
    );
}

#[test]
fn the_core_and_the_page_layer_build_without_the_browser_crates() {
    // Cargo.toml keeps leptos, web-sys, js-sys and wasm-bindgen under the wasm32 target,
    // so a native build of the core and the page layer (these very tests) cannot use them.
    let manifest = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("Cargo.toml");
    let wasm_section = manifest
        .find("[target.'cfg(target_arch = \"wasm32\")'.dependencies]")
        .expect("a wasm32-only dependency section");
    for browser_crate in ["leptos", "web-sys", "js-sys", "wasm-bindgen"] {
        let at = manifest
            .find(&format!("\n{browser_crate} ="))
            .unwrap_or_else(|| panic!("{browser_crate} is a dependency"));
        assert!(at > wasm_section, "{browser_crate} is wasm32-only");
    }
}

/// The UI reaches Leptos' generic effect and listener machinery only through
/// `ui::erase` (`watch`, `handler`): an `Effect::new` or an `on:` handler given a bare
/// closure brings its own copy of that machinery into the page's module (README,
/// "`.wasm` sizes").
#[test]
fn the_ui_makes_effects_and_listeners_only_through_erase() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut problems = Vec::new();
    for file in rust_files(&root) {
        if file.ends_with("erase.rs") {
            continue;
        }
        let source = fs::read_to_string(&file).expect("a readable source file");
        for (line, word) in reaches(&source, &["Effect::new"]) {
            problems.push(format!("{}:{line} names {word}", file.display()));
        }
        for (n, text) in source.lines().enumerate() {
            let code = text.split("//").next().unwrap_or("");
            for (i, _) in code.match_indices("on:") {
                let rest = &code[i + 3..];
                let Some(eq) = rest.find('=') else { continue };
                let (event, value) = (&rest[..eq], &rest[eq + 1..]);
                let is_attribute =
                    !event.is_empty() && event.chars().all(|c| c.is_ascii_lowercase() || c == ':');
                if is_attribute && !value.starts_with("handler(") {
                    problems.push(format!(
                        "{}:{} gives on:{event} a bare closure",
                        file.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

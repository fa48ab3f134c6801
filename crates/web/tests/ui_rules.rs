//! Rules of the UI that the compiler cannot see. (That the UI reaches the core and the
//! page layer only, and that they never reach it, is the workspace's: `crates/web` is the
//! only crate that depends on Leptos and web-sys, and nothing depends on it.)

use source_rules::{assert_none, code_of, crate_sources, reaches};

/// The UI reaches Leptos' generic effect and listener machinery only through
/// `ui::erase` (`watch`, `handler`): an `Effect::new` or an `on:` handler given a bare
/// closure brings its own copy of that machinery into the page's module (docs/sizes-and-speeds.md,
/// "Techniques").
#[test]
fn the_ui_makes_effects_and_listeners_only_through_erase() {
    let mut problems = Vec::new();
    for file in crate_sources(env!("CARGO_MANIFEST_DIR")) {
        if file.rel.ends_with("erase.rs") {
            continue;
        }
        for (line, word) in reaches(&file.text, &["Effect::new"]) {
            problems.push(format!("{}:{line} names {word}", file.rel));
        }
        for (n, line) in file.text.lines().enumerate() {
            let code = code_of(line);
            for (i, _) in code.match_indices("on:") {
                let rest = &code[i + 3..];
                let Some(eq) = rest.find('=') else { continue };
                let (event, value) = (&rest[..eq], &rest[eq + 1..]);
                let is_attribute =
                    !event.is_empty() && event.chars().all(|c| c.is_ascii_lowercase() || c == ':');
                if is_attribute && !value.starts_with("handler(") {
                    problems.push(format!(
                        "{}:{} gives on:{event} a bare closure",
                        file.rel,
                        n + 1
                    ));
                }
            }
        }
    }
    assert_none(&problems);
}

/// Where the UI finds a node by a string of its own: a DOM lookup by selector, a
/// selector-shaped literal, a `data-` attribute read by name, or a test id.
fn finds_by_selector(source: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, text) in source.lines().enumerate() {
        let code = code_of(text);
        for call in [
            ".query_selector(",
            ".query_selector_all(",
            ".closest(",
            ".matches(\"",
        ] {
            if code.contains(call) {
                found.push((n + 1, call.to_string()));
            }
        }
        for pattern in ["\"[", "\"#rll", "\".rll", "get_attribute(\"data-"] {
            if code.contains(pattern) {
                found.push((n + 1, pattern.to_string()));
            }
        }
    }
    found
}

/// The UI finds every node it binds by the slot the page layer's markup named it with
/// (`shared::bind`), never by a selector of its own, and never by a test id.
#[test]
fn the_ui_finds_nodes_by_their_slots_only() {
    let mut problems = Vec::new();
    for file in crate_sources(env!("CARGO_MANIFEST_DIR")) {
        // The two binding mechanisms: slots bound by hand, and live widgets.
        if file.rel == "shared/bind.rs" || file.rel == "shared/live.rs" {
            continue;
        }
        for (line, what) in finds_by_selector(&file.text) {
            problems.push(format!("{}:{line} finds a node by {what}", file.rel));
        }
    }
    assert_none(&problems);
}

#[test]
fn the_selector_check_finds_lookups_but_not_comments() {
    let source = "let a = root.query_selector(\"[data-x]\");\n// el.closest(\"button\")\nlet b = bind::find(&r, SLOT);\n";
    let found = finds_by_selector(source);
    assert_eq!(found.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [1, 1]);
}

/// Each `(line number, field)` of `source` that is a public field holding a signal or a
/// stored value.
fn public_state(source: &str) -> Vec<(usize, String)> {
    let kinds = ["RwSignal<", "ReadSignal<", "WriteSignal<", "StoredValue<"];
    source
        .lines()
        .enumerate()
        .filter_map(|(n, line)| {
            let field = line.trim_start().strip_prefix("pub ")?;
            let (name, ty) = field.split_once(':')?;
            let plain = name.chars().all(|c| c.is_ascii_lowercase() || c == '_');
            (plain && kinds.iter().any(|k| ty.trim_start().starts_with(k)))
                .then(|| (n + 1, name.to_string()))
        })
        .collect()
}

/// State has one owner: a struct of the UI keeps its signals private and is read and
/// changed through its methods (`RunState`, `Playback`, `ClientRun`), never written
/// field by field from other files.
#[test]
fn the_ui_keeps_its_state_behind_methods() {
    let mut problems = Vec::new();
    for file in crate_sources(env!("CARGO_MANIFEST_DIR")) {
        for (line, field) in public_state(&file.text) {
            problems.push(format!("{}:{line} makes `{field}` public", file.rel));
        }
    }
    assert_none(&problems);
}

#[test]
fn the_state_check_finds_public_signals_but_not_private_ones() {
    let source = "pub struct S {\n    pub state: RwSignal<u8>,\n    note: RwSignal<u8>,\n    pub seed: u64,\n    pub kept: StoredValue<Vec<u8>>,\n}\n";
    let lines: Vec<usize> = public_state(source).iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [2, 5]);
}

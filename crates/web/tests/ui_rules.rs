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

/// The browser's calls that write a node: markup poured, a text, an attribute, a class.
const DOM_CALLS: [&str; 7] = [
    ".set_inner_html(",
    ".set_text_content(",
    ".set_attribute(",
    ".remove_attribute(",
    ".toggle_attribute",
    ".class_list(",
    ".set_node_value(",
];

/// The UI's own hand writes: one effect per node (`bind::node`) and the helpers of
/// `shared::dom` that write (called, not defined, and not a method of another type such
/// as `StoredValue::set_value`).
const HAND_WRITES: [&str; 6] = [
    "bind::node(",
    "set_text(",
    "set_attr(",
    "set_class(",
    "set_flag(",
    "set_value(",
];

/// Each `(line, what)` of `source` that writes the DOM by hand.
fn dom_writes(source: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, text) in source.lines().enumerate() {
        let code = code_of(text);
        for call in DOM_CALLS {
            if code.contains(call) {
                found.push((n + 1, call.to_string()));
            }
        }
        for call in HAND_WRITES {
            let bare = code.match_indices(call).any(|(i, _)| {
                let before = &code[..i];
                !before.ends_with(|c: char| c == '.' || c == '_' || c.is_ascii_alphanumeric())
                    && !before.ends_with("fn ")
            });
            if bare {
                found.push((n + 1, call.to_string()));
            }
        }
    }
    found
}

/// The files of the UI that write the DOM other than through `shared::live`, and why.
/// The first ones write nodes that are not the page layer's markup; the last two take
/// over, in place, the opening the bare address's file paints (docs/architecture.md,
/// "Drawing").
const WRITERS: [(&str, &str); 13] = [
    (
        "shared/live.rs",
        "the one mechanism that fills live widgets",
    ),
    ("shared/dom.rs", "the write helpers the files below call"),
    (
        "client/code_editor.rs",
        "the editor's text area, handed over to CodeMirror",
    ),
    (
        "client/sandbox_frame.rs",
        "the sandbox's frame, made with its security attributes",
    ),
    (
        "embed/host.rs",
        "the stylesheet link in a widget's shadow root, in a blog's page",
    ),
    (
        "run/run_timeline.rs",
        "the timeline's figure and canvas, Leptos elements (bound in view!, +4.2 KB)",
    ),
    (
        "run/customer_grid.rs",
        "the grid's canvas, a Leptos element (bound in view!, +4.3 KB)",
    ),
    (
        "shared/frame.rs",
        "the page's root, whose children are Leptos views",
    ),
    (
        "run/run_page.rs",
        "the document's root element, outside every view",
    ),
    (
        "run/run_view.rs",
        "the document's root element, outside every view",
    ),
    (
        "compare/compare_view.rs",
        "the view's root and the small timelines' box, which hold Leptos views",
    ),
    (
        "run/opening_player.rs",
        "the nodes the bare address's file paints, taken over in place by its small player module (the live mechanism there measured +3.3 KB, a tenth of it)",
    ),
    (
        "run/opening_story.rs",
        "the same painted section, moved as it stands (playing or not) into the run page",
    ),
];

/// A widget's markup and what changes in it are one live widget of the page layer,
/// bound by `shared::live::view`: no other file of the UI writes the DOM by hand, except
/// the ones `WRITERS` names with a reason. Each of those must still write, so the list
/// shrinks as files move to live widgets and cannot go stale.
#[test]
fn the_ui_writes_the_dom_only_through_live_widgets() {
    let mut problems = Vec::new();
    let sources = crate_sources(env!("CARGO_MANIFEST_DIR"));
    for file in &sources {
        let writes = dom_writes(&file.text);
        let listed = WRITERS.iter().any(|(f, _)| file.rel == *f);
        if listed && writes.is_empty() {
            problems.push(format!(
                "{} is listed as a writer but writes nothing",
                file.rel
            ));
        }
        if !listed {
            for (line, what) in writes {
                problems.push(format!(
                    "{}:{line} writes the DOM by hand ({what})",
                    file.rel
                ));
            }
        }
    }
    for (f, _) in WRITERS {
        if !sources.iter().any(|s| s.rel == f) {
            problems.push(format!("{f} is listed as a writer but does not exist"));
        }
    }
    assert_none(&problems);
}

#[test]
fn the_dom_write_check_finds_writes_but_not_comments_or_other_types() {
    let source = "el.set_inner_html(&m);\n// el.set_attribute(\"x\", \"y\")\nheld.set_value(None);\nbind::node(card, SLOT, f);\nset_flag(&el, \"hidden\", true);\neditor.set_text(&t);\nfn set_text(&self) {}\n";
    let lines: Vec<usize> = dom_writes(source).iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [1, 4, 5]);
}

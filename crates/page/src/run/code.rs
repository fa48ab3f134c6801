//! The code view's material: where each strategy's source file is, which of its lines
//! are its one change, and where the equivalents in other libraries are shown. The
//! files themselves are not compiled into the page: `index.html` copies the folder next
//! to the page (`source/strategy/`), byte for byte, and the page fetches a file when its
//! code view opens. The equivalents in other libraries are in a data file beside them
//! (`crate::run::equivalents`). The view's head is markup ([`view_markup`]), each line
//! of a file its own element.

use crate::shared::cut::around;
use crate::shared::format::duration_ms;
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::shared::titles::strategy_label;
use crate::slot;
use maud::{html, Markup};
use sim::strategy::ClientParams;
use sim::time::whole_ms;
use sim::StrategyName;

/// The file's name, e.g. `timeout_no_key.rs`.
pub fn file_name(s: StrategyName) -> String {
    format!("{}.rs", s.as_str().replace('-', "_"))
}

/// Where the file is in the repository, e.g. `crates/sim/src/strategy/keyed.rs`.
pub fn repo_path(s: StrategyName) -> String {
    format!("crates/sim/src/strategy/{}", file_name(s))
}

/// Where the page finds the file, relative to the lab's own folder.
pub fn served_path(s: StrategyName) -> String {
    format!("source/strategy/{}", file_name(s))
}

/// Where the page finds the loop every strategy shares.
pub const SHARED_LOOP_PATH: &str = "source/strategy/charge.rs";

/// The shared loop's file without its tests.
pub fn without_tests(file: &str) -> &str {
    around(file, "#[cfg(test)]")
        .map_or(file, |(code, _)| code)
        .trim_end()
}

/// A file's lines as markup, one `<span class="rll-line">` each, the changed ones
/// marked (`data-changed` says which, for readers and tests alike).
pub fn source_markup(source: &str, marks: &[bool]) -> Markup {
    html! {
        @for (i, line) in source.lines().enumerate() {
            @let changed = marks.get(i).copied().unwrap_or(false);
            @let comment = line.trim_start().starts_with("//");
            span.rll-line.rll-changed[changed].rll-comment[comment] data-changed=(changed) { (line) "\n" }
        }
    }
}

/// The one line the code shows while a file is on its way, or why it did not come.
pub fn pending_markup(failure: Option<&str>) -> Markup {
    html! {
        @match failure {
            None => { span.rll-line.rll-comment { "// loading the file…" } }
            Some(why) => { span.rll-line.rll-comment role="alert" { "// " (why) } }
        }
    }
}

/// A file's lines as markup, marked by `marks`; or, while `text` is on its way or if it
/// did not come, the one line that says so.
pub fn file_markup(
    text: Option<Result<&str, &str>>,
    marks: impl FnOnce(&str) -> Vec<bool>,
) -> Markup {
    match text {
        None => pending_markup(None),
        Some(Err(why)) => pending_markup(Some(why)),
        Some(Ok(source)) => source_markup(source, &marks(source)),
    }
}

/// The code view's head as markup: which file ran and how it differs from the one
/// before, the file's lines (`text`: none yet, why it did not come, or the file), and the
/// equivalents (`equivalents`: the fetched file, likewise) configured with the run's
/// numbers.
pub fn view_markup(
    s: StrategyName,
    c: &ClientParams,
    text: Option<Result<&str, &str>>,
    equivalents: Option<Result<&str, &str>>,
) -> Markup {
    draw_head(&mut Fill::default(), s, c, text, equivalents)
}

/// Which file ran and how it differs from the one before.
fn intro_markup(s: StrategyName) -> Markup {
    html! {
        "This is the code that produced the numbers above: " code { (repo_path(s)) }
        @if let Some(p) = s.previous() {
            span {
                ", written as " (strategy_label(p)) " plus one change, marked "
                mark.rll-mark-inline { "like this" } "."
            }
        }
    }
}

/// The code view's head, its live parts recorded in `fill`.
fn draw_head(
    fill: &mut Fill,
    s: StrategyName,
    c: &ClientParams,
    text: Option<Result<&str, &str>>,
    equivalents: Option<Result<&str, &str>>,
) -> Markup {
    html! {
        p data-slot=(INTRO) { (fill.markup(INTRO, intro_markup(s))) }
        pre.rll-source tabindex="0" aria-label="Strategy source code" {
            code data-file=[fill.data(FILE, "data-file", Some(repo_path(s)))] data-slot=(FILE) {
                (fill.markup(FILE, file_markup(text, |source| changed_lines(s, source))))
            }
        }
        div.rll-equivalent data-slot=(EQUIVALENTS) {
            (fill.markup(EQUIVALENTS, crate::run::equivalents::content(equivalents, s, c)))
        }
    }
}

/// The code view's sentence on which file ran.
pub const INTRO: Slot = slot!("code-intro");
/// The strategy's file, its lines written again only when the file or the strategy
/// changes (so a change of the numbers leaves them, and a reader's scroll, alone).
pub const FILE: Slot = slot!("code-file");
/// The equivalents, written again when the strategy, the numbers or the file change.
pub const EQUIVALENTS: Slot = slot!("code-equivalents");
/// The shared loop's caption.
pub const CAPTION: Slot = slot!("code-caption");
/// The shared loop's lines.
pub const SHARED: Slot = slot!("code-shared");

/// A fetched file: none yet, its text, or why it did not come.
pub type Fetched = Option<Result<String, String>>;

/// What the code view shows: the strategy and its numbers, and the files fetched so far.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeState {
    /// The strategy whose file is shown.
    pub strategy: StrategyName,
    /// The numbers the equivalents and the caption quote.
    pub client: ClientParams,
    /// The strategy's file.
    pub file: Fetched,
    /// The equivalents' file.
    pub equivalents: Fetched,
    /// The shared loop's file (fetched when its part is first opened).
    pub shared: Fetched,
}

/// A fetched file as the markup reads it.
fn as_str(f: &Fetched) -> Option<Result<&str, &str>> {
    f.as_ref().map(|t| t.as_deref().map_err(String::as_str))
}

/// The code view ([`Live`]): the head ([`view_markup`]), then the shared loop, closed
/// until the reader opens it. Its nodes stay; each part is written as markup, and only
/// when it differs from what is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeView;

impl Live for CodeView {
    type State = CodeState;

    fn shape(&self, _: &CodeState) -> u64 {
        0
    }

    fn draw(&self, st: &CodeState, fill: &mut Fill) -> Markup {
        let shared = as_str(&st.shared).map(|t| t.map(without_tests));
        html! {
            div { (draw_head(fill, st.strategy, &st.client, as_str(&st.file), as_str(&st.equivalents))) }
            details.rll-details {
                summary data-slot=(CAPTION) { (fill.markup(CAPTION, shared_loop_caption(&st.client))) }
                pre.rll-source tabindex="0" {
                    code data-slot=(SHARED) { (fill.markup(SHARED, file_markup(shared, |_| Vec::new()))) }
                }
            }
        }
    }
}

/// Which lines of a strategy's file are its one change: the fields set inside
/// `ClientPlan { … }` before `..previous::plan(p)`. The first strategy changes nothing.
pub fn changed_lines(s: StrategyName, source: &str) -> Vec<bool> {
    let lines: Vec<&str> = source.lines().collect();
    let mut marks = vec![false; lines.len()];
    if s.previous().is_none() {
        return marks;
    }
    let mut inside = false;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with("ClientPlan {") {
            inside = true;
        } else if inside && t.starts_with("..") {
            break;
        } else if inside {
            marks[i] = true;
        }
    }
    marks
}

/// The backoff base for the shared loop's caption, e.g. "100 ms".
pub fn backoff_text(c: &ClientParams) -> String {
    duration_ms(whole_ms(c.backoff_base_us))
}

/// The shared loop's caption, as markup, with the run's backoff base.
pub fn shared_loop_caption(c: &ClientParams) -> Markup {
    html! {
        "The loop every strategy shares (crates/sim/src/strategy/charge.rs): take a turn, send, back off "
        (backoff_text(c)) " · 2^(k−1)"
    }
}

/// What the code view says when a file it fetched from `url` did not come: the server's
/// `status`, if it answered.
pub fn could_not_load(url: &str, status: Option<u16>) -> String {
    match status {
        None => format!("Could not load {url}."),
        Some(status) => format!("Could not load {url}. (HTTP {status})"),
    }
}

/// The heading of the run page's code section.
pub const CODE_TITLE: &str = "The code that ran";

#[cfg(test)]
mod tests {
    use super::*;

    /// The files as the core compiles them: the page fetches these very bytes.
    fn compiled(s: StrategyName) -> &'static str {
        match s {
            StrategyName::Naive => include_str!("../../../sim/src/strategy/naive.rs"),
            StrategyName::Paced => include_str!("../../../sim/src/strategy/paced.rs"),
            StrategyName::Retry => include_str!("../../../sim/src/strategy/retry.rs"),
            StrategyName::TimeoutNoKey => {
                include_str!("../../../sim/src/strategy/timeout_no_key.rs")
            }
            StrategyName::Keyed => include_str!("../../../sim/src/strategy/keyed.rs"),
            StrategyName::Pool => include_str!("../../../sim/src/strategy/pool.rs"),
            StrategyName::Headers => include_str!("../../../sim/src/strategy/headers.rs"),
            StrategyName::Budget => include_str!("../../../sim/src/strategy/budget.rs"),
            StrategyName::Breaker => include_str!("../../../sim/src/strategy/breaker.rs"),
            StrategyName::Adaptive => include_str!("../../../sim/src/strategy/adaptive.rs"),
        }
    }

    #[test]
    fn each_strategy_after_the_first_marks_its_one_change_and_nothing_else() {
        for s in StrategyName::ALL {
            let source = compiled(s);
            let marks = changed_lines(s, source);
            assert_eq!(marks.len(), source.lines().count());
            let marked: Vec<&str> = source
                .lines()
                .zip(&marks)
                .filter(|(_, m)| **m)
                .map(|(l, _)| l.trim())
                .collect();
            match s.previous() {
                None => assert!(marked.is_empty(), "{s}"),
                Some(_) => {
                    assert!(!marked.is_empty(), "{s} marks its change");
                    // One change: a field or two of the plan, never the whole file.
                    assert!(marked.len() <= 6, "{s}: {marked:?}");
                    assert!(marked[0].contains(':'), "{s} starts on a field: {marked:?}");
                    assert!(
                        !marked.iter().any(|l| l.starts_with("..")),
                        "{s}: {marked:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn paths_name_the_files_the_core_compiles() {
        assert_eq!(
            repo_path(StrategyName::TimeoutNoKey),
            "crates/sim/src/strategy/timeout_no_key.rs"
        );
        assert_eq!(served_path(StrategyName::Keyed), "source/strategy/keyed.rs");
        let with_tests = "fn a() {}\n\n#[cfg(test)]\nmod tests {}\n";
        assert_eq!(without_tests(with_tests), "fn a() {}");
    }

    #[test]
    fn the_markup_escapes_each_line_and_marks_the_changed_ones() {
        let html = source_markup("// a <b>\nlet x = a && b;", &[false, true]).into_string();
        assert_eq!(
            html,
            "<span class=\"rll-line rll-comment\" data-changed=\"false\">// a &lt;b&gt;\n</span>\
             <span class=\"rll-line rll-changed\" data-changed=\"true\">let x = a &amp;&amp; b;\n</span>"
        );
        assert!(pending_markup(Some("Could not load <x>."))
            .into_string()
            .contains("// Could not load &lt;x&gt;."));
        let c = ClientParams::default();
        let head = view_markup(
            StrategyName::Keyed,
            &c,
            Some(Ok("ClientPlan {\n    key: true,\n..")),
            Some(Ok("keyed | lib 1.0 (Go) | key := \"ck-\" + id // <once>")),
        )
        .into_string();
        assert!(
            head.contains(
                "<code data-file=\"crates/sim/src/strategy/keyed.rs\" data-slot=\"code-file\">"
            ),
            "{head}"
        );
        assert!(
            head.contains(", written as Timeout, no key plus one change"),
            "{head}"
        );
        assert!(
            head.contains("rll-changed\" data-changed=\"true\">    key: true,"),
            "{head}"
        );
        assert!(
            head.contains("<span class=\"rll-lib\">lib 1.0</span>")
                && head.contains("key := &quot;ck-&quot; + id // &lt;once&gt;"),
            "{head}"
        );
        let naive = view_markup(
            StrategyName::Naive,
            &c,
            None,
            Some(Err("Could not load it.")),
        )
        .into_string();
        assert!(
            !naive.contains("written as") && naive.contains("loading the file"),
            "{naive}"
        );
        assert!(
            naive.contains("role=\"alert\">The equivalents are not shown: Could not load it."),
            "{naive}"
        );
        assert_eq!(backoff_text(&c), "100 ms");
        assert_eq!(could_not_load("a/b.rs", None), "Could not load a/b.rs.");
        assert_eq!(
            could_not_load("a/b.rs", Some(404)),
            "Could not load a/b.rs. (HTTP 404)"
        );
    }

    #[test]
    fn the_shared_loop_caption_names_the_backoff_base() {
        let c = ClientParams::default();
        let caption = shared_loop_caption(&c).into_string();
        assert!(caption.contains(&backoff_text(&c)), "{caption}");
        assert!(
            caption.contains(
                SHARED_LOOP_PATH
                    .trim_start_matches("source/")
                    .trim_end_matches(".rs")
            ) || caption.contains("charge.rs")
        );
    }

    #[test]
    fn the_code_view_draws_what_it_fills_and_new_numbers_leave_the_files_lines_alone() {
        let keyed = CodeState {
            strategy: StrategyName::Keyed,
            client: ClientParams::default(),
            file: Some(Ok("ClientPlan {\n    key: true,\n..".into())),
            equivalents: Some(Ok("keyed | lib 1.0 (Go) | key := \"ck-\" + id".into())),
            shared: None,
        };
        let failed = CodeState {
            file: Some(Err("Could not load it.".into())),
            equivalents: None,
            shared: Some(Ok("fn run() {}\n#[cfg(test)]\nmod t {}".into())),
            ..keyed.clone()
        };
        for st in [&keyed, &failed] {
            crate::shared::live::check_drawn(&CodeView, st).unwrap();
        }
        let slower = CodeState {
            client: ClientParams {
                backoff_base_us: 250_000,
                ..ClientParams::default()
            },
            ..keyed.clone()
        };
        let fill = |s: &CodeState| {
            let mut fill = Fill::default();
            CodeView.draw(s, &mut fill);
            fill
        };
        let changed: Vec<Slot> = fill(&slower)
            .changed_since(&fill(&keyed))
            .map(|(hole, _)| hole.slot)
            .collect();
        assert_eq!(changed, [CAPTION]);
    }
}

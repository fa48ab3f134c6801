//! Each section's heading and one-paragraph introduction. The page's static shell
//! (`index.html`, and `assets/loader.js` for the limits and headers pages) paints the same
//! words before the module has started; a test holds the three files to these.

use crate::query::page::Section;
use crate::shared::live::{Fill, Live};
use crate::shared::markup::{list_markup, tab_link, TabKey};
use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};

/// A section's heading, its introduction, and its tab's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionText {
    /// The page's `<h1>`.
    pub title: &'static str,
    /// The paragraph under it.
    pub lede: &'static str,
    /// The tab that links to the section.
    pub tab: &'static str,
}

/// The words for `section`.
pub const fn section_text(section: Section) -> SectionText {
    match section {
        Section::Charges => SectionText {
            title: "A thousand charges, one imperfect API",
            lede:
                "Ten ways to send a batch of payments to a rate-limited, flaky provider, each one \
                   step better than the last. Everything below is simulated in your browser, in \
                   simulated time, from a seed.",
            tab: "Calling theirs",
        },
        Section::Limits => SectionText {
            title: "Publishing a limit",
            lede: "Eight limiters, and what clients do with the limit they publish. Every \
                   experiment runs in simulated time, from a seed.",
            tab: "Publishing yours",
        },
        Section::Headers => SectionText {
            title: "The headers between them",
            lede: "What a limiter tells its callers in each response, and how a client reads it, \
                   or misreads it.",
            tab: "The headers",
        },
    }
}

/// A page's header as markup: the lab's name, the section's heading and its paragraph.
pub fn header_markup(section: Section) -> Markup {
    let t = section_text(section);
    html! {
        p.rll-kicker { "rate-limit-lab" }
        h1 { (t.title) }
        p.rll-lede { (t.lede) }
    }
}

/// The line under a section's tab: "1,000 charges, ten clients" for the charges (the
/// batch being edited), what the others hold for the rest.
pub fn tab_sub(section: Section, customers: u32) -> String {
    match section {
        Section::Charges => format!(
            "{} charges, {} clients",
            crate::shared::format::count(customers.into()),
            crate::shared::format::number_word(sim::StrategyName::ALL.len())
        ),
        Section::Limits => "limiters, clients, herds".to_string(),
        Section::Headers => "sent, and read".to_string(),
    }
}

/// The name of the row of section tabs.
pub const SECTIONS_LABEL: &str = "Sections";

/// What a screen reader calls the charges section's row of view tabs.
pub const VIEWS_LABEL: &str = "Views";

/// Where the section tabs stand: the UI writes [`sections_markup`] into it as the seed
/// and numbers change.
pub const SECTIONS: Slot = slot!("sections");

/// The three section tabs as markup: each a link carrying the seed and numbers, its
/// name and its line, the one on screen marked as the current page.
pub fn sections_markup(current: Section, scenario: &sim::Scenario) -> Markup {
    html! {
        @for s in [Section::Charges, Section::Limits, Section::Headers] {
            (tab_link(
                "rll-section-tab",
                TabKey::Section(s.as_str()),
                &crate::query::links::href(s, crate::View::Run, scenario),
                s == current,
                html! { (section_text(s).tab) span.rll-tab-sub { (tab_sub(s, scenario.customers)) } },
            ))
        }
    }
}

/// The heading of the notice over a page whose link had values that could not be used.
pub const PROBLEMS_TITLE: &str = "Some of the link could not be used.";

/// The notice over a page whose link had values that could not be used: one sentence
/// per value, shown as text (never as markup).
pub fn problems_markup(problems: &[String]) -> Markup {
    html! { strong { (PROBLEMS_TITLE) } (list_markup(problems)) }
}

/// The head of every page of the full lab ([`Live`], its state the seed and numbers the
/// section links carry): the page's header for its section, the notice of what could not
/// be used from the link (if anything), and the row of section tabs, the one on screen
/// marked. Only the tabs change (their links and lines follow the numbers), so the row's
/// content is one markup hole ([`Fill::markup`]), written again when they change (an
/// edit, not a frame). One widget rather than three, so each page's module carries one
/// binding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageHead {
    /// The section the page belongs to.
    pub section: Section,
    /// What could not be used from the link (read once).
    pub problems: Vec<String>,
}

impl Live for PageHead {
    type State = sim::Scenario;

    fn shape(&self, _: &sim::Scenario) -> u64 {
        0
    }

    fn draw(&self, scenario: &sim::Scenario, fill: &mut Fill) -> Markup {
        html! {
            header.rll-header { (header_markup(self.section)) }
            @if !self.problems.is_empty() {
                div.rll-notice role="alert" data-testid="query-problems" { (problems_markup(&self.problems)) }
            }
            nav.rll-sections aria-label=(SECTIONS_LABEL) data-slot=(SECTIONS) {
                (fill.markup(SECTIONS, sections_markup(self.section, scenario)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn file(rel: &str) -> String {
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(rel),
        )
        .expect(rel)
    }

    /// The shell's text, as HTML or a JS string holds it (the apostrophes and commas of
    /// our own words need no escaping in either).
    fn held(source: &str, text: &str) -> bool {
        source.contains(text)
    }

    #[test]
    fn the_head_writes_only_the_tabs() {
        use crate::shared::live::check_drawn;
        let head = PageHead {
            section: Section::Limits,
            problems: vec!["<b>".into()],
        };
        let mut sc = sim::Scenario::default();
        check_drawn(&head, &sc).unwrap();
        let mut before = Fill::default();
        let m = head.draw(&sc, &mut before).into_string();
        assert!(
            m.starts_with("<header class=\"rll-header\"><p class=\"rll-kicker\">"),
            "{m}"
        );
        assert!(m.contains("&lt;b&gt;"), "{m}");
        assert!(
            m.contains(r#"<nav class="rll-sections" aria-label="Sections" data-slot="sections">"#),
            "{m}"
        );
        sc.seed += 1;
        let mut after = Fill::default();
        head.draw(&sc, &mut after);
        assert_ne!(before, after, "the links follow the seed");
        assert_eq!(after.writes().len(), 1);
        let plain = PageHead {
            section: Section::Limits,
            problems: vec![],
        };
        assert!(!plain.markup(&sc).into_string().contains("query-problems"));
    }

    #[test]
    fn the_static_shell_paints_the_same_words_the_app_then_shows() {
        let index = file("index.html");
        let charges = section_text(Section::Charges);
        assert!(held(&index, charges.title), "index.html's title");
        assert!(held(&index, charges.lede), "index.html's lede");
        // At the bare address, the sections and the provider's rules as a first visit
        // shows them: an empty query's scenario.
        let first = crate::parse(&[]).base.scenario;
        let nav = sections_markup(Section::Charges, &first).into_string();
        assert!(
            index.contains(&format!("id=\"rll-shell-nav\">{nav}</nav>")),
            "index.html's sections: {nav}"
        );
        let intro = crate::run::intro::intro_markup(&first).into_string();
        assert!(
            index.contains(&format!("id=\"rll-shell-intro\">{intro}</section>")),
            "index.html's rules: {intro}"
        );
        // The opening is written in after each build, from the record (scripts/entry-pages.mjs
        // runs crates/page/src/bin/opening-shell.rs): the source marks its place, once.
        assert_eq!(
            index.matches("<!-- opening-shell -->").count(),
            1,
            "index.html's opening marker"
        );
        let loader = file("assets/loader.js");
        for s in [Section::Limits, Section::Headers] {
            let t = section_text(s);
            assert!(held(&loader, t.title), "loader.js: {}", t.title);
            assert!(held(&loader, t.lede), "loader.js: {}", t.lede);
        }
    }

    #[test]
    fn the_section_tabs_carry_the_numbers_and_mark_the_section_on_screen() {
        use sim::{Scenario, StrategyName};
        let sc = Scenario {
            customers: 2_500,
            ..Scenario::article(StrategyName::Keyed, 4)
        };
        let m = sections_markup(Section::Limits, &sc).into_string();
        assert_eq!(m.matches("<a class=\"rll-section-tab\"").count(), 3);
        assert_eq!(m.matches("aria-current=\"page\"").count(), 1);
        assert!(
            m.contains("data-slot=\"current-tab\" aria-current=\"page\">Publishing yours<span"),
            "{m}"
        );
        assert!(
            m.contains("<span class=\"rll-tab-sub\">2,500 charges, ten clients</span>"),
            "{m}"
        );
        for s in [Section::Charges, Section::Limits, Section::Headers] {
            let link =
                html! { (crate::query::links::href(s, crate::View::Run, &sc)) }.into_string();
            assert!(m.contains(&format!("href=\"{link}\"")), "{m}");
        }
    }

    #[test]
    fn the_header_holds_the_sections_heading_and_paragraph() {
        let m = header_markup(Section::Headers).into_string();
        let t = section_text(Section::Headers);
        assert_eq!(
            m,
            format!(
                "<p class=\"rll-kicker\">rate-limit-lab</p><h1>{}</h1><p class=\"rll-lede\">{}</p>",
                t.title, t.lede
            )
        );
    }

    #[test]
    fn a_link_s_problems_are_listed_as_text() {
        let m =
            problems_markup(&["'<b>' is not a seed".to_string(), "two".to_string()]).into_string();
        assert!(m.starts_with("<strong>Some of the link could not be used.</strong><ul>"));
        assert!(m.contains("<li>'&lt;b&gt;' is not a seed</li><li>two</li>"));
    }
}

//! Markup that several pages share: the parts of a page that are many small, static
//! elements (a source file's lines, a chart, a table of cells) cost far less in the
//! `.wasm` as markup set with `inner_html` than as one Leptos view each
//! (docs/architecture.md, "Drawing"). Every piece is built with maud's `html!`, which
//! escapes what it is given unless it is already-built [`Markup`].
//! Whole numbers go into markup as [`Whole`], written by `core::fmt`'s formatter for
//! `u64` like every other number of the page layer: maud's own rendering of an integer
//! brings a second integer formatter (`itoa`) into each page's module, and a
//! `to_string` per integer type is code of its own.

use crate::shared::slot::Slot;
use crate::slot;
use maud::{html, Markup};

/// A whole number in markup, in digits (`(Whole(n))` in `html!`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whole(pub u64);

impl maud::Render for Whole {
    fn render_to(&self, buffer: &mut String) {
        use std::fmt::Write;
        let _ = write!(buffer, "{}", self.0);
    }
}

/// `items` as a list, each shown as text (never as markup).
pub fn list_markup(items: &[String]) -> Markup {
    html! { ul { (items_markup(items)) } }
}

/// `items` as a list's items, each shown as text, for a list already on the page.
pub fn items_markup(items: &[String]) -> Markup {
    html! { @for m in items { li { (m) } } }
}

/// The tab of the page on screen, in a row of tab links ([`tab_link`]): a click on it
/// would only reload the page.
pub const CURRENT_TAB: Slot = slot!("current-tab");

/// One tab of a row of tab links, a link named by its `data-section` or `data-view`
/// ([`TabKey`]), marked as the current page when `current`, around `inner`.
pub fn tab_link(class: &str, key: TabKey, href: &str, current: bool, inner: Markup) -> Markup {
    let current = current.then_some("page");
    html! {
        @match key {
            TabKey::Section(value) => a class=(class) data-section=(value) href=(href) data-slot=[current.map(|_| CURRENT_TAB)] aria-current=[current] { (inner) },
            TabKey::View(value) => a class=(class) data-view=(value) href=(href) data-slot=[current.map(|_| CURRENT_TAB)] aria-current=[current] { (inner) },
        }
    }
}

/// What tells a tab from the others in its row: the section or the view it opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TabKey {
    /// A section's tab: `data-section`.
    Section(&'static str),
    /// A view's tab: `data-view`.
    View(&'static str),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_shows_its_items_as_text() {
        assert_eq!(
            list_markup(&["a <b>".into(), "c".into()]).into_string(),
            "<ul><li>a &lt;b&gt;</li><li>c</li></ul>"
        );
        assert_eq!(list_markup(&[]).into_string(), "<ul></ul>");
        assert_eq!(
            items_markup(&["x&y".into()]).into_string(),
            "<li>x&amp;y</li>"
        );
        assert_eq!(items_markup(&[]).into_string(), "");
    }

    #[test]
    fn a_whole_number_is_its_digits() {
        assert_eq!(
            html! { (Whole(0)) "/" (Whole(u64::MAX)) }.into_string(),
            "0/18446744073709551615"
        );
    }

    #[test]
    fn a_tab_link_marks_the_current_page_and_names_it_by_its_slot() {
        let inner = html! { "Runs" span { "<sub>" } };
        let current = tab_link("t", TabKey::View("run"), "a?b=1&c=2", true, inner.clone());
        assert_eq!(
            current.into_string(),
            "<a class=\"t\" data-view=\"run\" href=\"a?b=1&amp;c=2\" data-slot=\"current-tab\" \
             aria-current=\"page\">Runs<span>&lt;sub&gt;</span></a>"
        );
        let other = tab_link("t", TabKey::Section("limits"), "x", false, inner).into_string();
        assert_eq!(
            other,
            "<a class=\"t\" data-section=\"limits\" href=\"x\">Runs<span>&lt;sub&gt;</span></a>"
        );
    }
}

//! Markup the page layer writes as text: the parts of a page that are many small, static
//! elements (a source file's lines, a chart, a table of cells) cost far less in the
//! `.wasm` as one string set with `inner_html` than as one Leptos view each (README,
//! "Sizes").

/// Text made safe inside an element or a double-quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `items` as a list, each shown as text (never as markup).
pub fn list_markup(items: &[String]) -> String {
    format!("<ul>{}</ul>", items_markup(items))
}

/// `items` as a list's items, each shown as text, for a list already on the page.
pub fn items_markup(items: &[String]) -> String {
    items
        .iter()
        .map(|m| format!("<li>{}</li>", escape(m)))
        .collect()
}

/// A tab of a row of tab links: `<a class="{class}" {data}="{value}" href="{href}">`, marked
/// as the current page when `current`, around `inner` (already markup).
pub fn tab_link(
    class: &str,
    data: &str,
    value: &str,
    href: &str,
    current: bool,
    inner: &str,
) -> String {
    format!(
        "<a class=\"{class}\" {data}=\"{value}\" href=\"{}\"{}>{inner}</a>",
        escape(href),
        if current {
            " aria-current=\"page\""
        } else {
            ""
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_shows_its_items_as_text() {
        assert_eq!(
            list_markup(&["a <b>".into(), "c".into()]),
            "<ul><li>a &lt;b&gt;</li><li>c</li></ul>"
        );
        assert_eq!(list_markup(&[]), "<ul></ul>");
        assert_eq!(items_markup(&["x&y".into()]), "<li>x&amp;y</li>");
        assert_eq!(items_markup(&[]), "");
    }

    #[test]
    fn escapes_what_markup_and_attributes_would_read() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("plain – text"), "plain – text");
    }
}

//! Text cut around a marker, with no way to panic. Indexing a `str` by a range, or
//! searching it for a `&str`, links core's "not a char boundary" panic into the module,
//! and with it the formatting of a `char` for debugging and the Unicode tables that
//! formatting reads: 4.3–5.1 KB of each page's module as shipped
//! (docs/sizes-and-speeds.md, "No char-boundary panic"). Code that reaches a module cuts
//! text with [`around`] instead, or with `get`, `split_at_checked` and `char` patterns,
//! which cannot panic either. `tests/browser/first-load.test.mjs` fails a release build
//! whose modules carry the panic.

/// `text` around the first `marker`: what comes before it and what comes after it.
/// An empty marker is found at the start.
pub fn around<'a>(text: &'a str, marker: &str) -> Option<(&'a str, &'a str)> {
    let at = if marker.is_empty() {
        0
    } else {
        text.as_bytes()
            .windows(marker.len())
            .position(|w| w == marker.as_bytes())?
    };
    Some((text.get(..at)?, text.get(at + marker.len()..)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_around_the_first_marker_only() {
        assert_eq!(around("a{{b}}c{{d", "{{"), Some(("a", "b}}c{{d")));
        assert_eq!(around("{{", "{{"), Some(("", "")));
        assert_eq!(around("ab", "{{"), None);
        assert_eq!(around("a", "abc"), None);
        assert_eq!(around("ab", ""), Some(("", "ab")));
        // A marker of whole characters can only match from one character's first byte.
        assert_eq!(around("©é", "é"), Some(("©", "")));
        assert_eq!(around("1 in 33", " in "), Some(("1", "33")));
        assert_eq!(around("né in é", " in "), Some(("né", "é")));
    }
}

//! The headers page's words around its two parts: the headers our bucket sends, and the
//! reader for the headers a client gets, with the reader's labels.

use maud::{html, Markup};

/// The heading over the headers our bucket sends.
pub const BUCKET_TITLE: &str = "The headers our bucket sends";

/// What the headers our bucket sends are, as markup.
pub fn bucket_intro_markup() -> Markup {
    html! {
        "Every response carries the limit, in both shapes the IETF drafts have used, so a client can slow down "
        "before it hits the wall. Only a refusal adds " code { "Retry-After" } ", in whole seconds, rounded up."
    }
}

/// The heading over the reader.
pub const READER_TITLE: &str = "Read the headers you get";

/// What the reader does, as markup.
pub fn reader_intro_markup() -> Markup {
    html! {
        "Servers you did not write send " code { "Retry-After" } " as seconds or as a date in three forms, "
        "three generations of the RateLimit draft, and vendor headers with similar names and different meanings. "
        "Paste a response's headers, or pick one of the shapes below: the reader shows the wait it obeys and why it "
        "set every other header aside, beside what a naive client does when it takes the value as seconds: "
        code { "Number(value) × 1000" } " ms in a browser and in Node, and the same mistake in Python and in Go."
    }
}

/// The name of the row of example blocks.
pub const EXAMPLES_LABEL: &str = "Examples";
/// The label of the pasted block.
pub const BLOCK_LABEL: &str = "Response headers, one per line";
/// The label of "now", which starts at the visitor's clock.
pub const NOW_LABEL: &str = "Now (Unix seconds, from your clock)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_names_in_the_introductions_are_code() {
        let bucket = bucket_intro_markup().into_string();
        assert!(
            bucket.contains("adds <code>Retry-After</code>, in whole seconds"),
            "{bucket}"
        );
        let reader = reader_intro_markup().into_string();
        assert!(reader.starts_with("Servers you did not write send <code>Retry-After</code>"));
        assert!(
            reader.contains("<code>Number(value) × 1000</code> ms in a browser and in Node"),
            "{reader}"
        );
    }
}

//! The table of pages the browser side is checked against is the Rust table: the browser
//! tests read `tests/browser/fixtures/pages.json` and open every page's file and link
//! (`tests/browser/pages-table.test.mjs`), so that file must say what `Page` says.

#[test]
fn the_browser_tests_table_of_pages_is_the_rust_table() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/browser/fixtures/pages.json"
    );
    let file = std::fs::read_to_string(path).unwrap_or_default();
    let table = page::query::page::pages_json();
    assert!(
        file == table,
        "tests/browser/fixtures/pages.json is not the Rust table of pages; write it as:\n{table}"
    );
}

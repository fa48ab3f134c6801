//! Each page's entry: read the link, then mount the page into `<body>`. Each page is
//! built as a module of its own (docs/architecture.md): a binary's `main` calls its
//! page's `entry::mount`, and the linker keeps only what that page uses.

use super::page_query;
use leptos::prelude::*;
use page::PageQuery;

/// Reads the link and mounts `page` into `<body>`: a page that reads neither a sweep's
/// keys nor the limits experiments' settings.
pub fn mount_page<V: IntoView + 'static>(page: fn(PageQuery) -> V) {
    mount_page_for::<false, false, V>(page)
}

/// Reads the link as a page that reads a sweep's keys only if `SWEEP` and the limits
/// experiments' settings only if `LAB` ([`page::parse_for`]), and mounts `page`.
pub fn mount_page_for<const SWEEP: bool, const LAB: bool, V: IntoView + 'static>(
    page: fn(PageQuery) -> V,
) {
    console_error_panic_hook::set_once();
    let query = page_query::read_for::<SWEEP, LAB>();
    leptos::mount::mount_to_body(move || page(query));
}

//! Each page's entry: read the link, then mount the page into `<body>`. Each page is
//! built as a module of its own (docs/architecture.md): a binary's `main` calls its
//! page's `entry::mount`, and the linker keeps only what that page uses.

use super::page_query;
use leptos::prelude::*;
use page::{Family, Query};

/// Reads the link as the page whose own keys are `F`'s, and mounts `page` into `<body>`.
pub fn mount_page<F: Family + 'static, V: IntoView + 'static>(page: fn(Query<F>) -> V) {
    console_error_panic_hook::set_once();
    let query = page_query::read::<F>();
    leptos::mount::mount_to_body(move || page(query));
}

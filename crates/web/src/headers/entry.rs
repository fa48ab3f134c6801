//! The headers page's entry.

use super::headers_page;
use crate::shared::entry::mount_page;
use leptos::prelude::*;
/// The headers page.
pub fn mount() {
    mount_page(|query| view! { <headers_page::HeadersPage query/> });
}

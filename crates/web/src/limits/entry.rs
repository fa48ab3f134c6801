//! The limits page's entry.

use super::limits_page;
use crate::shared::entry::mount_page_for;
use leptos::prelude::*;
/// The limits page.
pub fn mount() {
    mount_page_for::<false, true, _>(|query| view! { <limits_page::LimitsPage query/> });
}

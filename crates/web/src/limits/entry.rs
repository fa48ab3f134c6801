//! The limits page's entry.

use super::limits_page;
use crate::shared::entry::mount_page;
use leptos::prelude::*;
/// The limits page.
pub fn mount() {
    mount_page(|query| view! { <limits_page::LimitsPage query/> });
}

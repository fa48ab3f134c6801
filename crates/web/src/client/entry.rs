//! The client view's entry.

use super::client_page::ClientPage;
use crate::shared::entry::mount_page;
use leptos::prelude::*;

/// The client view.
pub fn mount() {
    mount_page(|query| view! { <ClientPage query/> });
}

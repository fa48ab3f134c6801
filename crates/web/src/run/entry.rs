//! The run page's entries: the page alone, and with its guided walk.

use super::{opening_story, run_page, tour_card};
use crate::shared::entry::mount_page;
use leptos::prelude::*;
/// The run page.
pub fn mount() {
    mount_page(|query| view! { <run_page::RunPage query walk=None opening=None/> });
}

/// The run page with its guided walk and the opening story: what the bare address and
/// `tour=1` open.
pub fn mount_tour() {
    mount_page(
        |query| view! { <run_page::RunPage query walk=Some(tour_card::walk_card) opening=Some(opening_story::opening_story)/> },
    );
}

//! The run page's entries: the page alone, with its guided walk, and with the opening story.

use super::worker_runs::WorkerRuns;
use super::{flow_chart, opening_story, run_page, tour_card};
use crate::shared::entry::mount_page;
use leptos::prelude::*;
/// The run page.
pub fn mount() {
    mount_page(
        |query| view! { <run_page::RunPage query walk=None opening=None worker_runs=Some(WorkerRuns::handle) flow=Some(flow_chart::flow_card)/> },
    );
}

/// The run page with its guided walk: what `tour=1` opens, in the walk's own file.
pub fn mount_tour() {
    mount_page(
        |query| view! { <run_page::RunPage query walk=Some(tour_card::walk_card) opening=None worker_runs=Some(WorkerRuns::handle) flow=None/> },
    );
}

/// The run page with the opening story, which the lab's bare address opens on: its
/// button is a link to the walk's file, so the first visit does not download the walk.
pub fn mount_first() {
    mount_page(
        |query| view! { <run_page::RunPage query walk=None opening=Some(opening_story::opening_story) worker_runs=None flow=None/> },
    );
}

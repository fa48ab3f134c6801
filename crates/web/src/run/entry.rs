//! The run page's entries: the page's first module, the page alone, with its guided
//! walk, and with the opening story.

use super::run_view::panels;
use super::worker_runs::WorkerRuns;
use super::{flow_chart, hand_over, opening_story, run_page, tour_card};
use crate::shared::entry::mount_page;
use crate::shared::page_query;
use leptos::prelude::*;
/// The run page.
pub fn mount() {
    mount_page(
        |query| view! { <run_page::RunPage query walk=None opening=None worker_runs=Some(WorkerRuns::handle) flow=Some(flow_chart::flow_card) panels=Some(panels) take_over=Some(hand_over::take_over)/> },
    );
}

/// The run page with its guided walk: what `tour=1` opens, in the walk's own file.
pub fn mount_tour() {
    mount_page(
        |query| view! { <run_page::RunPage query walk=Some(tour_card::walk_card) opening=None worker_runs=Some(WorkerRuns::handle) flow=None panels=Some(panels) take_over=None/> },
    );
}

/// The run page with the opening story, which the lab's bare address opens on: its
/// button is a link to the walk's file, so the first visit does not download the walk.
pub fn mount_first() {
    mount_page(
        |query| view! { <run_page::RunPage query walk=None opening=Some(opening_story::opening_story) worker_runs=None flow=None panels=Some(panels) take_over=None/> },
    );
}

/// The run page's first module (`rate-limit-lab-stage`, which `run.html` starts before the
/// page's own): the page down to its stage, with none of the panels around it, kept until
/// the whole page's module takes it over ([`hand_over`]).
pub fn mount_stage() {
    console_error_panic_hook::set_once();
    let query = page_query::read();
    let body = document().body().expect("a page has a body");
    let page = leptos::mount::mount_to(
        body,
        move || view! { <run_page::RunPage query walk=None opening=None worker_runs=None flow=None panels=None take_over=None/> },
    );
    hand_over::on_screen(page);
}

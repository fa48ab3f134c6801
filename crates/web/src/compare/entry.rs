//! The compare page's entry.

use super::compare_view;
use crate::shared::entry::mount_page;
use crate::shared::explore_page;
use leptos::prelude::*;
use page::{PageQuery, View};
/// The compare page: its controls rerun every strategy, and the page follows what they show.
pub fn mount() {
    mount_page(|query| {
        let shown = RwSignal::new(query.clone());
        let run_state = RwSignal::new("idle");
        let note = move || shown.with(|q| page::shared::explore::differences_note(&q.scenario));
        let beside = view! { <p class="rll-see-note" data-testid="differs">{note}</p> };
        let scenario = Signal::derive(move || shown.with(PageQuery::seeded_scenario));
        view! {
            <explore_page::ExplorePage query view=View::Compare words=const { page::shared::links::PageWords::of(page::Page::Compare) } title=page::shared::explore::COMPARE_TITLE shown=shown.into() scenario run_state=run_state.into() beside>
                <compare_view::CompareView shown run_state/>
            </explore_page::ExplorePage>
        }
    });
}

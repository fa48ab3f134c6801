//! The compare page's entry.

use super::compare_view;
use crate::shared::entry::mount_page;
use crate::shared::explore_page;
use leptos::prelude::*;
use page::{Query, View};
/// The compare page: its controls rerun every strategy, and the page follows what they show.
pub fn mount() {
    mount_page(|query: Query<()>| {
        let shown = RwSignal::new(query.clone());
        let run_state = RwSignal::new("idle");
        let note =
            move || shown.with(|q| page::compare::explore::differences_note(&q.base.scenario));
        let beside = view! { <p class="rll-see-note" data-testid="differs">{note}</p> };
        let scenario = Signal::derive(move || shown.with(|q| q.base.scenario.clone()));
        view! {
            <explore_page::ExplorePage problems=query.base.problems.clone() view=View::Compare words=page::site::words::COMPARE_WORDS title=page::compare::explore::COMPARE_TITLE shown=shown.into() scenario run_state=run_state.into() beside>
                <compare_view::CompareView shown run_state/>
            </explore_page::ExplorePage>
        }
    });
}

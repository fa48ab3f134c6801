//! The matrix page's entry.

use super::matrix_view;
use crate::shared::entry::mount_page;
use crate::shared::explore_page;
use leptos::prelude::*;
use page::View;
/// The matrix page: every strategy against every incident, from one seed.
pub fn mount() {
    mount_page(|query: page::Query<()>| {
        let base = query.base.scenario.clone();
        let shown = Signal::stored(query.clone());
        let run_state = RwSignal::new("idle");
        view! {
            <explore_page::ExplorePage problems=query.base.problems.clone() view=View::Matrix words=page::site::words::MATRIX_WORDS title=page::matrix::table::MATRIX_TITLE shown scenario=Signal::stored(base.clone()) run_state=run_state.into() beside=()>
                <matrix_view::MatrixView base run_state/>
            </explore_page::ExplorePage>
        }
    });
}

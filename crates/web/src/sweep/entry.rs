//! The sweep page's entry.

use super::{param_sweep_view, sweep_view};
use crate::shared::entry::mount_page;
use crate::shared::explore_page;
use leptos::prelude::*;
use page::sweep::query::SweepQuery;
use page::sweep::sweep_progress::SweepState;
use page::View;
/// The sweep page: seeds, or one parameter over seeds.
pub fn mount() {
    mount_page(|query: SweepQuery| {
        let base = query.base.scenario.clone();
        let strategy = query.seed_sweep_strategy();
        // A link naming a parameter starts the parameter sweep, not the seed sweep.
        let (seeds, autostart) = (
            query.own.seeds,
            query.sweep_autostart() && query.own.param.is_none(),
        );
        // The seed sweep's workers load ahead unless the link is a parameter sweep's.
        let warm = query.own.param.is_none();
        // The footer follows the sweep on screen: what the link asked for, then each sweep
        // the reader starts.
        let shown = RwSignal::new(query.clone());
        // Each sweep keeps the link's seed and numbers.
        let scenario = Signal::stored(base.clone());
        let psweep_base = base.clone();
        let psweep_query = query.clone();
        let (seeds_state, param_state) = (
            RwSignal::new(SweepState::Idle),
            RwSignal::new(SweepState::Idle),
        );
        let run_state = Signal::derive(move || {
            page::sweep::sweep_progress::sweep_page_state([seeds_state.get(), param_state.get()])
        });
        view! {
            <explore_page::ExplorePage problems=query.base.problems.clone() view=View::Sweep words=page::site::words::SWEEP_WORDS title=page::sweep::views::SWEEP_TITLE shown=shown.into() scenario run_state beside=()>
                <sweep_view::SweepView base strategy seeds autostart warm shown state=seeds_state/>
                <param_sweep_view::ParamSweepView base=psweep_base query=psweep_query shown state=param_state/>
            </explore_page::ExplorePage>
        }
    });
}

//! Goodput over time, under the run's timeline, for traffic that keeps arriving: the
//! page layer's live widget (`page::run::flow::Flow`), drawn once and written in place
//! at most once per simulated second.

use crate::run::use_playback::Playback;
use crate::shared::live;
use leptos::prelude::*;
use page::run::flow::{Flow, FlowState, Recovery};
use sim::time::US_PER_S;

/// The chart as the run page's module builds it ([`FlowCard`](crate::run::run_view::FlowCard)).
pub fn flow_card(playback: Playback) -> AnyView {
    view! { <FlowChart playback/> }.into_any()
}

/// The customers who arrived, the requests sent and the charges the client learned of,
/// second by second up to the instant on screen (the playhead's, or the run's own), on an
/// axis as long as the run will be when that is known. Nothing for a batch (the
/// article's runs) or for a run in a worker, which has no simulation on the page.
#[component]
pub fn FlowChart(
    /// The run to chart.
    playback: Playback,
) -> impl IntoView {
    // The whole second on screen, and whether the run is over there.
    let tick = Memo::new(move |_| {
        playback
            .snapshot()
            .with(|s| s.as_ref().map(|s| (s.now_us / US_PER_S, s.finished)))
    });
    // Drawn again only when the second on screen, the run or its axis changes; empty
    // (and hidden by the stylesheet) when there is nothing to chart.
    live::view(Flow, move || chart(playback, tick.get()))
}

/// What the chart shows at `tick` (the whole second on screen, and whether the run is
/// over there), or `None` when there is nothing to chart.
fn chart(playback: Playback, tick: Option<(u64, bool)>) -> Option<FlowState> {
    let (now_s, finished) = tick?;
    if playback.offloaded().get() {
        return None;
    }
    let axis_s = playback.end_us().get().map_or(0, |e| e.div_ceil(US_PER_S));
    // Tracks the scenario itself: set when a run starts, not on every frame.
    let plan = playback.scenario().with(|s| {
        s.as_ref()
            .filter(|s| !s.traffic.is_batch())
            .map(|s| s.provider.incident)
    })?;
    let recovery = playback
        .snapshot()
        .with_untracked(|s| s.as_ref().map(|s| Recovery::of(&s.stats, &plan)))
        .filter(|_| finished);
    // A finished run shows its last second, however short; a playing one, its whole
    // seconds so far.
    let seconds = playback.with_sim(|sim| {
        let all = sim.flow().seconds();
        let shown = if finished {
            all.len()
        } else {
            all.len().min(now_s as usize)
        };
        all[..shown].to_vec()
    })?;
    Some(FlowState {
        seconds,
        incident: plan,
        axis_s,
        recovery,
    })
}

//! The verdict on a run once it stops (paused, or finished), in one sentence coloured by
//! how it went, announced to screen readers.
//!
//! The lines are the page layer's live widget (`page::run::stage::Summary`): drawn once,
//! then the sentence and its tone, the incident's note and the provider's model beside
//! an outage written where they changed (as one Leptos binding per attribute, they
//! weighed about 3 KB gzip in the widget's module).

use crate::run::use_playback::{PlayState, Playback};
use crate::shared::live;
use leptos::prelude::*;
use page::run::incident::incident_sentence;
use page::run::model::model_markup;
use page::run::stage::{verdict, Summary as Lines, SummaryState};

/// A live region that stays empty until the run is done, then says how it went.
#[component]
pub fn Summary(
    /// The run to sum up once it is done.
    playback: Playback,
) -> impl IntoView {
    // Silent while playing; stopped (paused, or a finished run at its playhead), it says
    // where the run stands, and "never" only at the end of a finished run. The incident's
    // note once the run is past it; the provider's model beside an outage.
    live::view(Lines, move || {
        let state = playback.state().get();
        let stopped = matches!(state, PlayState::Paused | PlayState::Done);
        let finished = state == PlayState::Done && playback.playhead().with(Option::is_none);
        playback.scenario().with(|sc| {
            playback.snapshot().with(|s| SummaryState {
                verdict: match (sc, s) {
                    (Some(sc), Some(s)) if stopped => Some(verdict(
                        &s.stats,
                        sc.provider.valid_customers(sc.customers),
                        finished,
                    )),
                    _ => None,
                },
                incident: match (sc, s) {
                    (Some(sc), Some(s)) => incident_sentence(sc, s),
                    _ => None,
                },
                model: sc.as_ref().and_then(model_markup),
            })
        })
    })
}

//! The one-sentence summary of a finished run, announced to screen readers once.

use super::use_playback::{PlayState, Playback};
use leptos::prelude::*;

/// A live region that stays empty until the run is done, then says what happened.
#[component]
pub fn Summary(
    /// The run to sum up once it is done.
    playback: Playback,
) -> impl IntoView {
    let text = move || {
        if playback.state.get() != PlayState::Done {
            return None;
        }
        let valid = playback
            .scenario
            .with(|s| s.as_ref().map(|s| s.provider.valid_customers(s.customers)))?;
        playback.snapshot.with(|s| {
            s.as_ref()
                .map(|s| crate::page::format::summary(&s.stats, valid))
        })
    };
    view! {
        <p class="rll-summary" role="status" data-testid="summary" class:rll-summary-shown=move || text().is_some()>
            {text}
        </p>
    }
}

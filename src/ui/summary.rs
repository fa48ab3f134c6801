//! The verdict on a finished run, in one sentence coloured by how it went, announced to
//! screen readers once.

use super::use_playback::{PlayState, Playback};
use crate::page::incident::incident_sentence;
use crate::page::stage::{verdict, Tone};
use leptos::prelude::*;

/// A live region that stays empty until the run is done, then says how it went.
#[component]
pub fn Summary(
    /// The run to sum up once it is done.
    playback: Playback,
) -> impl IntoView {
    let found = Memo::new(move |_| {
        if playback.state.get() != PlayState::Done {
            return None;
        }
        let valid = playback
            .scenario
            .with(|s| s.as_ref().map(|s| s.provider.valid_customers(s.customers)))?;
        playback
            .snapshot
            .with(|s| s.as_ref().map(|s| verdict(&s.stats, valid)))
    });
    // What the incident did, once the run is past it.
    let incident = move || {
        playback.scenario.with(|sc| {
            let sc = sc.as_ref()?;
            playback.snapshot.with(|s| {
                s.as_ref()
                    .and_then(|s| incident_sentence(sc, &s.stats, s.now_us))
            })
        })
    };
    let tone = move |t: Tone| move || found.with(|v| v.as_ref().is_some_and(|v| v.tone == t));
    view! {
        <p
            class="rll-summary"
            role="status"
            data-testid="summary"
            data-tone=move || found.with(|v| v.as_ref().map(|v| if v.tone == Tone::Good { "good" } else { "harm" }))
            class:rll-summary-shown=move || found.with(Option::is_some)
            class:rll-summary-harm=tone(Tone::Harm)
        >
            {move || found.with(|v| v.as_ref().map(|v| v.text.clone()))}
        </p>
        <p class="rll-field-help" data-testid="incident-note">{incident}</p>
    }
}

//! The verdict on a run once it stops (paused, or finished), in one sentence coloured by
//! how it went, announced to screen readers.
//!
//! The lines are the page layer's markup, set once; one effect writes the sentence and
//! its tone, one the incident's note (as one Leptos binding per attribute, they weighed
//! about 3 KB gzip in the widget's module), and one the provider's model beside an
//! outage, as markup when the scenario changes.

use crate::run::use_playback::{PlayState, Playback};
use crate::shared::bind;
use crate::shared::dom::{set_attr, set_class, set_flag, set_text};
use leptos::html::Div;
use leptos::prelude::*;
use page::run::incident::incident_sentence;
use page::run::model::model_markup;
use page::run::stage::{summary_markup, verdict, Tone, INCIDENT_NOTE, MODEL_NOTE, SUMMARY};

/// A live region that stays empty until the run is done, then says how it went.
#[component]
pub fn Summary(
    /// The run to sum up once it is done.
    playback: Playback,
) -> impl IntoView {
    // The two lines, in a `display: contents` box, so the stage's layout sees the lines
    // themselves.
    let root = NodeRef::<Div>::new();
    bind::node(root, SUMMARY, move |line| {
        // Silent while playing; stopped (paused, or a finished run at its playhead), it
        // says where the run stands, and "never" only at the end of a finished run.
        let state = playback.state().get();
        let stopped = matches!(state, PlayState::Paused | PlayState::Done);
        let finished = state == PlayState::Done && playback.playhead().with(Option::is_none);
        let found = playback.scenario().with(|sc| {
            playback.snapshot().with(|s| match (sc, s) {
                (Some(sc), Some(s)) if stopped => Some(verdict(
                    &s.stats,
                    sc.provider.valid_customers(sc.customers),
                    finished,
                )),
                _ => None,
            })
        });
        set_text(line, found.as_ref().map(|v| v.text.as_str()));
        match found.as_ref().map(|v| v.tone) {
            Some(tone) => set_attr(
                line,
                "data-tone",
                if tone == Tone::Good { "good" } else { "harm" },
            ),
            None => set_flag(line, "data-tone", false),
        }
        set_class(line, "rll-summary-shown", found.is_some());
        let harm = found.as_ref().is_some_and(|v| v.tone == Tone::Harm);
        set_class(line, "rll-summary-harm", harm);
    });
    // What the incident did, once the run is past it.
    bind::node(root, INCIDENT_NOTE, move |note| {
        let incident = playback.scenario().with(|sc| {
            playback.snapshot().with(|s| match (sc, s) {
                (Some(sc), Some(s)) => incident_sentence(sc, s),
                _ => None,
            })
        });
        set_text(note, incident.as_deref());
    });
    // Beside an outage, the provider's two choices, each with a link that flips it: set
    // when the scenario changes, not per frame.
    bind::node(root, MODEL_NOTE, move |note| {
        let model = playback
            .scenario()
            .with(|sc| sc.as_ref().and_then(model_markup));
        note.set_inner_html(&model.map(|m| m.into_string()).unwrap_or_default());
    });
    view! {
        <div class="rll-summary-box" node_ref=root inner_html=summary_markup().into_string()></div>
    }
}

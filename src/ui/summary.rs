//! The verdict on a finished run, in one sentence coloured by how it went, announced to
//! screen readers once.
//!
//! One effect writes the sentence, its tone and the incident's note (as one Leptos
//! binding per attribute, they weighed about 3 KB gzip in the widget's module).

use super::erase::watch;
use super::use_playback::{PlayState, Playback};
use crate::page::incident::incident_sentence;
use crate::page::stage::{verdict, Tone};
use leptos::html::P;
use leptos::prelude::*;

/// A live region that stays empty until the run is done, then says how it went.
#[component]
pub fn Summary(
    /// The run to sum up once it is done.
    playback: Playback,
) -> impl IntoView {
    let line = NodeRef::<P>::new();
    let note = NodeRef::<P>::new();
    watch(move || {
        let done = playback.state.get() == PlayState::Done;
        let (found, incident) = playback.scenario.with(|sc| {
            playback.snapshot.with(|s| match (sc, s) {
                (Some(sc), Some(s)) => (
                    done.then(|| verdict(&s.stats, sc.provider.valid_customers(sc.customers))),
                    // What the incident did, once the run is past it.
                    incident_sentence(sc, &s.stats, s.now_us),
                ),
                _ => (None, None),
            })
        });
        let (Some(line), Some(note)) = (line.get(), note.get()) else {
            return;
        };
        line.set_text_content(found.as_ref().map(|v| v.text.as_str()));
        let harm = found.as_ref().map(|v| v.tone != Tone::Good);
        match harm {
            Some(harm) => {
                let _ = line.set_attribute("data-tone", if harm { "harm" } else { "good" });
            }
            None => {
                let _ = line.remove_attribute("data-tone");
            }
        }
        let classes = line.class_list();
        let _ = classes.toggle_with_force("rll-summary-shown", found.is_some());
        let harm_tone = found.as_ref().is_some_and(|v| v.tone == Tone::Harm);
        let _ = classes.toggle_with_force("rll-summary-harm", harm_tone);
        note.set_text_content(incident.as_deref());
    });
    view! {
        <p class="rll-summary" role="status" data-testid="summary" node_ref=line></p>
        <p class="rll-field-help" data-testid="incident-note" node_ref=note></p>
    }
}

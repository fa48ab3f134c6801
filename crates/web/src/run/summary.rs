//! The verdict on a finished run, in one sentence coloured by how it went, announced to
//! screen readers once.
//!
//! One effect writes the sentence, its tone and the incident's note (as one Leptos
//! binding per attribute, they weighed about 3 KB gzip in the widget's module).

use crate::run::use_playback::{PlayState, Playback};
use crate::shared::dom::set_text;
use crate::shared::erase::watch;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::incident::incident_sentence;
use page::run::stage::{verdict, Tone};

/// A live region that stays empty until the run is done, then says how it went.
#[component]
pub fn Summary(
    /// The run to sum up once it is done.
    playback: Playback,
) -> impl IntoView {
    // The two lines, found in their box (a `display: contents` box, so the stage's
    // layout sees the lines themselves).
    let root = NodeRef::<Div>::new();
    let line = move || root.get()?.first_element_child();
    let note = move || line()?.next_element_sibling();
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
        let (Some(line), Some(note)) = (line(), note()) else {
            return;
        };
        set_text(&line, found.as_ref().map(|v| v.text.as_str()));
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
        set_text(&note, incident.as_deref());
    });
    view! {
        <div class="rll-summary-box" node_ref=root>
            <p class="rll-summary" role="status" data-testid="summary"></p>
            <p class="rll-field-help" data-testid="incident-note"></p>
        </div>
    }
}

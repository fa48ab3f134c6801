//! The lab's opening at its bare address, as the run page takes it over: one customer
//! charged twice, and the key that stops it ([`page::run::opening`]).
//!
//! The shell paints the section (`index.html`, held equal to the page layer's markup by
//! a test) and the opening's own module plays it ([`super::opening_player`]), long
//! before this module arrives. The run page then moves the section into its place,
//! tells it the stage's speed, and adds what needs the whole run: the customer among
//! all the others on the stage.

use crate::run::run_state::RunState;
use crate::shared::bind;
use crate::shared::dom::{scroll_to, set_attr, set_flag};
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::run::opening::{OPENING_ID, SPEED_ATTR, ZOOM};
use page::run::stage::STAGE_ID;
use sim::Scenario;

/// The opening, for the article's numbers on seed 1 (what the bare address runs).
#[component]
pub fn OpeningStory(
    /// The run page below it, whose stage it zooms out to and whose walk it starts.
    state: RunState,
) -> impl IntoView {
    // The shell's section, taken now: the loader removes the shell once the module has
    // mounted. Without it (a page that never had the shell) there is no opening.
    let Some(section) = document().get_element_by_id(OPENING_ID) else {
        return ().into_any();
    };
    let section = StoredValue::new_local(section);
    let host = NodeRef::<Div>::new();
    // Once mounted, the section moves in, within the task of the mount, so no frame
    // shows it missing; the player's listeners move with it.
    watch(move || {
        if let Some(host) = host.get() {
            section.with_value(|s| {
                if !host.contains(Some(s)) {
                    let _ = host.append_child(s);
                }
            });
        }
    });
    // The opening plays at the stage's speed.
    watch(move || {
        let speed = state.playback().speed().get();
        section.with_value(|s| set_attr(s, SPEED_ATTR, speed.as_str()));
    });
    bind::node(host, ZOOM, |el| set_flag(el, "disabled", false));

    // The customer among all the others: the run without a key on the stage, with the
    // customer's story open and their marks picked out on the timeline.
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, ZOOM).is_some() {
            let key = sim::story::key_at_work(&Scenario::default());
            state.tell_opening(key.map(|k| k.customer()));
            scroll_to(STAGE_ID);
        }
    };
    view! { <div style="display:contents" node_ref=host on:click=handler(on_click)></div> }
        .into_any()
}

/// The opening for `state`, as the bare address's module gives it to the run page.
pub fn opening_story(state: RunState) -> AnyView {
    view! { <OpeningStory state/> }.into_any()
}

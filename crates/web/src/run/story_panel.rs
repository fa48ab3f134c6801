//! A customer's story: each attempt, the client's view beside the provider's. Links find
//! the scenes worth seeing in the current run.

use crate::run::use_playback::Playback;
use crate::shared::dom::{target_as, value_of};
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::run::story::{no_such_customer, scenes_markup, story_markup, GOTO_MARKUP};
use sim::story::{Scene, Story};

/// The scene links and the selected customer's story.
#[component]
pub fn StoryPanel(
    /// The run whose record tells the story.
    playback: Playback,
    /// The customer whose story is open.
    selected: RwSignal<Option<u32>>,
) -> impl IntoView {
    // The story and the scene links as markup, each rewritten only when it changes (one
    // memo type with the other panels' markup: a memo of its own type would cost the
    // module its own copy of the memo's machinery).
    let story = Memo::new(move |_| {
        playback.snapshot.track();
        let story = selected.get().and_then(|customer| {
            playback
                .with_sim(|sim| sim.record().map(|r| Story::of(r, customer)))
                .flatten()
        });
        story_markup(story.as_ref())
    });
    let found = move || {
        playback
            .with_sim(|sim| Scene::ALL.map(|s| (s, sim.record().and_then(|r| s.find(r)))))
            .unwrap_or(Scene::ALL.map(|s| (s, None)))
    };
    let scenes = Memo::new(move |_| {
        playback.snapshot.track();
        scenes_markup(&found())
    });
    let go_error = RwSignal::new(None::<String>);
    let customers = move || {
        playback
            .scenario
            .with(|s| s.as_ref().map_or(0, |s| s.customers))
    };
    let root = NodeRef::<Div>::new();
    let open = move || {
        let text = root
            .get_untracked()
            .and_then(|r| r.query_selector("#rll-goto").ok().flatten())
            .and_then(|input| value_of(&input))
            .unwrap_or_default();
        match text.trim().parse::<u32>() {
            Ok(c) if (1..=customers()).contains(&c) => {
                go_error.set(None);
                selected.set(Some(c));
            }
            _ => go_error.set(Some(no_such_customer(customers()))),
        }
    };
    // Why the number typed cannot be opened, if it cannot.
    watch(move || {
        let said = go_error.get();
        if let Some(p) = root
            .get()
            .and_then(|r| r.query_selector("[role=alert]").ok().flatten())
        {
            p.set_text_content(said.as_deref());
            let _ = p.toggle_attribute_with_force("hidden", said.is_none());
        }
    });
    let on_goto_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" {
            open();
        }
    };
    let on_goto_click = move |ev: web_sys::MouseEvent| {
        let asked = target_as::<web_sys::Element>(&ev).and_then(|e| e.get_attribute("data-action"));
        if asked.as_deref() == Some("open") {
            open();
        }
    };

    view! {
        <div class="rll-story" data-testid="story-panel" node_ref=root>
            <div class="rll-scenes">
                <span class="rll-scene-links" inner_html=scenes on:click=handler(move |ev: web_sys::MouseEvent| {
                    let scene = target_as::<web_sys::Element>(&ev)
                        .and_then(|e| e.get_attribute("data-scene"));
                    let found = found()
                        .iter()
                        .find(|(s, _)| Some(s.as_str()) == scene.as_deref())
                        .and_then(|(_, c)| *c);
                    if found.is_some() {
                        selected.set(found);
                    }
                })></span>
                <span class="rll-goto" inner_html=GOTO_MARKUP on:keydown=handler(on_goto_key) on:click=handler(on_goto_click)></span>
            </div>
            <p class="rll-field-help rll-error" role="alert" hidden></p>
            <div inner_html=story></div>
        </div>
    }
}

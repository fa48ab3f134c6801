//! A customer's story: each attempt, the client's view beside the provider's. Links find
//! the scenes worth seeing in the current run.

use super::dom::target_as;
use super::erase::handler;
use super::use_playback::Playback;
use crate::page::story::{no_such_customer, scenes_markup, story_markup};
use crate::sim::story::{Scene, Story};
use leptos::prelude::*;

/// The scene links and the selected customer's story.
#[component]
pub fn StoryPanel(
    /// The run whose record tells the story.
    playback: Playback,
    /// The customer whose story is open.
    selected: RwSignal<Option<u32>>,
) -> impl IntoView {
    let story = Memo::new(move |_| {
        playback.snapshot.track();
        let customer = selected.get()?;
        playback
            .with_sim(|sim| sim.record().map(|r| Story::of(r, customer)))
            .flatten()
    });
    let scenes = Memo::new(move |_| {
        playback.snapshot.track();
        playback
            .with_sim(|sim| Scene::ALL.map(|s| (s, sim.record().and_then(|r| s.find(r)))))
            .unwrap_or(Scene::ALL.map(|s| (s, None)))
    });
    let go_to = RwSignal::new(String::new());
    let go_error = RwSignal::new(None::<String>);
    let customers = move || {
        playback
            .scenario
            .with(|s| s.as_ref().map_or(0, |s| s.customers))
    };
    let open = move || {
        let text = go_to.get_untracked();
        match text.trim().parse::<u32>() {
            Ok(c) if (1..=customers()).contains(&c) => {
                go_error.set(None);
                selected.set(Some(c));
            }
            _ => go_error.set(Some(no_such_customer(customers()))),
        }
    };

    view! {
        <div class="rll-story" data-testid="story-panel">
            <div class="rll-scenes">
                <span class="rll-scene-links" inner_html=move || scenes.with(|f| scenes_markup(f)) on:click=handler(move |ev: web_sys::MouseEvent| {
                    let scene = target_as::<web_sys::Element>(&ev)
                        .and_then(|e| e.get_attribute("data-scene"));
                    let found = scenes.with_untracked(|f| {
                        f.iter()
                            .find(|(s, _)| Some(s.as_str()) == scene.as_deref())
                            .and_then(|(_, c)| *c)
                    });
                    if found.is_some() {
                        selected.set(found);
                    }
                })></span>
                <span class="rll-goto">
                    <label for="rll-goto">"Customer #"</label>
                    <input
                        id="rll-goto"
                        type="text"
                        inputmode="numeric"
                        autocomplete="off"
                        prop:value=move || go_to.get()
                        on:input:target=move |ev| go_to.set(ev.target().value())
                        on:keydown=handler(move |ev: web_sys::KeyboardEvent| {
                            if ev.key() == "Enter" {
                                open();
                            }
                        })
                    />
                    <button type="button" on:click=handler(move |_| open())>"Open"</button>
                </span>
            </div>
            <p class="rll-field-help rll-error" role="alert" hidden=move || go_error.with(Option::is_none)>{move || go_error.get()}</p>
            <div inner_html=move || story.with(|s| story_markup(s.as_ref()))></div>
        </div>
    }
}

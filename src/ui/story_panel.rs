//! A customer's story: each attempt, the client's view beside the provider's. Links find
//! the scenes worth seeing in the current run.

use super::use_playback::Playback;
use crate::page::story::{client_text, provider_text, scene_label, BEHIND_CLIENTS_BACK};
use crate::sim::story::{AttemptStory, ClientSide, ProviderSide, Scene, Story};
use leptos::prelude::*;

fn client_attrs(a: &AttemptStory) -> (&'static str, String, String) {
    match a.client {
        ClientSide::Waiting => ("waiting", String::new(), String::new()),
        ClientSide::Answered { status, at_us } => {
            ("answered", status.to_string(), at_us.to_string())
        }
        ClientSide::TimedOut { at_us } => ("timedOut", String::new(), at_us.to_string()),
    }
}

fn provider_attrs(a: &AttemptStory) -> (&'static str, String, String, bool) {
    match a.provider {
        ProviderSide::Refused { status } => ("refused", status.to_string(), String::new(), false),
        ProviderSide::Processing { until_us, .. } => {
            ("processing", String::new(), until_us.to_string(), false)
        }
        ProviderSide::Finished {
            status,
            at_us,
            charged,
            ..
        } => ("finished", status.to_string(), at_us.to_string(), charged),
    }
}

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
            _ => go_error.set(Some(format!(
                "Enter a customer number from 1 to {}.",
                customers()
            ))),
        }
    };

    view! {
        <div class="rll-story" data-testid="story-panel">
            <div class="rll-scenes">
                {move || {
                    scenes
                        .get()
                        .into_iter()
                        .map(|(scene, found)| {
                            view! {
                                <button
                                    type="button"
                                    class="rll-link"
                                    data-scene=scene.as_str()
                                    disabled=found.is_none()
                                    title=if found.is_none() { "None in this run" } else { "" }
                                    on:click=move |_| selected.set(found)
                                >
                                    {scene_label(scene)}
                                </button>
                            }
                        })
                        .collect_view()
                }}
                <span class="rll-goto">
                    <label for="rll-goto">"Customer #"</label>
                    <input
                        id="rll-goto"
                        type="text"
                        inputmode="numeric"
                        autocomplete="off"
                        prop:value=move || go_to.get()
                        on:input:target=move |ev| go_to.set(ev.target().value())
                        on:keydown=move |ev| {
                            if ev.key() == "Enter" {
                                open();
                            }
                        }
                    />
                    <button type="button" on:click=move |_| open()>"Open"</button>
                </span>
            </div>
            {move || go_error.get().map(|e| view! { <p class="rll-field-help rll-error" role="alert">{e}</p> })}
            {move || match story.get() {
                None => view! {
                    <p class="rll-caption">"Pick a customer in the grid, or one of the scenes above, to see their story."</p>
                }
                .into_any(),
                Some(s) => view! { <StoryTable story=s/> }.into_any(),
            }}
        </div>
    }
}

/// One customer's attempts, side by side.
#[component]
fn StoryTable(story: Story) -> impl IntoView {
    let heading = format!(
        "Customer {}: {} attempt{}, charged {} time{}",
        story.customer,
        story.attempts.len(),
        if story.attempts.len() == 1 { "" } else { "s" },
        story.charges,
        if story.charges == 1 { "" } else { "s" }
    );
    let twice = story.charges > 1;
    view! {
        <div data-testid="story" data-customer=story.customer data-charges=story.charges>
            <h3 class:rll-harm-text=twice>{heading}</h3>
            <div class="rll-table-scroll">
                <table class="rll-story-table">
                    <thead>
                        <tr><th scope="col">"#"</th><th scope="col">"The client saw"</th><th scope="col">"The provider did"</th></tr>
                    </thead>
                    <tbody>
                        {story
                            .attempts
                            .iter()
                            .map(|a| {
                                let (ck, cs, ca) = client_attrs(a);
                                let (pk, ps, pa, charged) = provider_attrs(a);
                                let behind = a.charged_behind_clients_back();
                                let harm = story.is_harm(a);
                                view! {
                                    <tr
                                        data-attempt=a.attempt
                                        data-sent-at-us=a.sent_at_us
                                        data-key=a.key.clone().unwrap_or_default()
                                        data-client-kind=ck
                                        data-client-status=cs
                                        data-client-at-us=ca
                                        data-provider-kind=pk
                                        data-provider-status=ps
                                        data-provider-at-us=pa
                                        data-charged=charged.to_string()
                                        class:rll-harm=harm
                                    >
                                        <th scope="row">{a.attempt}</th>
                                        <td>
                                            {client_text(a)}
                                            {a.key.clone().map(|k| view! { <span class="rll-key">" key " <code>{k}</code></span> })}
                                        </td>
                                        <td>
                                            {provider_text(a)}
                                            {behind.then(|| view! { <strong class:rll-harm-text=harm>{BEHIND_CLIENTS_BACK}</strong> })}
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        </div>
    }
}

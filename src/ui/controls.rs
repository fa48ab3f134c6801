//! Playback controls: speed, seed, run, pause or resume, reset.

use super::use_playback::{PlayState, Playback};
use crate::page::Speed;
use leptos::prelude::*;

/// The control bar under the strategy buttons.
#[component]
pub fn Controls(
    /// The playback being controlled.
    playback: Playback,
    /// The seed field's text, as typed.
    seed_text: RwSignal<String>,
    /// Why the seed cannot be used, if it cannot.
    seed_error: Signal<Option<String>>,
    /// Why the run cannot start for another reason, if it cannot.
    run_error: Signal<Option<String>>,
    /// Run the selected strategy with the current seed.
    on_run: Callback<()>,
    /// Pick a new random seed and run.
    on_new_seed: Callback<()>,
) -> impl IntoView {
    let state = playback.state;
    let pause_label = move || match state.get() {
        PlayState::Paused => "Resume",
        _ => "Pause",
    };
    view! {
        <div class="rll-controls">
            <div class="rll-field">
                <span class="rll-field-label" id="rll-speed-label">"Speed"</span>
                <div class="rll-segmented" role="group" aria-labelledby="rll-speed-label">
                    {Speed::ALL
                        .into_iter()
                        .map(|speed| {
                            view! {
                                <button
                                    type="button"
                                    data-speed=speed.as_str()
                                    aria-pressed=move || (playback.speed.get() == speed).to_string()
                                    on:click=move |_| playback.set_speed(speed)
                                >
                                    {speed.label()}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            </div>
            <div class="rll-field">
                <label class="rll-field-label" for="rll-seed">"Seed"</label>
                <div class="rll-seed-row">
                    <input
                        id="rll-seed"
                        type="text"
                        inputmode="numeric"
                        autocomplete="off"
                        spellcheck="false"
                        data-testid="seed"
                        aria-invalid=move || seed_error.get().is_some().to_string()
                        aria-describedby="rll-seed-help"
                        prop:value=move || seed_text.get()
                        on:input:target=move |ev| seed_text.set(ev.target().value())
                        on:keydown=move |ev| {
                            if ev.key() == "Enter" {
                                on_run.run(());
                            }
                        }
                    />
                    <button type="button" class="rll-quiet" on:click=move |_| on_new_seed.run(()) title="Pick a random seed and run">
                        "New seed"
                    </button>
                </div>
                <span id="rll-seed-help" class="rll-field-help" class:rll-error=move || seed_error.get().is_some()>
                    {move || seed_error.get().unwrap_or_else(|| "Same seed, same numbers, every time.".into())}
                </span>
            </div>
            <div class="rll-buttons">
                <button type="button" class="rll-primary" data-testid="run" on:click=move |_| on_run.run(())>
                    {move || if state.get() == PlayState::Idle { "Run" } else { "Run again" }}
                </button>
                <button
                    type="button"
                    data-testid="pause"
                    disabled=move || !matches!(state.get(), PlayState::Running | PlayState::Paused)
                    on:click=move |_| {
                        if state.get_untracked() == PlayState::Paused { playback.resume() } else { playback.pause() }
                    }
                >
                    {pause_label}
                </button>
                <button
                    type="button"
                    data-testid="reset"
                    disabled=move || state.get() == PlayState::Idle
                    on:click=move |_| playback.reset()
                >
                    "Reset"
                </button>
                {move || run_error.get().map(|e| view! { <p class="rll-field-help rll-error" role="alert" data-testid="run-error">{e}</p> })}
            </div>
        </div>
    }
}

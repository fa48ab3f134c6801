//! Playback controls: speed, seed, run, pause or resume, reset.
//!
//! The bar is the page layer's live widget (`page::run::controls::ControlBar`): drawn once,
//! then only what a run changes is written; one click handler asks which slot was
//! clicked. As one Leptos view per button and binding, the bar cost the widget's module
//! about 10 KB gzip (docs/architecture.md).

use crate::run::run_state::SeedField;
use crate::run::use_playback::{PlayState, Playback};
use crate::shared::bind;
use crate::shared::dom::target_as;
use crate::shared::erase::handler;
use crate::shared::live;
use crate::shared::read::Read;
use leptos::prelude::*;
use page::run::controls::{speed_slot, Action, BarState, ControlBar};
use page::Speed;
use web_sys::HtmlInputElement;

/// The control bar under the strategy buttons.
#[component]
pub fn Controls(
    /// The playback being controlled.
    playback: Playback,
    /// The seed field.
    seed: SeedField,
    /// Why the seed cannot be used, if it cannot.
    seed_error: Read<Option<String>>,
    /// Why the run cannot start for another reason, if it cannot.
    run_error: Read<Option<String>>,
    /// Run the selected strategy with the current seed.
    on_run: Callback<()>,
    /// Pick a new random seed and run.
    on_new_seed: Callback<()>,
) -> impl IntoView {
    let state = playback.state();
    // The bar is the page layer's live widget: what a run changes in it is drawn there.
    let bar = live::view(ControlBar, move || {
        let s = state.get();
        BarState {
            speed: playback.speed().get(),
            idle: s == PlayState::Idle,
            paused: s == PlayState::Paused,
            active: matches!(s, PlayState::Running | PlayState::Paused),
            offloaded: playback.offloaded().get(),
            seed: seed.text(),
            seed_error: seed_error.get(),
            run_error: run_error.get(),
            note: playback.note().get(),
        }
    });

    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some(speed) = Speed::ALL
            .into_iter()
            .find(|s| bind::hit(&ev, speed_slot(*s)).is_some())
        {
            playback.set_speed(speed);
            return;
        }
        match Action::ALL
            .into_iter()
            .find(|a| bind::hit(&ev, a.slot()).is_some())
        {
            Some(Action::Run) => on_run.run(()),
            Some(Action::NewSeed) => on_new_seed.run(()),
            Some(Action::Pause) if state.get_untracked() == PlayState::Paused => playback.resume(),
            Some(Action::Pause) => playback.pause(),
            Some(Action::Reset) => playback.reset(),
            None => {}
        }
    };
    let on_input = move |ev: web_sys::Event| {
        if let Some(input) = target_as::<HtmlInputElement>(&ev) {
            seed.typed(input.value());
        }
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let in_seed = target_as::<HtmlInputElement>(&ev).is_some();
        if in_seed && ev.key() == "Enter" {
            on_run.run(());
        }
    };
    view! {
        <div class="rll-controls" on:click=handler(on_click) on:input=handler(on_input) on:keydown=handler(on_keydown)>{bar}</div>
    }
}

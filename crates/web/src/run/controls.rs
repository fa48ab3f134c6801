//! Playback controls: speed, seed, run, pause or resume, reset.
//!
//! The bar is the page layer's markup, set once; one effect per control writes only what
//! a run changes, each finding its node by the slot the markup named it with, and one
//! click handler asks which slot was clicked. As one Leptos view per button and binding,
//! the bar cost the widget's module about 10 KB gzip (docs/architecture.md).

use crate::run::use_playback::{PlayState, Playback};
use crate::shared::bind;
use crate::shared::dom::{set_attr, set_class, set_flag, set_text, set_value, target_as};
use crate::shared::erase::handler;
use crate::shared::read::Read;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::controls::{
    controls_markup, pause_label, run_label, speed_slot, Action, RUN_ERROR, SEED, SEED_HELP,
    SEED_HELP_LINE,
};
use page::Speed;
use web_sys::HtmlInputElement;

/// The control bar under the strategy buttons.
#[component]
pub fn Controls(
    /// The playback being controlled.
    playback: Playback,
    /// The seed field's text, as typed.
    seed_text: RwSignal<String>,
    /// Why the seed cannot be used, if it cannot.
    seed_error: Read<Option<String>>,
    /// Why the run cannot start for another reason, if it cannot.
    run_error: Read<Option<String>>,
    /// Run the selected strategy with the current seed.
    on_run: Callback<()>,
    /// Pick a new random seed and run.
    on_new_seed: Callback<()>,
) -> impl IntoView {
    let root = NodeRef::<Div>::new();
    let state = playback.state();

    // Which speed is pressed.
    for speed in Speed::ALL {
        bind::node(root, speed_slot(speed), move |el| {
            let on = playback.speed().get() == speed;
            set_attr(el, "aria-pressed", if on { "true" } else { "false" });
        });
    }
    // The buttons a run enables and relabels.
    bind::node(root, Action::Run.slot(), move |el| {
        set_text(el, Some(run_label(state.get() == PlayState::Idle)));
    });
    bind::node(root, Action::Pause.slot(), move |el| {
        let s = state.get();
        let offloaded = playback.offloaded().get();
        set_text(el, Some(pause_label(s == PlayState::Paused, offloaded)));
        set_flag(
            el,
            "disabled",
            !matches!(s, PlayState::Running | PlayState::Paused),
        );
    });
    bind::node(root, Action::Reset.slot(), move |el| {
        set_flag(el, "disabled", state.get() == PlayState::Idle);
    });
    // The seed as typed (left alone while it already matches, so the caret stays), and
    // why it cannot be used.
    bind::node(root, SEED, move |el| {
        set_value(el, &seed_text.get());
        let invalid = seed_error.with(Option::is_some);
        set_attr(el, "aria-invalid", if invalid { "true" } else { "false" });
    });
    bind::node(root, SEED_HELP_LINE, move |el| {
        seed_error.with(|e| {
            set_text(el, Some(e.as_deref().unwrap_or(SEED_HELP)));
            set_class(el, "rll-error", e.is_some());
        });
    });
    // Why a run cannot start, or what became of one in a worker.
    bind::node(root, RUN_ERROR, move |el| {
        let error = run_error.get();
        let said = error.clone().or_else(|| playback.note().get());
        set_text(el, said.as_deref());
        set_flag(el, "hidden", said.is_none());
        set_class(el, "rll-error", error.is_some());
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
            seed_text.set(input.value());
        }
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let in_seed = target_as::<HtmlInputElement>(&ev).is_some();
        if in_seed && ev.key() == "Enter" {
            on_run.run(());
        }
    };
    view! {
        <div class="rll-controls" node_ref=root inner_html=controls_markup().into_string() on:click=handler(on_click) on:input=handler(on_input) on:keydown=handler(on_keydown)></div>
    }
}

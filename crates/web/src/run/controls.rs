//! Playback controls: speed, seed, run, pause or resume, reset.
//!
//! The bar is the page layer's markup, set once; three effects change only what a run
//! changes, and one click handler reads the button's `data-speed` or `data-action`. As
//! one Leptos view per button and binding, the bar cost the widget's module about 10 KB
//! gzip (README, "Sizes").

use crate::run::use_playback::{PlayState, Playback};
use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::run::controls::{controls_markup, pause_label, run_label, Action, SEED_HELP};
use page::Speed;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement};

/// The control bar under the strategy buttons.
#[component]
pub fn Controls(
    /// The playback being controlled.
    playback: Playback,
    /// The seed field's text, as typed.
    seed_text: RwSignal<String>,
    /// Why the seed cannot be used, if it cannot.
    seed_error: RwSignal<Option<String>>,
    /// Why the run cannot start for another reason, if it cannot.
    run_error: RwSignal<Option<String>>,
    /// Run the selected strategy with the current seed.
    on_run: Callback<()>,
    /// Pick a new random seed and run.
    on_new_seed: Callback<()>,
) -> impl IntoView {
    let root = NodeRef::<Div>::new();
    let find = move |selector: &str| root.get()?.query_selector(selector).ok()?;

    // Which speed is pressed, and the buttons a run enables and relabels.
    watch(move || {
        let (speed, state) = (playback.speed.get(), playback.state.get());
        let Some(el) = root.get() else { return };
        if let Ok(buttons) = el.query_selector_all("[data-speed]") {
            for b in (0..buttons.length()).filter_map(|i| buttons.item(i)) {
                if let Ok(b) = b.dyn_into::<Element>() {
                    let on = b.get_attribute("data-speed").as_deref() == Some(speed.as_str());
                    let _ = b.set_attribute("aria-pressed", if on { "true" } else { "false" });
                }
            }
        }
        let set = |selector: &str, text: Option<&str>, disabled: bool| {
            if let Some(b) = find(selector) {
                if let Some(text) = text {
                    b.set_text_content(Some(text));
                }
                let _ = b.toggle_attribute_with_force("disabled", disabled);
            }
        };
        set(
            "[data-testid=run]",
            Some(run_label(state == PlayState::Idle)),
            false,
        );
        let playing = matches!(state, PlayState::Running | PlayState::Paused);
        set(
            "[data-testid=pause]",
            Some(pause_label(state == PlayState::Paused)),
            !playing,
        );
        set("[data-testid=reset]", None, state == PlayState::Idle);
    });

    // The seed as typed (left alone while it already matches, so the caret stays), and
    // why it cannot be used.
    watch(move || {
        let text = seed_text.get();
        let error = seed_error.get();
        if let Some(input) = find("#rll-seed").and_then(|e| e.dyn_into::<HtmlInputElement>().ok()) {
            if input.value() != text {
                input.set_value(&text);
            }
            let _ = input.set_attribute(
                "aria-invalid",
                if error.is_some() { "true" } else { "false" },
            );
        }
        if let Some(help) = find("#rll-seed-help") {
            help.set_text_content(Some(error.as_deref().unwrap_or(SEED_HELP)));
            let _ = help
                .class_list()
                .toggle_with_force("rll-error", error.is_some());
        }
    });

    watch(move || {
        let error = run_error.get();
        if let Some(p) = find("[data-testid=run-error]") {
            p.set_text_content(error.as_deref());
            let _ = p.toggle_attribute_with_force("hidden", error.is_none());
        }
    });

    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(button) =
            target_as::<Element>(&ev).and_then(|e| e.closest("button").ok().flatten())
        else {
            return;
        };
        if let Some(speed) = button.get_attribute("data-speed") {
            if let Ok(speed) = speed.parse::<Speed>() {
                playback.set_speed(speed);
            }
            return;
        }
        match button
            .get_attribute("data-action")
            .as_deref()
            .and_then(Action::from_attr)
        {
            Some(Action::Run) => on_run.run(()),
            Some(Action::NewSeed) => on_new_seed.run(()),
            Some(Action::Pause) if playback.state.get_untracked() == PlayState::Paused => {
                playback.resume()
            }
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
        <div class="rll-controls" node_ref=root inner_html=controls_markup() on:click=handler(on_click) on:input=handler(on_input) on:keydown=handler(on_keydown)></div>
    }
}

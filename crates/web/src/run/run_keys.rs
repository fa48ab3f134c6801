//! The run page's keys: one window `keydown` listener (removed on cleanup) carrying out
//! the page layer's [`KeyAction`]s, and the `?` panel listing them. Keys typed into a
//! text field, a select or a text area are the field's; plain arrows on the playhead
//! slider are the slider's; Space on a focused button, link or checkbox is theirs.

use crate::run::run_state::RunState;
use crate::run::use_playback::PlayState;
use crate::shared::bind;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::ev;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::keys::{action_for, KeyAction, KeysPanel, KEYS_BUTTON, KEYS_CLOSE};
use wasm_bindgen::JsCast;

/// True if the focused `target` has its own use for `key`: any key in a text field, a
/// select or a text area; plain arrows on a slider; Space on a button, link or checkbox.
fn target_owns(target: Option<web_sys::EventTarget>, key: &str, shift: bool) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else {
        return false;
    };
    let arrow = !shift && matches!(key, "ArrowLeft" | "ArrowRight");
    let space = key == " ";
    if el.is_content_editable() {
        return true;
    }
    match el.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "BUTTON" | "A" | "SUMMARY" => space,
        "INPUT" => match el.get_attribute("type").as_deref() {
            Some("range") => arrow,
            Some("checkbox" | "radio" | "button" | "submit" | "reset") => space,
            _ => true,
        },
        _ => false,
    }
}

/// The listener, and the button and panel that show the keys.
#[component]
pub fn RunKeys(
    /// The run view the keys act on.
    state: RunState,
    /// Carries out a step of the playhead (the arrows); false if there is nothing to step.
    #[prop(into)]
    on_step: Callback<KeyAction>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let playback = state.playback();
    let root = NodeRef::<Div>::new();
    // The panel opens over the page where the reader is (a fixed overlay), with the
    // focus on its close button; closing returns the focus to where it was.
    let back_to = StoredValue::new_local(None::<web_sys::HtmlElement>);
    let show = move |on: bool| {
        if on == open.get_untracked() {
            return;
        }
        open.set(on);
        let focus = if on {
            back_to.set_value(
                document()
                    .active_element()
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()),
            );
            root.get_untracked()
                .and_then(|r| bind::find(&r, KEYS_CLOSE))
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        } else {
            back_to.try_update_value(Option::take).flatten()
        };
        if let Some(el) = focus {
            let _ = el.focus();
        }
    };
    let handle = window_event_listener(ev::keydown, move |ev| {
        if ev.ctrl_key() || ev.alt_key() || ev.meta_key() || ev.default_prevented() {
            return;
        }
        let (key, shift) = (ev.key(), ev.shift_key());
        if key == "Escape" && open.get_untracked() {
            ev.prevent_default();
            show(false);
            return;
        }
        if target_owns(ev.target(), &key, shift) {
            return;
        }
        let Some(action) = action_for(&key, shift) else {
            return;
        };
        ev.prevent_default();
        match action {
            KeyAction::PlayPause => match playback.state().get_untracked() {
                PlayState::Running => playback.pause(),
                PlayState::Paused => playback.resume(),
                // A finished run plays on from its playhead; from its end, again.
                PlayState::Done if playback.play_from_playhead() => {}
                PlayState::Idle | PlayState::Done => state.run(state.selected().get_untracked()),
            },
            KeyAction::Pick(strategy) => {
                state.pick(strategy);
            }
            KeyAction::StepRequest(_) | KeyAction::StepHarm(_) => on_step.run(action),
            KeyAction::Slower => playback.set_speed(playback.speed().get_untracked().slower()),
            KeyAction::Faster => playback.set_speed(playback.speed().get_untracked().faster()),
            KeyAction::Rerun => state.run(state.selected().get_untracked()),
            KeyAction::Help => show(!open.get_untracked()),
        }
    });
    on_cleanup(move || handle.remove());
    // The panel is the page layer's live widget, kept and hidden while closed; its button
    // says whether it is open.
    let panel = live::view(KeysPanel, move || open.get());
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, KEYS_BUTTON).is_some() {
            show(!open.get_untracked());
        } else if bind::hit(&ev, KEYS_CLOSE).is_some() {
            show(false);
        }
    };
    view! {
        <div class="rll-keys" node_ref=root on:click=handler(on_click)>{panel}</div>
    }
}

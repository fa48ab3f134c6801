//! The lab's opening at its bare address: one customer charged twice, and the key that
//! stops it ([`page::run::opening`]). It shows the whole story as the shell painted it,
//! one tap from playing; it plays at the stage's speed, steps with ← and →, starts the
//! guided walk, and zooms out to the customer among all the others on the stage.
//!
//! Its markup is the page layer's, painted by the shell (`index.html`, held equal to it
//! by a test): the app takes that markup over, as a page rendered on the server is
//! hydrated, rather than build it again (4 KB of the module). It computes the same story
//! from the record to move the clock, and binds the markup's nodes by their slots.

use crate::run::run_state::RunState;
use crate::shared::bind;
use crate::shared::dom::{scroll_to, set_attr, set_flag, set_text};
use crate::shared::erase::{handler, watch};
use crate::shared::use_animation_frame::{now_ms, use_animation_frame, First, Next};
use leptos::html::Div;
use leptos::prelude::*;
use page::run::opening::{
    play_label, Opening, OpeningClock, BACK, BUTTONS, CLOCK, FORWARD, OPENING_ID, PANELS, PLAY,
    SHELL_ID, ZOOM,
};
use page::run::stage::STAGE_ID;
use sim::Scenario;

/// The opening, for the article's numbers on seed 1 (what the bare address runs).
#[component]
pub fn OpeningStory(
    /// The run page below it, whose stage it zooms out to and whose walk it starts.
    state: RunState,
) -> impl IntoView {
    // The shell's copy, taken now: the loader removes the shell once the module has
    // mounted. Without it (a page that never had the shell) there is no opening.
    let Some(shell) = document().get_element_by_id(SHELL_ID) else {
        return ().into_any();
    };
    let shell = StoredValue::new_local(Some(shell));
    // The story is worked out from the record at the first touch, not as the page starts:
    // the shell already shows it whole, and two runs would delay a phone's first frame.
    let opening = StoredValue::new(None::<Opening>);
    let told = move || {
        if opening.with_value(Option::is_none) {
            let key = sim::story::key_at_work(&Scenario::default());
            opening.set_value(key.map(Opening::new));
        }
    };
    let with = move |f: &dyn Fn(&Opening) -> u64| {
        told();
        opening.with_value(|o| o.as_ref().map_or(0, f))
    };
    // The clock: `None` while it stands at the end, as the shell painted it.
    let t = RwSignal::new(None::<u64>);
    let playing = RwSignal::new(false);
    let clock = StoredValue::new(OpeningClock::at(0));
    let frames = use_animation_frame();
    let root = NodeRef::<Div>::new();
    // Once mounted, the shell's nodes move in (before the bindings below look for them),
    // within the task of the mount, so no frame shows the section empty.
    watch(move || {
        let (Some(root), Some(shell)) =
            (root.get(), shell.try_update_value(Option::take).flatten())
        else {
            return;
        };
        while let Some(node) = shell.first_child() {
            let _ = root.append_child(&node);
        }
    });

    let stop = move || {
        frames.stop();
        playing.set(false);
    };
    let go_to = move |to: u64| {
        stop();
        clock.set_value(OpeningClock::at(to));
        t.set(Some(to));
    };
    let play = move || {
        let end = with(&Opening::end_us);
        if t.get_untracked().is_none_or(|t| t >= end) {
            clock.set_value(OpeningClock::at(with(&Opening::start_us)));
        }
        playing.set(true);
        let mut last = now_ms();
        frames.start(First::NextFrame, move || {
            let now = now_ms();
            let rate = state
                .playback()
                .speed()
                .get_untracked()
                .sim_us_per_wall_ms();
            let mut c = clock.get_value();
            let more =
                opening.with_value(|o| o.as_ref().is_some_and(|o| c.advance(o, now - last, rate)));
            last = now;
            clock.set_value(c);
            t.set(Some(c.t_us));
            if more {
                Next::Frame
            } else {
                playing.set(false);
                Next::Stop
            }
        });
    };
    let step = move |forward: bool| {
        let end = with(&Opening::end_us);
        let now = t.get_untracked().unwrap_or(end);
        let to = if forward {
            with(&|o| o.next(now).unwrap_or(end))
        } else {
            with(&|o| o.previous(now))
        };
        go_to(to);
    };

    // What the clock changes, once it has moved from the end the shell painted.
    let shown = move |f: &dyn Fn(&Opening, u64) -> String| {
        let t = t.get()?;
        opening.with_value(|o| o.as_ref().map(|o| f(o, t)))
    };
    bind::node(root, PANELS, move |el| {
        if let Some(style) = shown(&Opening::clock_style) {
            set_attr(el, "style", &style);
        }
    });
    // The shell's buttons could do nothing: now they can.
    for slot in BUTTONS {
        bind::node(root, slot, |el| set_flag(el, "disabled", false));
    }
    bind::node(root, CLOCK, move |el| {
        if let Some(text) = shown(&Opening::clock_text) {
            set_text(el, Some(&text));
        }
    });
    bind::node(root, PLAY, move |el| {
        let at_end = t.get().is_none_or(|t| t >= with(&Opening::end_us));
        set_text(el, Some(play_label(playing.get(), at_end)));
    });

    // The customer among all the others: the run without a key on the stage, with the
    // customer's story open and their marks picked out on the timeline.
    let zoom = move || {
        told();
        let customer = opening.with_value(|o| o.as_ref().map(|o| o.key.customer()));
        state.tell_opening(customer);
        scroll_to(STAGE_ID);
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, PLAY).is_some() {
            if playing.get_untracked() {
                stop();
            } else {
                play();
            }
        } else if bind::hit(&ev, BACK).is_some() {
            step(false);
        } else if bind::hit(&ev, FORWARD).is_some() {
            step(true);
        } else if bind::hit(&ev, ZOOM).is_some() {
            zoom();
        }
    };
    // Inside the opening, ← and → step its events (before the stage's listener, which
    // skips a handled key).
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.alt_key() || ev.meta_key() || ev.shift_key() {
            return;
        }
        let forward = match ev.key().as_str() {
            "ArrowRight" => true,
            "ArrowLeft" => false,
            _ => return,
        };
        ev.prevent_default();
        step(forward);
    };
    view! {
        <section class="rll-opening" id=OPENING_ID aria-labelledby="rll-opening-title" data-testid="opening">
            <div class="rll-opening-body" node_ref=root on:click=handler(on_click) on:keydown=handler(on_key)></div>
        </section>
    }
    .into_any()
}

/// The opening for `state`, as the bare address's module gives it to the run page.
pub fn opening_story(state: RunState) -> AnyView {
    view! { <OpeningStory state/> }.into_any()
}

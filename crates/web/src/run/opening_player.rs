//! The opening's player: Play, ← and → over the picture the shell painted (`index.html`),
//! in a module of its own (`rate-limit-lab-opening`, a few tens of kilobytes) that the
//! lab's bare address starts before the run page's, so the story answers a reader's
//! first press long before the rest of the page has arrived (docs/sizes-and-speeds.md,
//! "The first visit").
//!
//! It runs no simulation: the clock's stops are in the picture
//! ([`page::run::opening::INSTANTS_ATTR`], drawn from the record with the rest of it), and
//! the speed is the section's ([`SPEED_ATTR`]), which the run page rewrites once it has
//! mounted and whenever the stage's speed changes. The run page's module then moves the
//! section into its place and adds what needs the whole run: the customer among the
//! others ([`super::opening_story`]).

use crate::shared::bind;
use crate::shared::dom::{set_attr, set_flag, set_text};
use crate::shared::erase::{handler, watch};
use crate::shared::use_animation_frame::{now_ms, use_animation_frame, First, Next};
use leptos::html::Div;
use leptos::prelude::*;
use page::run::opening::{
    opening_rate, play_label, OpeningClock, OpeningTimes, BACK, CLOCK, FORWARD, INSTANTS_ATTR,
    OPENING_ID, PANELS, PLAY, SPEED_ATTR,
};
use wasm_bindgen::JsCast;
use web_sys::Element;

/// Plays the section the shell painted, if the page has one whose picture carries its
/// clock: the opening module's whole work.
pub fn mount() {
    let Some(section) = document().get_element_by_id(OPENING_ID) else {
        return;
    };
    let Some(times) = bind::find(&section, PANELS)
        .and_then(|panels| panels.get_attribute(INSTANTS_ATTR))
        .and_then(|attr| OpeningTimes::read(&attr))
    else {
        return;
    };
    let host = section.clone().unchecked_into::<web_sys::HtmlElement>();
    leptos::mount::mount_to(host, move || view! { <OpeningPlayer times section/> }).forget();
}

/// Whether the reader asked the system for less motion, as the opening starts to play.
fn reduced_motion() -> bool {
    window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|q| q.matches())
}

/// The player, mounted at the end of the opening's `section`, whose painted nodes it
/// takes in.
#[component]
fn OpeningPlayer(
    /// The clock's stops, as the picture holds them.
    times: OpeningTimes,
    /// The section the shell painted.
    section: Element,
) -> impl IntoView {
    let (start, end) = (times.start_us(), times.end_us());
    let times = StoredValue::new(times);
    // The clock: `None` while it stands at the end, as the shell painted it.
    let t = RwSignal::new(None::<u64>);
    let playing = RwSignal::new(false);
    let clock = StoredValue::new(OpeningClock::at(0));
    let frames = use_animation_frame();
    let root = NodeRef::<Div>::new();
    // Once mounted, the painted nodes move in (before the bindings below look for them),
    // within the task of the mount, so no frame shows the section empty.
    let section = StoredValue::new_local(section);
    watch(move || {
        let Some(root) = root.get() else {
            return;
        };
        section.with_value(|section| {
            while let Some(node) = section
                .first_child()
                .filter(|n| !root.is_same_node(Some(n)))
            {
                let _ = root.append_child(&node);
            }
        });
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
        if t.get_untracked().is_none_or(|t| t >= end) {
            clock.set_value(OpeningClock::at(start));
        }
        playing.set(true);
        let reduced = reduced_motion();
        let mut last = now_ms();
        frames.start(First::NextFrame, move || {
            let now = now_ms();
            let rate = section
                .with_value(|s| opening_rate(s.get_attribute(SPEED_ATTR).as_deref(), reduced));
            let mut c = clock.get_value();
            let more = times.with_value(|o| c.advance(o, now - last, rate));
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
        let now = t.get_untracked().unwrap_or(end);
        let to = times.with_value(|o| {
            if forward {
                o.next(now).unwrap_or(end)
            } else {
                o.previous(now)
            }
        });
        go_to(to);
    };

    // What the clock changes, once it has moved from the end the shell painted.
    let shown = move |f: fn(&OpeningTimes, u64) -> String| {
        let t = t.get()?;
        Some(times.with_value(|o| f(o, t)))
    };
    bind::node(root, PANELS, move |el| {
        if let Some(style) = shown(OpeningTimes::clock_style) {
            set_attr(el, "style", &style);
        }
    });
    // The shell's buttons could do nothing: now these three can.
    for slot in [PLAY, BACK, FORWARD] {
        bind::node(root, slot, |el| set_flag(el, "disabled", false));
    }
    bind::node(root, CLOCK, move |el| {
        if let Some(text) = shown(OpeningTimes::clock_text) {
            set_text(el, Some(&text));
        }
    });
    bind::node(root, PLAY, move |el| {
        let at_end = t.get().is_none_or(|t| t >= end);
        set_text(el, Some(play_label(playing.get(), at_end)));
    });

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
        <div class="rll-opening-body" node_ref=root on:click=handler(on_click) on:keydown=handler(on_key)></div>
    }
}

//! `use_animation_frame`: the one `requestAnimationFrame` loop of the app. It calls a
//! closure once per frame until the closure says stop, the loop is stopped or restarted,
//! or the component that made it goes (its cleanup stops the loop, so an unmounted
//! component's loop never runs again). The playback and the sweep both run on it.

use leptos::prelude::*;

/// Wall time one frame's work may take before it yields to the browser: what is left of
/// a 60 Hz frame (16.7 ms) after room for style, layout and paint.
pub const FRAME_BUDGET_MS: f64 = 12.0;

/// The page's clock, in milliseconds (`performance.now()`), for budgets and durations.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// What a loop does after a frame's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Call again on the next frame.
    Frame,
    /// Done: no more frames.
    Stop,
}

/// When a loop's first call happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// At once, inside `start` (a quick job may finish before the page paints).
    Now,
    /// On the next animation frame.
    NextFrame,
}

/// A handle to one component's frame loop: copyable, so closures can hold it. At most
/// one loop runs at a time; starting another stops the one before.
#[derive(Clone, Copy)]
pub struct FrameLoop {
    /// The running loop's token. Bumped by every start and stop, so a frame scheduled by
    /// an older loop finds a different number and ends that loop.
    generation: StoredValue<u64>,
}

/// A frame loop for the current component, stopped when the component goes.
pub fn use_animation_frame() -> FrameLoop {
    let frames = FrameLoop {
        generation: StoredValue::new(0),
    };
    on_cleanup(move || frames.stop());
    frames
}

impl FrameLoop {
    /// Stops any running loop and calls `tick` once per frame, from `first`, until it
    /// returns [`Next::Stop`] or the loop is stopped.
    pub fn start(&self, first: First, tick: impl FnMut() -> Next + 'static) {
        self.stop();
        let Some(mine) = self.generation.try_get_value() else {
            return;
        };
        let frames = *self;
        match first {
            First::Now => frames.tick(mine, tick),
            First::NextFrame => request_animation_frame(move || frames.tick(mine, tick)),
        }
    }

    /// Stops the running loop, if any: its next frame does nothing.
    pub fn stop(&self) {
        self.generation.try_update_value(|g| *g += 1);
    }

    /// One frame of loop `mine`: nothing if that loop was stopped (or its component has
    /// gone, taking the token with it), else `tick`, and the next frame if it asks.
    fn tick(self, mine: u64, mut tick: impl FnMut() -> Next + 'static) {
        if self.generation.try_get_value() != Some(mine) {
            return;
        }
        if tick() == Next::Frame {
            request_animation_frame(move || self.tick(mine, tick));
        }
    }
}

//! `use_measured`: something read from the page once (colours from CSS, a width from
//! layout) and read again after the window is resized. Reading such things on every
//! frame would force a style and layout pass while the rest of the page is changing.
//! The resize listener goes when the component does.

use leptos::ev;
use leptos::prelude::*;

/// A measured value and the resize epoch that invalidates it.
pub struct Measured<T: Send + Sync + 'static> {
    value: StoredValue<Option<T>>,
    epoch: RwSignal<u32>,
}

impl<T: Send + Sync + 'static> Clone for Measured<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Send + Sync + 'static> Copy for Measured<T> {}

/// A value measured on demand and forgotten on every resize.
pub fn use_measured<T: Send + Sync + 'static>() -> Measured<T> {
    let m = Measured {
        value: StoredValue::new(None),
        epoch: RwSignal::new(0),
    };
    let listener = window_event_listener(ev::resize, move |_| {
        m.value.set_value(None);
        m.epoch.update(|n| *n += 1);
    });
    on_cleanup(move || listener.remove());
    m
}

impl<T: Clone + Send + Sync + 'static> Measured<T> {
    /// The value, measured with `read` if it is not known (or a resize forgot it). An
    /// effect that calls this redraws after a resize.
    pub fn get_or(&self, read: impl FnOnce() -> Option<T>) -> Option<T> {
        self.epoch.track();
        if self.value.with_value(Option::is_none) {
            self.value.set_value(read());
        }
        self.value.get_value()
    }

    /// The value if it is known, without measuring or tracking (for event handlers).
    pub fn peek(&self) -> Option<T> {
        self.value.get_value()
    }
}

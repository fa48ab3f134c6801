//! `use_measured`: something read from the page once (colours from CSS, a width from
//! layout) and read again after the element it belongs to changes width. Reading such
//! things on every frame would force a style and layout pass while the rest of the page
//! is changing. The element is watched with [`use_observer`], which stops with the
//! component.

use crate::shared::observe::{last_entry, use_observer};
use leptos::html::ElementType;
use leptos::prelude::*;
use std::cell::Cell;
use wasm_bindgen::JsCast;

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

/// A value measured on demand and forgotten whenever `target`'s width changes (a window
/// resize, a scrollbar appearing, a panel opening beside it). A change of height alone,
/// such as a canvas growing to fit its drawing, keeps it.
pub fn use_measured<T, E>(target: NodeRef<E>) -> Measured<T>
where
    T: Send + Sync + 'static,
    E: ElementType,
    E::Output: JsCast + Clone + AsRef<web_sys::Element> + 'static,
{
    let m = Measured {
        value: StoredValue::new(None),
        epoch: RwSignal::new(0),
    };
    let last_width = Cell::new(None::<f64>);
    use_observer::<web_sys::ResizeObserver, _>(target, move |entries| {
        let Some(entry) = last_entry::<web_sys::ResizeObserverEntry>(&entries) else {
            return;
        };
        let width = entry.content_rect().width();
        // The first report, when observing starts, counts as a change: the layout may
        // have moved since the value was first measured.
        if last_width.replace(Some(width)) != Some(width) {
            m.value.set_value(None);
            m.epoch.update(|n| *n += 1);
        }
    });
    m
}

impl<T: Clone + Send + Sync + 'static> Measured<T> {
    /// The value, measured with `read` if it is not known (or a resize forgot it). An
    /// effect that calls this redraws after a resize.
    ///
    /// Nothing is measured before the element's first resize report: that report comes
    /// once the browser has laid the page out, so reading a width or a style then costs
    /// nothing, where reading it while the page is still being built would force a
    /// layout of the whole page in the middle of mounting it (docs/sizes-and-speeds.md, "Time to ready").
    pub fn get_or(&self, read: impl FnOnce() -> Option<T>) -> Option<T> {
        if self.epoch.get() == 0 {
            return None;
        }
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

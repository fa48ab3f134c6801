//! `use_chart_width`: the width in CSS pixels a chart has to draw in. The limits charts
//! are SVGs drawn at exactly that width (their user unit is one CSS pixel), so their
//! text keeps its CSS size on a phone instead of shrinking with the picture.

use crate::shared::observe::{last_entry, use_observer};
use leptos::html::Div;
use leptos::prelude::*;

/// The width of `target`'s content box, whole pixels; `None` until the browser has laid
/// it out.
pub fn use_chart_width(target: NodeRef<Div>) -> Signal<Option<f64>> {
    let width = RwSignal::new(None::<f64>);
    use_observer::<web_sys::ResizeObserver, _>(target, move |entries| {
        let Some(entry) = last_entry::<web_sys::ResizeObserverEntry>(&entries) else {
            return;
        };
        let w = entry.content_rect().width().floor();
        if w > 0.0 && width.get_untracked() != Some(w) {
            width.set(Some(w));
        }
    });
    width.into()
}

//! What a click on a tab of markup does: the tab of the page on screen is already here,
//! so following it would only reload the page and lose the run.

use crate::shared::dom::target_as;

/// A click handler for a row of tab links: a plain click on the current page's tab
/// (`aria-current="page"`) does nothing; one that opens a new tab or window goes ahead.
pub(super) fn stay_on_current(ev: web_sys::MouseEvent) {
    let new_tab = ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0;
    let on_current = target_as::<web_sys::Element>(&ev)
        .and_then(|el| el.closest("[aria-current=page]").ok().flatten())
        .is_some();
    if on_current && !new_tab {
        ev.prevent_default();
    }
}

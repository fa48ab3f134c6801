//! What a click on a tab of markup does: the tab of the page on screen is already here,
//! so following it would only reload the page and lose the run.

use crate::shared::bind;
use page::shared::markup::CURRENT_TAB;

/// A click handler for a row of tab links: a plain click on the current page's tab
/// ([`CURRENT_TAB`]) does nothing; one that opens a new tab or window goes ahead.
pub(super) fn stay_on_current(ev: web_sys::MouseEvent) {
    let new_tab = ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0;
    if bind::hit(&ev, CURRENT_TAB).is_some() && !new_tab {
        ev.prevent_default();
    }
}

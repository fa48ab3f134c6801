//! The widget's entry: script widgets in a host page, or one framed widget.

use super::host;
use crate::shared::entry::mount_page;
use leptos::prelude::*;
/// Widgets into a host page's `[data-rate-limit-lab]` elements, or, on the lab's own
/// page (`embed=1`), one widget that reports its height to the page framing it.
pub fn mount() {
    console_error_panic_hook::set_once();
    if host::mount_widgets() == 0 {
        mount_page(|query| view! { <host::EmbedPage query/> });
    }
}

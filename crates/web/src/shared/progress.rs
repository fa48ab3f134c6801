//! Progress of the run: charges finished, the simulated clock, and what is in flight now.
//!
//! The bar and the gauges are the page layer's markup, set once; one effect per control
//! (the bar, its fill, each gauge) writes what a published frame changes, in place (the
//! elements stay, so nothing that points at them loses them).

use crate::run::use_playback::Playback;
use crate::shared::bind;
use crate::shared::dom::{set_attr, set_text};
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::progress::{fill_style, run_progress_markup, Gauge, BAR, BAR_FILL};

/// The progress bar and the live gauges.
#[component]
pub fn Progress(
    /// The run whose progress to show.
    playback: Playback,
) -> impl IntoView {
    let snap = playback.snapshot();
    let limit = move || {
        playback
            .scenario()
            .with(|s| s.as_ref().map(|s| s.provider.max_inflight))
    };
    // Charges done, and in all.
    let done = move || {
        snap.with(|s| {
            s.as_ref()
                .map_or((0, 0), |s| (s.customers_done, u64::from(s.customers)))
        })
    };
    let root = NodeRef::<Div>::new();
    bind::node(root, BAR, move |el| {
        let (done, total) = done();
        set_attr(el, "aria-valuemax", &total.to_string());
        set_attr(el, "aria-valuenow", &done.to_string());
    });
    bind::node(root, BAR_FILL, move |el| {
        let (done, total) = done();
        set_attr(el, "style", &fill_style(done, total));
    });
    for gauge in Gauge::ALL {
        bind::node(root, gauge.slot(), move |el| {
            let text = snap.with(|s| gauge.text(s.as_ref(), limit()));
            set_text(el, Some(&text));
        });
    }
    view! { <div class="rll-progress" node_ref=root inner_html=run_progress_markup().into_string()></div> }
}

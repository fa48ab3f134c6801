//! Progress of the run: charges finished, the simulated clock, and what is in flight now.
//!
//! The gauges are the page layer's markup, set once; one effect per published frame
//! writes the bar's attributes and each gauge's number in place (the elements stay, so
//! nothing that points at them loses them).

use super::use_playback::Playback;
use crate::page::format::percent;
use crate::page::stage::{gauge_values, gauges_markup};
use leptos::html::Div;
use leptos::prelude::*;

/// The progress bar and the live gauges.
#[component]
pub fn Progress(
    /// The run whose progress to show.
    playback: Playback,
) -> impl IntoView {
    let snap = playback.snapshot;
    let limit = move || {
        playback
            .scenario
            .with(|s| s.as_ref().map(|s| s.provider.max_inflight))
    };
    let bar = NodeRef::<Div>::new();
    let fill = NodeRef::<Div>::new();
    let gauges = NodeRef::<Div>::new();
    Effect::new(move |_| {
        let values = snap.with(|s| gauge_values(s.as_ref(), limit()));
        let Some(gauges) = gauges.get() else { return };
        for (name, value) in values {
            if let Ok(Some(el)) = gauges.query_selector(&format!("[data-gauge={name}]")) {
                el.set_text_content(Some(&value));
            }
        }
    });
    Effect::new(move |_| {
        let (done, total) = snap.with(|s| {
            s.as_ref()
                .map_or((0, 0), |s| (s.customers_done, u64::from(s.customers)))
        });
        let (Some(bar), Some(fill)) = (bar.get(), fill.get()) else {
            return;
        };
        let _ = bar.set_attribute("aria-valuemax", &total.to_string());
        let _ = bar.set_attribute("aria-valuenow", &done.to_string());
        let share = if total == 0 {
            0.0
        } else {
            done as f64 * 100.0 / total as f64
        };
        let _ = web_sys::HtmlElement::style(&fill).set_property("width", &percent(share));
    });
    view! {
        <div class="rll-progress">
            <div class="rll-bar" node_ref=bar role="progressbar" aria-label="Charges finished" aria-valuemin="0" aria-valuemax="0" aria-valuenow="0">
                <div class="rll-bar-fill" node_ref=fill></div>
            </div>
            <div class="rll-gauges" node_ref=gauges inner_html=gauges_markup()></div>
        </div>
    }
}

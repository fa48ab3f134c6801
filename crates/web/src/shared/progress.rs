//! Progress of the run: charges finished, the simulated clock, and what is in flight now.
//!
//! The gauges are the page layer's markup, set once; one effect per published frame
//! writes the bar's attributes and each gauge's number in place (the elements stay, so
//! nothing that points at them loses them).

use crate::run::use_playback::Playback;
use crate::shared::erase::watch;
use leptos::html::Div;
use leptos::prelude::*;
use page::run::stage::{gauge_values, gauges_markup};
use page::shared::format::percent;
use wasm_bindgen::JsCast;

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
    // Once per published frame: the bar's attributes, then each gauge's number, found by
    // one query of the gauges' `data-gauge` names.
    watch(move || {
        let (values, done, total) = snap.with(|s| {
            let (done, total) = s
                .as_ref()
                .map_or((0, 0), |s| (s.customers_done, u64::from(s.customers)));
            (gauge_values(s.as_ref(), limit()), done, total)
        });
        let (Some(bar), Some(fill), Some(gauges)) = (bar.get(), fill.get(), gauges.get()) else {
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
        let Ok(numbers) = gauges.query_selector_all("[data-gauge]") else {
            return;
        };
        for el in (0..numbers.length()).filter_map(|i| numbers.item(i)) {
            let Ok(el) = el.dyn_into::<web_sys::Element>() else {
                continue;
            };
            let name = el.get_attribute("data-gauge");
            if let Some((_, value)) = values.iter().find(|(n, _)| Some(*n) == name.as_deref()) {
                el.set_text_content(Some(value));
            }
        }
    });
    view! {
        <div class="rll-progress">
            <div class="rll-bar" node_ref=bar role="progressbar" aria-label="Charges finished" aria-valuemin="0" aria-valuemax="0" aria-valuenow="0">
                <div class="rll-bar-fill" node_ref=fill></div>
            </div>
            <div class="rll-gauges" node_ref=gauges inner_html=gauges_markup().into_string()></div>
        </div>
    }
}

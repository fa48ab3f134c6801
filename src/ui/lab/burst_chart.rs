//! The boundary burst's chart, drawn by the page layer ([`burst_svg`]) at the width it
//! has, and the two volleys draggable along its time axis: the first sets how long
//! before the boundary it starts, the second the gap between them. The range inputs
//! among the knobs do the same from the keyboard.

use crate::page::lab::charts::{burst_svg, chart_width, dragged, BurstAxis};
use crate::page::lab::settings::LabSettings;
use crate::sim::lab::burst::BurstResult;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The element an event went to, as an element.
fn element(target: Option<web_sys::EventTarget>) -> Option<web_sys::Element> {
    target.and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

/// The lanes, the bucket's level and the volleys' handles.
#[component]
pub fn BurstChart(
    /// The experiment's result, as the knobs move it.
    result: Signal<Option<BurstResult>>,
    /// The settings a drag writes the volleys' places to.
    settings: RwSignal<LabSettings>,
    /// Called when a drag ends (to keep the address in step).
    changed: Callback<()>,
    /// The width of the chart's box in CSS pixels (nothing is drawn before it is known).
    width: Signal<Option<f64>>,
) -> impl IntoView {
    // Which volley is held: Some(true) for the second.
    let held = StoredValue::new(None::<bool>);
    // The chart's box (events are delegated, so `current_target` is not it).
    let chart_box = NodeRef::<leptos::html::Div>::new();
    let markup = move || {
        let w = chart_width(width.get()?);
        result.with(|r| r.as_ref().map(|r| burst_svg(r, w)))
    };
    let drag = move |ev: web_sys::PointerEvent| {
        let (Some(second), Some(svg)) = (
            held.get_value(),
            chart_box
                .get_untracked()
                .and_then(|d| d.first_element_child()),
        ) else {
            return;
        };
        let next = result.with_untracked(|r| {
            let r = r.as_ref()?;
            let w = svg.get_attribute("width")?.parse::<u32>().ok()?;
            let x = f64::from(ev.client_x()) - svg.get_bounding_client_rect().left();
            let (id, v) = dragged(r, second, BurstAxis::new(r.boundary_us, w).time_at(x));
            Some(settings.with_untracked(|s| s.with_position(id, v)))
        });
        if let Some(next) = next.filter(|n| settings.with_untracked(|s| s != n)) {
            settings.set(next);
        }
    };
    view! {
        <div class="rll-chart-box" node_ref=chart_box inner_html=move || markup().unwrap_or_default()
            on:pointerdown=move |ev: web_sys::PointerEvent| {
                let volley = element(ev.target())
                    .and_then(|e| e.closest("[data-volley]").ok().flatten())
                    .and_then(|e| e.get_attribute("data-volley"));
                if let (Some(v), Some(div)) = (volley, chart_box.get_untracked()) {
                    held.set_value(Some(v == "second"));
                    let _ = div.set_pointer_capture(ev.pointer_id());
                    ev.prevent_default();
                }
            }
            on:pointermove=drag
            on:pointerup=move |_| {
                if held.get_value().is_some() {
                    held.set_value(None);
                    changed.run(());
                }
            }
            on:pointercancel=move |_| held.set_value(None)>
        </div>
    }
}

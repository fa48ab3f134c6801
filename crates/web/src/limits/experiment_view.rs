//! One experiment: its knobs, then what it shows (its error, or its sentences, chart,
//! table and cells), the page layer's live widget (`page::limits::view::LabShown`), whose
//! body is made again as the knobs move. The burst's two volleys can be dragged along its time axis: the first sets how
//! long before the boundary it starts, the second the gap between them (the range
//! inputs among the knobs do the same from the keyboard).

use super::chart_width::use_chart_width;
use super::knobs::LabKnobs;
use crate::shared::bind;
use crate::shared::erase::handler;
use crate::shared::live;
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::charts::{dragged, volley_slot, BurstAxis, BURST_CHART};
use page::limits::settings::LabSettings;
use page::limits::view::{LabShown, Shown};
use sim::lab::{ExperimentName, LabResult};

/// One experiment, rerun as its knobs move.
#[component]
pub fn ExperimentView(
    /// Which experiment.
    experiment: ExperimentName,
    /// Its result with the current settings, or why it could not run.
    result: Memo<Result<LabResult, String>>,
    /// Every knob's value.
    settings: RwSignal<LabSettings>,
    /// Called after a knob moved (to keep the address in step).
    changed: Callback<()>,
) -> impl IntoView {
    let box_ref = NodeRef::<Div>::new();
    let width = use_chart_width(box_ref);
    // Its error, body and cells, made again as the result or the width changes.
    let shown = live::view(LabShown, move || {
        let w = width.get();
        result.with(|r| Shown::of(r, w))
    });
    // Which volley is held: Some(true) for the second.
    let held = StoredValue::new(None::<bool>);
    let drag = move |ev: web_sys::PointerEvent| {
        let (Some(second), Some(svg)) = (
            held.get_value(),
            box_ref
                .get_untracked()
                .and_then(|b| bind::find(&b, BURST_CHART)),
        ) else {
            return;
        };
        let next = result.with_untracked(|r| {
            let Ok(LabResult::Burst(r)) = r else {
                return None;
            };
            // The chart is drawn one user unit to a CSS pixel: its box is its width.
            let rect = svg.get_bounding_client_rect();
            let axis = BurstAxis::new(r.boundary_us, rect.width().round() as u32);
            let x = f64::from(ev.client_x()) - rect.left();
            let (id, v) = dragged(r, second, axis.time_at(x));
            Some(settings.with_untracked(|s| s.with_position(id, v)))
        });
        if let Some(next) = next.filter(|n| settings.with_untracked(|s| s != n)) {
            settings.set(next);
        }
    };
    // A volley is held from its handle in the chart; events are delegated, so
    // `current_target` is not the box, which takes the pointer by its node.
    view! {
        <div class="rll-experiment" node_ref=box_ref
            on:pointerdown=handler(move |ev: web_sys::PointerEvent| {
                let second = [false, true]
                    .into_iter()
                    .find(|second| bind::hit(&ev, volley_slot(*second)).is_some());
                if let (Some(second), Some(b)) = (second, box_ref.get_untracked()) {
                    held.set_value(Some(second));
                    let _ = b.set_pointer_capture(ev.pointer_id());
                    ev.prevent_default();
                }
            })
            on:pointermove=handler(drag)
            on:pointerup=handler(move |_| {
                if held.get_value().is_some() {
                    held.set_value(None);
                    changed.run(());
                }
            })
            on:pointercancel=handler(move |_| held.set_value(None))>
            <LabKnobs experiment settings changed/>
            {shown}
        </div>
    }
}

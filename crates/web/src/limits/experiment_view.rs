//! One experiment: its knobs, then what it shows (sentences, chart, table), which the
//! page layer writes as markup ([`body_html`]) and which is redrawn whole as the knobs
//! move. The burst's two volleys can be dragged along its time axis: the first sets how
//! long before the boundary it starts, the second the gap between them (the range
//! inputs among the knobs do the same from the keyboard).

use super::cells::Cells;
use super::chart_width::use_chart_width;
use super::knobs::LabKnobs;
use crate::shared::bind;
use crate::shared::dom::{set_flag, set_text};
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::charts::{dragged, volley_slot, BurstAxis, BURST_CHART};
use page::limits::lab::cells_on_page;
use page::limits::settings::LabSettings;
use page::limits::view::{body_html, cells_html, LAB_ERROR};
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
    let markup = move || {
        let w = width.get();
        result.with(|r| {
            r.as_ref()
                .map(|r| body_html(r, w).into_string())
                .unwrap_or_default()
        })
    };
    // The body's box: events are delegated, so `current_target` is not it.
    let body = NodeRef::<Div>::new();
    // Its markup, written whole as the result or the width changes (through the one
    // boxed effect, not an attribute of a type of its own).
    watch(move || {
        if let Some(b) = body.get() {
            b.set_inner_html(&markup());
        }
    });
    // Which volley is held: Some(true) for the second.
    let held = StoredValue::new(None::<bool>);
    let drag = move |ev: web_sys::PointerEvent| {
        let (Some(second), Some(svg)) = (
            held.get_value(),
            body.get_untracked()
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
    // Why the experiment cannot run with these numbers, if it cannot.
    bind::node(box_ref, LAB_ERROR, move |el| {
        result.with(|r| {
            let why = r.as_ref().err();
            set_text(el, why.map(String::as_str));
            set_flag(el, "hidden", why.is_none());
        });
    });
    view! {
        <div class="rll-experiment" node_ref=box_ref>
            <LabKnobs experiment settings changed/>
            <p class="rll-field-help rll-error" data-testid="lab-error" data-slot={LAB_ERROR.name()} hidden></p>
            <div node_ref=body
                on:pointerdown=handler(move |ev: web_sys::PointerEvent| {
                    let second = [false, true]
                        .into_iter()
                        .find(|second| bind::hit(&ev, volley_slot(*second)).is_some());
                    if let (Some(second), Some(b)) = (second, body.get_untracked()) {
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
            </div>
            <Cells markup=Signal::derive(move || result.with(|r| {
                cells_html(&r.as_ref().map(cells_on_page).unwrap_or_default()).into_string()
            }))/>
        </div>
    }
}

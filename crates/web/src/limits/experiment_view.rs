//! One experiment: its knobs, then what it shows (sentences, chart, table), which the
//! page layer writes as markup ([`body_html`]) and which is redrawn whole as the knobs
//! move. The burst's two volleys can be dragged along its time axis: the first sets how
//! long before the boundary it starts, the second the gap between them (the range
//! inputs among the knobs do the same from the keyboard).

use super::cells::Cells;
use super::chart_width::use_chart_width;
use super::knobs::LabKnobs;
use crate::shared::dom::target_as;
use crate::shared::erase::{handler, watch};
use leptos::html::Div;
use leptos::prelude::*;
use page::limits::charts::{dragged, BurstAxis};
use page::limits::lab::cells;
use page::limits::settings::LabSettings;
use page::limits::view::body_html;
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
        result.with(|r| r.as_ref().map(|r| body_html(r, w)).unwrap_or_default())
    };
    // The body's box: events are delegated, so `current_target` is not it.
    let body = NodeRef::<Div>::new();
    // Which volley is held: Some(true) for the second.
    let held = StoredValue::new(None::<bool>);
    let drag = move |ev: web_sys::PointerEvent| {
        let (Some(second), Some(svg)) = (
            held.get_value(),
            body.get_untracked().and_then(|b| {
                b.query_selector("[data-testid=\"burst-chart\"]")
                    .ok()
                    .flatten()
            }),
        ) else {
            return;
        };
        let next = result.with_untracked(|r| {
            let Ok(LabResult::Burst(r)) = r else {
                return None;
            };
            let w = svg.get_attribute("width")?.parse::<u32>().ok()?;
            let x = f64::from(ev.client_x()) - svg.get_bounding_client_rect().left();
            let (id, v) = dragged(r, second, BurstAxis::new(r.boundary_us, w).time_at(x));
            Some(settings.with_untracked(|s| s.with_position(id, v)))
        });
        if let Some(next) = next.filter(|n| settings.with_untracked(|s| s != n)) {
            settings.set(next);
        }
    };
    // Why the experiment cannot run with these numbers, if it cannot.
    watch(move || {
        let why = result.with(|r| r.as_ref().err().cloned());
        let line = box_ref
            .get()
            .and_then(|b| b.query_selector("[data-testid=lab-error]").ok().flatten());
        if let Some(line) = line {
            line.set_text_content(why.as_deref());
            let _ = line.toggle_attribute_with_force("hidden", why.is_none());
        }
    });
    let shown_cells =
        Signal::derive(move || result.with(|r| r.as_ref().map(cells).unwrap_or_default()));
    view! {
        <div class="rll-experiment" node_ref=box_ref>
            <LabKnobs experiment settings changed/>
            <p class="rll-field-help rll-error" data-testid="lab-error" hidden></p>
            <div node_ref=body inner_html=markup
                on:pointerdown=handler(move |ev: web_sys::PointerEvent| {
                    let volley = target_as::<web_sys::Element>(&ev)
                        .and_then(|e| e.closest("[data-volley]").ok().flatten())
                        .and_then(|e| e.get_attribute("data-volley"));
                    if let (Some(v), Some(b)) = (volley, body.get_untracked()) {
                        held.set_value(Some(v == "second"));
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
            <Cells cells=shown_cells/>
        </div>
    }
}

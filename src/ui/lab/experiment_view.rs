//! One experiment: its knobs, what it shows in a sentence, a visual, and every number.
//! The knobs rerun it as they move; the knobs and the burst's chart stay put while the
//! rest is redrawn from the new result.

use super::burst_chart::BurstChart;
use super::cells::Cells;
use super::chart_width::use_chart_width;
use super::knobs::LabKnobs;
use crate::page::lab::cells;
use crate::page::lab::charts::chart_width;
use crate::page::lab::settings::LabSettings;
use crate::page::lab::view::{body_html, burst_answers_html, burst_lead};
use crate::sim::lab::{ExperimentName, LabResult};
use leptos::html::Div;
use leptos::prelude::*;

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
    let chart_w = width;
    let body = if experiment == ExperimentName::Burst {
        burst(result, settings, changed, width).into_any()
    } else {
        let markup = move || {
            let w = chart_w.get().map(chart_width);
            result.with(|r| r.as_ref().map(|r| body_html(r, w)).unwrap_or_default())
        };
        view! { <div inner_html=markup></div> }.into_any()
    };
    let shown_cells =
        Signal::derive(move || result.with(|r| r.as_ref().map(cells).unwrap_or_default()));
    view! {
        <div class="rll-experiment" node_ref=box_ref>
            <LabKnobs experiment settings changed/>
            {move || result.get().err().map(|why| view! { <p class="rll-field-help rll-error" data-testid="lab-error">{why}</p> })}
            {body}
            <Cells cells=shown_cells/>
        </div>
    }
}

/// The burst: its sentence, its chart (which stays mounted, so a drag is not lost when
/// the result changes) and the bucket's answers beside it.
fn burst(
    result: Memo<Result<LabResult, String>>,
    settings: RwSignal<LabSettings>,
    changed: Callback<()>,
    width: Signal<Option<f64>>,
) -> impl IntoView {
    let r = Signal::derive(move || match result.get() {
        Ok(LabResult::Burst(r)) => Some(r),
        _ => None,
    });
    // Wide enough, the answers sit beside the chart (in 280 px and a gap); else under it.
    let chart_w =
        Signal::derive(move || width.get().map(|w| if w >= 900.0 { w - 300.0 } else { w }));
    let lead = move || r.with(|r| r.as_ref().map(burst_lead));
    view! {
        <p data-testid="burst-lead">{lead}</p>
        <div class="rll-burst-row">
            <BurstChart result=r settings changed width=chart_w/>
            <div class="rll-answers">
                <p class="rll-field-label">"What the token bucket answered"</p>
                <ol class="rll-answer-list" data-testid="burst-headers"
                    inner_html=move || r.with(|r| r.as_ref().map(burst_answers_html).unwrap_or_default())></ol>
            </div>
        </div>
    }
}

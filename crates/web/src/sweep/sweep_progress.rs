//! A sweep's progress bar and the line under it, shared by the seed sweep and the
//! parameter sweep.
//!
//! The bar and the line are set once; one effect writes the bar's attributes and width
//! and the line's words as the sweep goes (as bindings, each was a reactive attribute
//! type of the sweep page's module).

use crate::shared::erase::watch;
use leptos::html::Div;
use leptos::prelude::*;
use page::shared::format::percent;
use page::sweep::sweep_progress::{percent_done, progress_line, SweepState};

/// The bar and its line.
#[component]
pub fn SweepProgress(
    /// The bar's accessible name.
    label: &'static str,
    /// Runs done and runs in all.
    progress: RwSignal<(u64, u64)>,
    /// Where the sweep is.
    state: RwSignal<SweepState>,
    /// How long a finished sweep took.
    took_ms: RwSignal<f64>,
) -> impl IntoView {
    let bar = NodeRef::<Div>::new();
    watch(move || {
        let (done, total) = progress.get();
        let line = progress_line(state.get(), done, total, took_ms.get() as u64);
        let Some(bar) = bar.get() else { return };
        let _ = bar.set_attribute("aria-valuemax", &total.to_string());
        let _ = bar.set_attribute("aria-valuenow", &done.to_string());
        if let Some(fill) = bar.first_element_child() {
            let _ = fill.set_attribute(
                "style",
                &format!("width:{}", percent(percent_done(done, total))),
            );
        }
        if let Some(p) = bar.next_element_sibling() {
            p.set_text_content(Some(&line));
        }
    });
    view! {
        <div class="rll-bar" node_ref=bar role="progressbar" aria-label=label aria-valuemin="0" aria-valuemax="0" aria-valuenow="0">
            <div class="rll-bar-fill"></div>
        </div>
        <p class="rll-gauges" role="status"></p>
    }
}

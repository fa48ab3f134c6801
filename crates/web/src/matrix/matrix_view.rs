//! The matrix view: every strategy against every incident from one seed, run a few runs
//! per frame with progress, drawn as the page layer's heatmap (a square per run with its
//! timeline) and table (a cell per run in words, linked to that run).
//!
//! The view is the page layer's markup ([`matrix_view_markup`]), set once; one effect per
//! control (the progress line, the bar, the table) writes what the runs change.

use crate::shared::bind;
use crate::shared::dom::{set_attr, set_text};
use crate::shared::use_animation_frame::{use_animation_frame, First, Next};
use leptos::html::Div;
use leptos::prelude::*;
use page::matrix::table::{
    matrix_progress, matrix_view_markup, table_markup, PROGRESS, PROGRESS_BAR, TABLE,
};
use page::shared::words::Words;
use sim::matrix::{MatrixRun, RUNS};
use sim::Scenario;

/// Runs per animation frame: a thousand customers take a few milliseconds each in the
/// browser, so a frame stays short.
const RUNS_PER_FRAME: usize = 2;

/// The matrix of `base`, started when the view mounts.
#[component]
pub fn MatrixView(
    /// The seed and numbers every cell shares (each sets its strategy and incident).
    base: Scenario,
    /// The page's state for tests and the footer: "running", then "done".
    run_state: RwSignal<&'static str>,
) -> impl IntoView {
    let markup = RwSignal::new(String::new());
    let done = RwSignal::new(0usize);
    let error = RwSignal::new(None::<String>);
    let frames = use_animation_frame();
    let view = matrix_view_markup(&base).into_string();
    match MatrixRun::new(&base) {
        Err(why) => error.set(Some(why.sentence())),
        Ok(mut m) => {
            run_state.set("running");
            let base = base.clone();
            frames.start(First::NextFrame, move || {
                m.step(RUNS_PER_FRAME);
                let (n, _) = m.progress();
                done.set(n);
                markup.set(table_markup(m.cells(), &base).into_string());
                if n < RUNS {
                    Next::Frame
                } else {
                    run_state.set("done");
                    Next::Stop
                }
            });
        }
    }
    let root = NodeRef::<Div>::new();
    bind::node(root, PROGRESS, move |el| {
        let line = error.get().unwrap_or_else(|| matrix_progress(done.get()));
        set_text(el, Some(&line));
    });
    bind::node(root, PROGRESS_BAR, move |el| {
        set_attr(el, "value", &done.get().to_string());
    });
    bind::node(root, TABLE, move |el| markup.with(|m| el.set_inner_html(m)));
    view! { <div node_ref=root inner_html=view></div> }
}

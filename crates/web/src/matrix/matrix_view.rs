//! The matrix view: every strategy against every incident from one seed, run a few runs
//! per frame with progress, drawn as the page layer's table (a cell per run, linked to
//! that run).

use crate::shared::use_animation_frame::{use_animation_frame, First, Next};
use leptos::prelude::*;
use page::matrix::table::{ship_markup, span_text, table_markup};
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
    let caption = span_text(&base);
    let ship = ship_markup(&base);
    match MatrixRun::new(&base) {
        Err(why) => error.set(Some(why.sentence())),
        Ok(mut m) => {
            run_state.set("running");
            let base = base.clone();
            frames.start(First::NextFrame, move || {
                m.step(RUNS_PER_FRAME);
                let (n, _) = m.progress();
                done.set(n);
                markup.set(table_markup(m.cells(), &base));
                if n < RUNS {
                    Next::Frame
                } else {
                    run_state.set("done");
                    Next::Stop
                }
            });
        }
    }
    view! {
        <p class="rll-see-note">
            "Each column is one incident " {caption} "; each row one client, on the same seed. A cell gives the customers charged, the extra charges, the requests per charge and how long after the incident charges flowed again; its colour says how many kinds of harm the run did. Open a cell to watch that run."
        </p>
        <p class="rll-field-help" role="status" data-testid="matrix-progress">
            {move || error.get().unwrap_or_else(|| format!("{} of {RUNS} runs", done.get()))}
        </p>
        <progress max=RUNS value=move || done.get()></progress>
        <div class="rll-matrix-wrap" inner_html=move || markup.get()></div>
        <h3>"What to ship"</h3>
        <p class="rll-see-note">"What the ten rungs add up to, each line with the run that shows why:"</p>
        <div inner_html=ship></div>
    }
}

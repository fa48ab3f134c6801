//! The matrix view: every strategy against every incident from one seed, drawn as the
//! page layer's heatmap (a square per run with its timeline) and table (a cell per run in
//! words, linked to that run).
//!
//! A large matrix's fifty runs are shared out between simulation workers, one per core
//! ([`Farm`]); a small one ([`matrix_in_workers`]: the article's 1,000 customers), or one
//! where no worker can start, the page runs itself, a run or two per frame.
//! Either way the cells come back in the matrix's order and are the same cells
//! (`page::sweep::share`). Cancel stops the runs at once (the workers are terminated).
//! The view is the page layer's live widget ([`MatrixView`]), bound by `live::view` to
//! the runs' progress, state, workers and table.

use crate::shared::bind;
use crate::shared::erase::handler;
use crate::shared::live;
use crate::shared::use_animation_frame::{use_animation_frame, First, Next};
use crate::shared::workers::Farm;
use leptos::prelude::*;
use page::matrix::table::{table_markup, MatrixShown, MatrixView, CANCEL};
use page::shared::budget::Workload;
use page::shared::words::Words;
use page::shared::worker_message::{Answer, Work};
use page::sweep::share::{matrix_in_workers, take_cells, WORKER_NOT_THE_CELLS};
use sim::matrix::{MatrixRun, RUNS};
use sim::Scenario;

/// Runs per animation frame on the page's own thread: a thousand customers take a few
/// milliseconds each in the browser; larger runs go one per frame.
fn runs_per_frame(base: &Scenario) -> usize {
    if base.customers <= 1_000 {
        2
    } else {
        1
    }
}

/// The matrix of `base`, started when the view mounts.
#[component]
pub fn MatrixView(
    /// The seed and numbers every cell shares (each sets its strategy and incident).
    base: Scenario,
    /// The page's state for tests and the footer: "running", then "done".
    run_state: RwSignal<&'static str>,
) -> impl IntoView {
    let markup = RwSignal::new(String::new());
    let progress = RwSignal::new((0u64, RUNS as u64));
    let error = RwSignal::new(None::<String>);
    let workers = RwSignal::new(0u32);
    let widget = MatrixView::new(&base);
    let frames = use_animation_frame();
    let farm = StoredValue::new(None::<Farm>);
    let job = Workload::Matrix
        .check(&base)
        .map_err(|e| e.sentence())
        .and_then(|()| MatrixRun::new(&base).map_err(|e| e.sentence()));
    let matrix = StoredValue::new(None::<MatrixRun>);
    // The table and its picture, of the cells back so far. Workers' answers only move the
    // progress; the table is drawn once they are all back (or the matrix is cancelled),
    // since each drawing is the whole table and the workers share the page's cores.
    let show = {
        let base = base.clone();
        move || {
            let drawn = matrix.with_value(|m| {
                let m = m.as_ref()?;
                Some((m.progress().0, table_markup(m.cells(), &base).into_string()))
            });
            if let Some((n, table)) = drawn {
                progress.set((n as u64, RUNS as u64));
                markup.set(table);
                if n == RUNS {
                    run_state.set("done");
                }
            }
        }
    };
    match job {
        Err(why) => error.set(Some(why)),
        Ok(m) => {
            run_state.set("running");
            matrix.set_value(Some(m));
            let workers_farm = Farm::new(
                progress,
                move || run_state.get_untracked() == "running",
                move |answer| {
                    let taken =
                        matrix.try_update_value(|m| m.as_mut().map(|m| take_cells(m, answer)));
                    if taken.flatten() != Some(true) {
                        error.set(Some(WORKER_NOT_THE_CELLS.into()));
                        run_state.set("stopped");
                    }
                },
                show.clone(),
                move |why| {
                    error.set(Some(why));
                    run_state.set("stopped");
                },
            );
            farm.set_value(Some(workers_farm));
            let work = Work::Matrix { base: base.clone() };
            let shared = matrix_in_workers(&base)
                .then(|| workers_farm.start(work, Answer::read_cells, RUNS as u64))
                .flatten();
            match shared {
                Some(n) => workers.set(n),
                None => {
                    let per_frame = runs_per_frame(&base);
                    let show = show.clone();
                    frames.start(First::NextFrame, move || {
                        let left = matrix.try_update_value(|m| {
                            let m = m.as_mut()?;
                            m.step(per_frame);
                            Some(m.progress().0 < RUNS)
                        });
                        show();
                        let running = run_state.get_untracked() == "running";
                        if running && left.flatten() == Some(true) {
                            Next::Frame
                        } else {
                            Next::Stop
                        }
                    });
                }
            }
            on_cleanup(move || workers_farm.stop());
        }
    }
    let cancel = move || {
        if run_state.get_untracked() != "running" {
            return;
        }
        run_state.set("cancelled");
        frames.stop();
        farm.with_value(|f| f.iter().for_each(Farm::stop));
        show();
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if bind::hit(&ev, CANCEL).is_some() {
            cancel();
        }
    };
    let shown = move || MatrixShown {
        done: progress.get().0,
        state: run_state.get(),
        error: error.get(),
        workers: workers.get(),
        table: markup.get(),
    };
    view! {
        <div style="display:contents" on:click=handler(on_click)>{live::view(widget, shown)}</div>
    }
}

//! The run page's large instant runs, in a simulation worker ([`HandOff`]): the run
//! ([`Job::Run`]) goes to one worker, whose progress moves the page's counter of charges finished
//! and whose answer is the run's final snapshot and its first customers' fates
//! (`page::run::whole`). The page's own thread only takes messages, so it never freezes;
//! Cancel terminates the worker. The worker stays loaded for the next run.

use crate::run::use_playback::{HandOff, Playback};
use crate::shared::workers::{answer_of, field, job_message, worker_count, Pool};
use leptos::prelude::*;
use page::run::whole::{cancelled_line, whole_of, WORKER_NOT_A_RUN};
use page::shared::worker_message::{Answer, Job};
use sim::Scenario;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// One worker for the run page's large runs.
pub struct WorkerRuns {
    pool: StoredValue<Option<Pool>, LocalStorage>,
}

impl WorkerRuns {
    /// Runs handed to a worker, none loaded yet.
    pub fn handle() -> Rc<dyn HandOff> {
        Rc::new(WorkerRuns {
            pool: StoredValue::new_local(None),
        })
    }
}

impl HandOff for WorkerRuns {
    fn start(&self, playback: Playback, scenario: &Scenario) -> bool {
        if worker_count() == 0 {
            return false;
        }
        if self.pool.with_value(Option::is_none) {
            let slot = self.pool;
            let answer = Rc::new(move |_: usize, data: JsValue| take(playback, slot, &data));
            let Some(pool) = Pool::new(1, answer) else {
                return false;
            };
            self.pool.set_value(Some(pool));
        }
        playback.begin_offloaded(scenario);
        let run = job_message(
            1,
            &Job::Run {
                scenario: scenario.clone(),
            },
        );
        self.pool
            .with_value(|p| p.as_ref().map(|p| p.post(0, &run)));
        true
    }

    fn stop(&self) {
        // Terminated: whatever it was running stops now.
        self.pool.set_value(None);
    }

    fn cancel(&self, playback: Playback) {
        let (done, total) = playback.snapshot().with_untracked(|s| {
            s.as_ref()
                .map_or((0, 0), |s| (s.customers_done, u64::from(s.customers)))
        });
        playback.reset();
        playback.say(cancelled_line(done, total));
    }
}

/// A worker's message: progress (charges finished and the simulated clock), or the answer.
fn take(playback: Playback, pool: StoredValue<Option<Pool>, LocalStorage>, data: &JsValue) {
    if !playback.offloaded().get_untracked() {
        return;
    }
    if let Some(done) = field(data, "done").as_f64() {
        let now_us = field(data, "nowUs").as_f64().unwrap_or(0.0);
        playback.offloaded_progress(done as u64, now_us as u64);
        return;
    }
    let answer = answer_of(data, Answer::read_run)
        .and_then(|a| whole_of(a).ok_or_else(|| WORKER_NOT_A_RUN.to_string()));
    match answer {
        Ok((snapshot, fates)) => playback.finish_offloaded(snapshot, fates),
        Err(why) => {
            pool.set_value(None);
            playback.reset();
            playback.say(why);
        }
    }
}

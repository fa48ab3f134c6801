//! Simulation workers: Web Workers that run the core off the page's thread
//! (`assets/sim-worker.js` over the `rate-limit-lab-sim` module, built for speed). A page
//! creates a pool when it has work, hands each worker a typed job and gets back its typed
//! answer (`page::shared::worker_message`, as words);
//! dropping the pool terminates its workers at once, which is how work is cancelled.
//! The module is fetched by the first worker, never on a page's first load.
//!
//! [`Sharing`] shares a job of numbered runs out between a pool's workers, a slice at a
//! time to whichever worker answers, and gives the answers back in the runs' order (the
//! page layer's [`Slices`] keeps that account).

use crate::shared::dom::lab_base;
use leptos::prelude::*;
use page::shared::slices::{Slices, WORKER_FAILED, WORKER_NO_VALUES};
use page::shared::words::Words;
use page::shared::worker_message::{Answer, Job, Read, Work};
use page::sweep::share::batch_runs;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

/// The most workers a page starts, whatever the machine reports.
const MAX_WORKERS: u32 = 16;

/// How many workers a pool has: one per core the browser reports
/// (`navigator.hardwareConcurrency`), at most [`MAX_WORKERS`]; a page's
/// `window.rateLimitLabWorkers` (set by the tests and the benchmark) overrides it, and 0
/// there means none: the page runs the work on its own thread.
pub fn worker_count() -> u32 {
    let Some(window) = web_sys::window() else {
        return 0;
    };
    let asked = js_sys::Reflect::get(&window, &"rateLimitLabWorkers".into())
        .ok()
        .and_then(|v| v.as_f64())
        .filter(|n| n.is_finite() && *n >= 0.0);
    match asked {
        Some(n) => (n as u32).min(MAX_WORKERS),
        None => (window.navigator().hardware_concurrency() as u32).clamp(1, MAX_WORKERS),
    }
}

/// What a worker answered: its index in the pool, and the message's data.
pub type OnAnswer = dyn Fn(usize, JsValue);

/// Running workers. Dropping the pool terminates them.
pub struct Pool {
    workers: Vec<Worker>,
    _listeners: Vec<Closure<dyn Fn(MessageEvent)>>,
}

impl Pool {
    /// `n` workers, each answering through `on_answer`; `None` if this page cannot start
    /// a worker (a browser without module workers, or a page's policy forbids them).
    pub fn new(n: u32, on_answer: Rc<OnAnswer>) -> Option<Pool> {
        let url = format!("{}sim-worker.js", lab_base());
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let mut pool = Pool {
            workers: Vec::new(),
            _listeners: Vec::new(),
        };
        for i in 0..n as usize {
            let worker = Worker::new_with_options(&url, &options).ok()?;
            let answer = on_answer.clone();
            let listener =
                Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| answer(i, ev.data()));
            worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
            // A worker that cannot load its module says so as an error event: answer it
            // as an error, so the page can say why.
            let answer = on_answer.clone();
            let failed = Closure::<dyn Fn(MessageEvent)>::new(move |_: MessageEvent| {
                let data = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&data, &"error".into(), &WORKER_FAILED.into());
                answer(i, data.into());
            });
            worker.set_onerror(Some(failed.as_ref().unchecked_ref()));
            pool.workers.push(worker);
            pool._listeners.extend([listener, failed]);
        }
        Some(pool)
    }

    /// Workers in the pool.
    pub fn len(&self) -> usize {
        self.workers.len()
    }

    /// True if the pool has no worker.
    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// Hands worker `i` a message.
    pub fn post(&self, i: usize, message: &JsValue) {
        if let Some(worker) = self.workers.get(i) {
            let _ = worker.post_message(message);
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for worker in &self.workers {
            worker.terminate();
        }
    }
}

/// The message that hands a worker `job`, answered with `id`.
pub fn job_message(id: u64, job: &Job) -> JsValue {
    let object = js_sys::Object::new();
    let words = js_sys::BigUint64Array::from(job.encode().as_slice());
    let _ = js_sys::Reflect::set(&object, &"id".into(), &JsValue::from_f64(id as f64));
    let _ = js_sys::Reflect::set(&object, &"job".into(), &words);
    object.into()
}

/// A field of an answer.
pub fn field(data: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(data, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// A worker's answer, read by `read` (the kind its page asked for), or its error's
/// sentence, or why it cannot be read.
pub fn answer_of(data: &JsValue, read: Read) -> Result<Answer, String> {
    if let Some(why) = field(data, "error").as_string() {
        return Err(why);
    }
    let words = field(data, "answer")
        .dyn_into::<js_sys::BigUint64Array>()
        .map_err(|_| WORKER_NO_VALUES.to_string())?;
    read(&words.to_vec()).map_err(|e| e.sentence())
}

/// A job of numbered runs shared out between a pool's workers ([`Slices`]: each worker
/// handed a slice, and another each time it answers), its answers given back in the runs'
/// order. Each slice is a [`Job::Slice`] of the work, whose first run is the answer's `id`,
/// and each answer is read by the reader of the work's kind of answer.
pub struct Sharing {
    pool: Pool,
    /// The job handed out, its runs set to each slice's in turn.
    job: Job,
    read: Read,
    slices: Slices<Answer>,
}

impl Sharing {
    /// Starts the `total` runs of `work` on `pool`, `batch` runs at a time, each worker
    /// handed its first slice now; `read` reads their answers.
    pub fn start(pool: Pool, work: Work, read: Read, total: u64, batch: u64) -> Self {
        let mut sharing = Sharing {
            pool,
            job: Job::Slice { work, runs: 0..0 },
            read,
            slices: Slices::new(total, batch),
        };
        for i in 0..sharing.pool.len() {
            sharing.hand(i);
        }
        sharing
    }

    /// Runs back so far (in any order), and in all.
    pub fn progress(&self) -> (u64, u64) {
        self.slices.progress()
    }

    fn hand(&mut self, i: usize) {
        let Some(runs) = self.slices.hand() else {
            return;
        };
        if let Job::Slice { runs: slice, .. } = &mut self.job {
            *slice = runs.clone();
        }
        self.pool.post(i, &job_message(runs.start, &self.job));
    }

    /// Takes worker `i`'s answer (its message's `id` is the first run of its slice) and
    /// hands it the next slice: the slices now back in order, each its answer, or why not.
    pub fn answer(&mut self, i: usize, data: &JsValue) -> Result<Vec<Answer>, String> {
        let answer = answer_of(data, self.read)?;
        let from = field(data, "id").as_f64().map_or(u64::MAX, |f| f as u64);
        let ready = self.slices.answer(from, answer)?;
        self.hand(i);
        Ok(ready)
    }

    /// True once every run is back and given back in order.
    pub fn is_done(&self) -> bool {
        self.slices.is_done()
    }

    /// The pool, for the next job, once this one is done.
    pub fn into_pool(self) -> Pool {
        self.pool
    }
}

/// A page's work on simulation workers: one worker per core ([`worker_count`]), each
/// handed slices of the work's runs; the answers taken in the runs' order by `take`, the
/// progress written as they come, `finish` called once every run is back, and `fail` with
/// a sentence if a worker could not do its part (the work then stops). Stopping terminates
/// the workers at once; finished work leaves them waiting for the next, warm.
#[derive(Clone, Copy)]
pub struct Farm {
    sharing: StoredValue<Option<Sharing>, LocalStorage>,
    /// Workers waiting for work: started ahead ([`Farm::warm`]), or left by the last job.
    idle: StoredValue<Option<Pool>, LocalStorage>,
    answer: StoredValue<Rc<OnAnswer>, LocalStorage>,
}

impl Farm {
    /// A farm whose answers count while `running` says so.
    pub fn new(
        progress: RwSignal<(u64, u64)>,
        running: impl Fn() -> bool + 'static,
        take: impl Fn(Answer) + 'static,
        finish: impl Fn() + 'static,
        fail: impl Fn(String) + 'static,
    ) -> Farm {
        let sharing = StoredValue::new_local(None::<Sharing>);
        let idle = StoredValue::new_local(None::<Pool>);
        let answer: Rc<OnAnswer> = Rc::new(move |i, data| {
            if !running() {
                return;
            }
            let answered = sharing.try_update_value(|slot| {
                let s = slot.as_mut()?;
                Some((s.answer(i, &data), s.progress(), s.is_done()))
            });
            let Some(Some((ready, back, done))) = answered else {
                return;
            };
            match ready {
                Ok(ready) => ready.into_iter().for_each(&take),
                Err(why) => {
                    sharing.set_value(None);
                    return fail(why);
                }
            }
            progress.set(back);
            if done {
                let pool = sharing.try_update_value(Option::take).flatten();
                idle.set_value(pool.map(Sharing::into_pool));
                finish();
            }
        });
        Farm {
            sharing,
            idle,
            answer: StoredValue::new_local(answer),
        }
    }

    /// A pool of `n` workers: the waiting one if it has `n`, else a new one.
    fn pool(&self, n: u32) -> Option<Pool> {
        let waiting = self.idle.try_update_value(Option::take).flatten();
        match waiting {
            Some(pool) if pool.len() == n as usize => Some(pool),
            _ => Pool::new(n, self.answer.get_value()),
        }
    }

    /// Starts the workers before there is work for them (after the page is ready), so
    /// the first job does not wait for them to load.
    pub fn warm(&self) {
        let n = worker_count();
        if n > 0 && self.sharing.with_value(Option::is_none) {
            let pool = self.pool(n);
            self.idle.set_value(pool);
        }
    }

    /// Starts the `total` runs of `work`, whose answers `read` reads: the workers it runs
    /// on, or `None` if no worker can start here (the page then runs the work itself).
    pub fn start(&self, work: Work, read: Read, total: u64) -> Option<u32> {
        // Work still running is stopped: its workers would answer for it.
        self.sharing.set_value(None);
        let n = u64::from(worker_count()).min(total);
        if n == 0 {
            return None;
        }
        let pool = self.pool(n as u32)?;
        let workers = pool.len() as u32;
        let sharing = Sharing::start(pool, work, read, total, batch_runs(total, n));
        self.sharing.set_value(Some(sharing));
        Some(workers)
    }

    /// Stops the work: its workers are terminated.
    pub fn stop(&self) {
        self.sharing.set_value(None);
    }
}

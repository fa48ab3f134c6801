//! The simulation worker's module (built by trunk): what `sim-worker.js`, a Web Worker,
//! calls. It holds the core and the page layer's typed message (the job it is handed, the
//! answer it hands back) and the runners of each job, and nothing of the page: each call
//! runs whole, off the page's thread.

#[cfg(target_arch = "wasm32")]
mod exports {
    use page::run::whole::run_whole;
    use page::shared::words::Words;
    use page::shared::worker_message::Job;
    use page::sweep::share::run_slice;
    use wasm_bindgen::prelude::*;

    /// Does the job whose words are `job` (`page::shared::worker_message::Job`): a slice
    /// of a sweep or of the matrix, or a run computed whole, which calls `progress(done,
    /// total, nowUs)` every so often. Its answer's words (`Answer`), or why not.
    #[wasm_bindgen]
    pub fn work(
        job: js_sys::BigUint64Array,
        progress: &js_sys::Function,
    ) -> Result<js_sys::BigUint64Array, JsError> {
        let job = Job::decode(&job.to_vec()).map_err(|e| JsError::new(&e.sentence()))?;
        let answer = match job {
            Job::Slice { work, runs } => run_slice(&work, runs),
            Job::Run { scenario } => run_whole(&scenario, |done, total, now_us| {
                let [done, total, now_us] =
                    [done, total, now_us].map(|v| JsValue::from_f64(v as f64));
                let _ = progress.call3(&JsValue::NULL, &done, &total, &now_us);
            }),
        }
        .map_err(|why| JsError::new(&why))?;
        Ok(js_sys::BigUint64Array::from(answer.encode().as_slice()))
    }

    /// The worker's memory now, in bytes: a WebAssembly memory only grows, so after a
    /// run this is the most the run held at once (what the benchmark reports).
    #[wasm_bindgen]
    pub fn memory_bytes() -> f64 {
        (core::arch::wasm32::memory_size(0) * 65_536) as f64
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is the lab's simulation worker: trunk builds it for the browser. The CLI is `cargo run --bin ratelab`.");
}

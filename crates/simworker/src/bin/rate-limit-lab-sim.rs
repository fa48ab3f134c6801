//! The simulation worker's module (built by trunk): what `sim-worker.js`, a Web Worker,
//! calls. It holds the core and the page layer's readers of the work it is handed, and
//! nothing of the page: each call runs whole, off the page's thread.

#[cfg(target_arch = "wasm32")]
mod exports {
    use page::run::whole::run_whole;
    use page::shared::words::Words;
    use page::sweep::share::{SweepShare, Work};
    use wasm_bindgen::prelude::*;

    /// Runs runs `from..to` of the sweep of kind `work` (`sweep` or `psweep`) that the
    /// sweep page's `query` names: their results, flat, in order.
    #[wasm_bindgen]
    pub fn sweep_share(
        work: String,
        query: String,
        from: u64,
        to: u64,
    ) -> Result<js_sys::BigUint64Array, JsError> {
        let work = work
            .parse::<Work>()
            .map_err(|e| JsError::new(&e.sentence()))?;
        let share = SweepShare {
            work,
            query,
            runs: from..to,
        };
        let values = share.run().map_err(|why| JsError::new(&why))?;
        Ok(js_sys::BigUint64Array::from(values.as_slice()))
    }

    /// Runs the scenario of a run's `query` to its end, calling `progress(done, total,
    /// nowUs)` every so often: its final snapshot, flat (`page::run::whole::snapshot_values`).
    #[wasm_bindgen]
    pub fn run(
        query: String,
        progress: &js_sys::Function,
    ) -> Result<js_sys::BigUint64Array, JsError> {
        let values = run_whole(&query, |done, total, now_us| {
            let [done, total, now_us] = [done, total, now_us].map(|v| JsValue::from_f64(v as f64));
            let _ = progress.call3(&JsValue::NULL, &done, &total, &now_us);
        })
        .map_err(|why| JsError::new(&why))?;
        Ok(js_sys::BigUint64Array::from(values.as_slice()))
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

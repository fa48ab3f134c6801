//! `window.rateLimitLab`: what an embedding page or a test can read after a run.

use js_sys::{Object, Reflect};
use sim::{Scenario, StatField, Stats};
use wasm_bindgen::JsValue;

/// Publishes a finished run as `window.rateLimitLab.lastRun`: the core's `Stats` (every
/// field, by the CLI's JSON names, as numbers), plus `strategy`, `customers`, and `seed`
/// as a string (a u64 seed can exceed what a JavaScript number holds exactly).
pub fn publish_last_run(scenario: &Scenario, stats: &Stats) {
    let Some(window) = web_sys::window() else {
        return;
    };
    // Every field by its JSON name, as the CLI's JSON names them. Each is an integer far
    // below 2^53, so a JavaScript number holds it exactly.
    let run: JsValue = Object::new().into();
    for field in StatField::ALL {
        let _ = Reflect::set(
            &run,
            &field.as_str().into(),
            &(stats.get(field) as f64).into(),
        );
    }
    let _ = Reflect::set(&run, &"strategy".into(), &scenario.strategy.as_str().into());
    let _ = Reflect::set(&run, &"seed".into(), &scenario.seed.to_string().into());
    let _ = Reflect::set(&run, &"customers".into(), &scenario.customers.into());
    let ns = match Reflect::get(&window, &"rateLimitLab".into()) {
        Ok(v) if v.is_object() => v,
        _ => {
            let ns: JsValue = Object::new().into();
            let _ = Reflect::set(&window, &"rateLimitLab".into(), &ns);
            ns
        }
    };
    let _ = Reflect::set(&ns, &"lastRun".into(), &run);
}

//! rate-limit-lab: a deterministic simulation of an imperfect payment API and the
//! clients that call it, with a browser front end.
//!
//! Three layers, each importing only the ones before it (`tests/layers.rs` fails the
//! build otherwise): the core, the page layer, and the browser app.

#![deny(missing_docs, unreachable_pub)]

/// The pure simulation core: provider, client strategies, limiters, stats.
pub mod sim;

/// The pure page layer: the URL, labels, sentences, number formats, exports and the CLI
/// line that reproduces a page. It compiles natively and is tested natively.
pub mod page;

/// The real service and the real client: the core's provider and limiters behind HTTP,
/// and its client strategies on a real clock. Native only.
#[cfg(not(target_arch = "wasm32"))]
pub mod net;

/// The browser app: thin Leptos that renders what the core and the page layer give it,
/// and owns no rule.
#[cfg(target_arch = "wasm32")]
pub mod ui;

/// The browser build's allocator: talc instead of the default dlmalloc, for a smaller
/// `.wasm` (README, "Sizes").
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

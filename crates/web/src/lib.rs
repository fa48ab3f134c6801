//! rate-limit-lab in the browser: thin Leptos over the core ([`sim`]) and the page layer
//! ([`page`]). Components render what those give them: a playback's snapshot or
//! the record of its simulation, a comparison's runs, a sweep's distributions, an
//! experiment's cells. Their words, number formats, links and commands come from the
//! page layer (`page::query::links` and each page's `query` write every URL,
//! `page::site::words` every `ratelab` line). None owns a rule (what becomes of a request, which numbers a run accepts) or writes a URL or a
//! command by hand.
//!
//! The browser's mechanisms are each written once: [`use_animation_frame`] (the frame
//! loop that playbacks and sweeps run on), [`canvas`] (a canvas's context, pixel ratio
//! and colours), [`observe`] (intersection and resize observers), [`use_measured`]
//! (what is read from layout once), [`erase`] (every effect and every listener of a
//! module through one closure type each) and [`dom`] (reading and writing the page
//! layer's markup: a control's value, an element's text, an event's target).

#![cfg(target_arch = "wasm32")]
#![deny(missing_docs, unreachable_pub)]

/// The browser build's allocator: talc instead of the default dlmalloc, for a smaller
/// `.wasm` (docs/architecture.md).
#[cfg(not(target_feature = "atomics"))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

pub mod client;
pub mod compare;
pub mod embed;
pub mod headers;
pub mod limits;
pub mod matrix;
pub mod run;
pub mod shared;
pub mod sweep;

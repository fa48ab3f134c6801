//! rate-limit-lab: a deterministic simulation of an imperfect payment API and the
//! clients that call it, with a browser front end.

/// The pure simulation core: provider, client strategies, limiters, stats.
pub mod sim;

/// The page's URL query: what it asks for and what was wrong with it (pure).
pub mod query;

/// The browser app: a thin Leptos layer that reads snapshots of the core.
#[cfg(target_arch = "wasm32")]
pub mod ui;

//! rate-limit-lab's simulation core. Pure Rust: no UI, no words for readers, no URLs, no
//! wall clock, no OS randomness. A scenario's seed fixes every number a run produces, on
//! every platform. It builds on its own: its only dependencies are serde, a seeded
//! generator and a structured-field parser (`Cargo.toml`).

#![deny(missing_docs, unreachable_pub)]

pub mod exchange;
pub mod flow;
pub mod foreign;
pub mod headers;
pub mod incident;
pub mod lab;
pub mod limiter;
pub mod matrix;
pub mod moments;
pub mod names;
pub mod next_month;
pub mod outage;
pub mod param;
pub mod param_sweep;
pub mod provider;
pub mod queue;
pub mod record;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod stats;
pub mod story;
pub mod strategy;
pub mod sweep;
pub mod time;
pub mod timeline;
pub mod traffic;
pub mod waits;
pub mod world;

/// The fleet is one of the lab's experiments (`lab::fleet`), named here as well.
pub use lab::fleet;
pub use param::{Param, ScenarioError};
pub use scenario::Scenario;
pub use stats::{StatField, Stats};
pub use strategy::StrategyName;
pub use world::{run, Simulation, Snapshot};

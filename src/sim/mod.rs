//! The simulation core. Pure Rust: no UI, no wall clock, no OS randomness. A scenario's
//! seed fixes every number a run produces, on every platform.

pub mod export;
pub mod headers;
pub mod lab;
pub mod limiter;
pub mod provider;
pub mod queue;
pub mod record;
pub mod rng;
pub mod scenario;
pub mod stats;
pub mod story;
pub mod strategy;
pub mod sweep;
pub mod time;
pub mod timeline;
pub mod world;

pub use scenario::Scenario;
pub use stats::Stats;
pub use strategy::StrategyName;
pub use world::{run, Simulation, Snapshot};

/// The member of `all` called `text` by `name`, or a sentence saying which `what` was
/// not found and listing the ones there are.
pub fn by_name<T: Copy>(
    all: &[T],
    name: fn(T) -> &'static str,
    text: &str,
    what: &str,
) -> Result<T, String> {
    all.iter()
        .copied()
        .find(|&x| name(x) == text)
        .ok_or_else(|| {
            let names: Vec<_> = all.iter().map(|&x| name(x)).collect();
            format!("unknown {what} '{text}': use one of {}", names.join(", "))
        })
}

//! A fleet: one published limit held by several instances behind a balancer.
//!
//! [`setup`] names the choices (how many instances, which balancer, which way the limit
//! is held, the store's round trip) and which combinations are refused; [`engine`] is
//! the fleet as a state machine that any runner steps, one read, decision, write, script
//! or hop at a time; [`measure`] runs the limits lab's boundary burst and noisy
//! neighbour through it over seeds, against the one-process answer; [`race`] is two
//! instances racing for the last request of a shared counter, step by step.

pub mod engine;
pub mod measure;
pub mod race;
pub mod setup;

pub use engine::{FleetRun, FleetStep, StepKind};
pub use setup::{Balancer, FleetError, FleetMode, FleetSetup};

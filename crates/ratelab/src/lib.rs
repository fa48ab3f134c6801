//! `ratelab`'s library: the real thing beside the model: the provider and the limiters as a local HTTP
//! service ([`server`]), with the report card of any client that calls it set beside the
//! built-in strategies' ([`report`]), and the client strategies on a real clock over real
//! HTTP ([`client`]).
//!
//! Neither holds a rule of its own. The server puts the core's [`Provider`] and limiters
//! behind HTTP and tells them the time as microseconds since it started; the client
//! drives the core's [`ChargeTask`] state machine with the microseconds since its run
//! started. The wall clock is read here and nowhere in the core.
//!
//! Native only: tokio, axum and reqwest are this crate's, and no crate of the browser
//! build depends on it. The command line itself is `src/bin/ratelab`.
//!
//! [`Provider`]: sim::provider::Provider
//! [`ChargeTask`]: sim::strategy::charge::ChargeTask

#![deny(missing_docs, unreachable_pub)]

pub mod client;
pub mod dist;
pub mod doors;
pub mod keys;
pub mod report;
pub mod server;
pub mod store;

/// The port `ratelab serve` listens on unless told otherwise: the second article's, so
/// its scripts run unchanged.
pub const DEFAULT_PORT: u16 = 55541;

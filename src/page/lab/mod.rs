//! The limiter lab in words: the sentences of each experiment's errors. The core
//! ([`crate::sim::lab`]) says which parameter is out of bounds; this says it to a reader.

pub mod burst;
pub mod clients;
pub mod herd;
pub mod memory;
pub mod neighbour;
pub mod units;

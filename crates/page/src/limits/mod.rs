//! The limits page: the limiter lab's experiments, their settings, charts, tables and errors.

pub mod burst;
pub mod charts;
pub mod clients;
pub mod fleet;
pub mod herd;
pub mod lab;
pub mod memory;
pub mod neighbour;
pub mod query;
pub mod race;
pub mod settings;
pub mod units;
pub mod view;

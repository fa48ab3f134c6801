//! The sweep page: seed sweeps and parameter sweeps, their forms, progress, charts and tables.

pub mod histogram;
pub mod param_sweep;
pub mod param_sweep_chart;
pub mod query;
pub mod share;
pub mod sweep_forms;
pub mod sweep_progress;
pub mod views;

//! The sweep page: seed sweeps and parameter sweeps.

pub mod entry;
pub mod param_sweep_chart;
pub mod param_sweep_view;
pub mod sweep_form;
pub mod sweep_task;
pub mod sweep_view;

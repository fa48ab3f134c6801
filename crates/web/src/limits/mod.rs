//! The limits page: the limiter lab's experiments, each with its knobs, chart and table.

pub mod chart_width;
pub mod entry;
pub mod experiment_view;
pub mod fleet_view;
pub mod knobs;
pub mod limits_page;
pub mod race_view;
pub mod section;

//! The limits section: the limiter a server publishes and the headers a client reads.

pub mod cells;
pub mod chart_width;
pub mod experiment_view;
pub mod header_reader;
pub mod headers_view;
pub mod knobs;
pub mod reader_result;
pub mod section;

pub use section::LimitsSection;

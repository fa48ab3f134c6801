//! The client view: a reader's own client in an editor, run in the sandbox on the
//! simulated clock, and judged on the same stage as the built-in strategies.

pub mod client_page;
pub mod client_results;
pub mod client_run;
pub mod code_editor;
pub mod entry;
pub mod sandbox_frame;

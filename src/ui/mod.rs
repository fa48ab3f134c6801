//! The browser app. Every component reads the core's snapshots and formats them; none
//! of them decides what a request's fate is.

pub mod app;
pub mod bridge;
pub mod charges_section;
pub mod code_view;
pub mod compare_view;
pub mod controls;
pub mod customer_grid;
pub mod intro;
pub mod lab;
pub mod notices;
pub mod page_query;
pub mod progress;
pub mod run_timeline;
pub mod run_view;
pub mod stats_panel;
pub mod story_panel;
pub mod strategy_note;
pub mod strategy_picker;
pub mod summary;
pub mod sweep_view;
pub mod timeline;
pub mod use_playback;

pub use app::App;

/// Mounts the app into `<body>`.
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

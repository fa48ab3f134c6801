//! The browser app. Every component reads the core's snapshots and formats them; none
//! of them decides what a request's fate is.

pub mod app;
pub mod bridge;
pub mod charges_section;
pub mod code_view;
pub mod compare_view;
pub mod controls;
pub mod customer_grid;
pub mod embed;
pub mod export_buttons;
pub mod fmt;
pub mod intro;
pub mod lab;
pub mod notices;
pub mod page_query;
pub mod params_panel;
pub mod progress;
pub mod run_state;
pub mod run_timeline;
pub mod run_view;
pub mod stats_panel;
pub mod story_panel;
pub mod strategy_note;
pub mod strategy_picker;
pub mod summary;
pub mod sweep_view;
pub mod timeline;
pub mod use_measured;
pub mod use_media;
pub mod use_playback;
pub mod use_visibility;
pub mod widget;

pub use app::App;

/// Mounts widgets into a host page's `[data-rate-limit-lab]` elements, or, on the lab's
/// own page, the whole app into `<body>`.
pub fn mount() {
    console_error_panic_hook::set_once();
    if embed::mount_widgets() == 0 {
        leptos::mount::mount_to_body(App);
    }
}

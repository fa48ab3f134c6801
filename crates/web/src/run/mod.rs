//! The run page: one strategy played back, with its controls, stage, timeline, customers, story, code view, parameters and guided walk.

pub mod break_button;
pub mod code_view;
pub mod controls;
pub mod customer_grid;
pub mod entry;
pub mod export_buttons;
pub mod harm_switch;
pub mod intro;
pub mod key_counters;
pub mod knobs;
pub mod motion_note;
pub mod params_form;
pub mod params_panel;
pub mod run_keys;
pub mod run_page;
pub mod run_state;
pub mod run_timeline;
pub mod run_view;
pub mod stats_panel;
pub mod story_panel;
pub mod strategy_note;
pub mod strategy_picker;
pub mod summary;
pub mod tour_card;
pub mod use_playback;
pub mod verdict_card;

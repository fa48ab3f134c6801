//! The run page: one strategy played back, its controls, stage, story, keys, code view, the numbers' form (the compare page's too) and guided walk. The embedded widget is a compact run page.

pub mod code;
pub mod controls;
pub mod equivalents;
pub mod export;
pub mod export_bar;
pub mod flow;
pub mod hand_over;
pub mod incident;
pub mod intro;
pub mod keys;
pub mod knobs;
pub mod memory;
pub mod model;
pub mod note;
pub mod opening;
pub mod params_form;
pub mod picker;
pub mod query;
pub mod stage;
pub mod story;
pub mod timeline;
pub mod tour;
pub mod whole;
pub mod widget;

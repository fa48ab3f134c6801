//! The widget: script widgets in a host page, and the framed page for an iframe.

pub mod entry;
pub mod host;
pub mod widget;

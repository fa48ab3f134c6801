//! What several pages share: the browser's mechanisms, each written once (the frame loop, canvas set-up, observers, measured layout, effects and listeners through one closure type, the DOM reads and writes), the page frame, tabs, the explore pages' frame and the timeline.

pub mod bind;
pub mod bridge;
pub mod canvas;
pub mod dom;
pub mod entry;
pub mod erase;
pub mod explore_page;
pub mod fetch;
pub mod frame;
pub mod later;
pub mod live;
pub mod observe;
pub mod page_query;
pub mod part;
pub mod progress;
pub mod read;
pub mod story_panel;
pub mod tabs;
pub mod timeline;
pub mod use_animation_frame;
pub mod use_measured;
pub mod use_media;
pub mod use_visibility;
pub mod view_tabs;
pub mod workers;

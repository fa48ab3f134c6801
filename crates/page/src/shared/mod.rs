//! What several pages share: number formats, markup, links and command lines, names, the parameter and stat tables as readers meet them, titles and sections.

pub mod budget;
pub mod cut;
pub mod door;
pub mod explore;
pub mod foreign;
pub mod format;
pub mod legend;
pub mod limiter;
pub mod links;
pub mod live;
pub mod markup;
pub mod names;
pub mod params;
pub mod params_form;
pub mod progress;
pub mod report;
pub mod sections;
pub mod slices;
pub mod slot;
pub mod stats;
pub mod ticks;
pub mod titles;
pub mod words;
pub mod worker_message;

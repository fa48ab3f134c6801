//! What several pages share, at the bottom of the page layer (it names no other folder of
//! it): number formats, words, markup and slots, names, the parameter and stat tables as
//! readers meet them, titles, progress bars and the live widgets' mechanism.

pub mod budget;
pub mod cut;
pub mod door;
pub mod foreign;
pub mod format;
pub mod legend;
pub mod limiter;
pub mod live;
pub mod markup;
pub mod names;
pub mod odds;
pub mod params;
pub mod progress;
pub mod report;
pub mod slices;
pub mod slot;
pub mod stats;
pub mod ticks;
pub mod titles;
pub mod words;
pub mod worker_message;

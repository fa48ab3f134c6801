//! The headers page: the reader of a pasted header block, and the sentences for a header that gives no wait.

pub mod faults;
pub mod intro;
pub mod naive;
pub mod reader;
pub mod view;

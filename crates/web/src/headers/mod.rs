//! The headers page: the headers our bucket sends, and a reader for any header a client may get.

pub mod entry;
pub mod header_reader;
pub mod headers_page;
pub mod headers_view;
pub mod reader_result;

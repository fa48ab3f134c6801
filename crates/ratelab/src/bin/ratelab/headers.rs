//! `ratelab headers read`: a header block on standard input, read by the core's reader.

use crate::args::Args;
use page::headers::reader::{parse_block_bytes, reading_json, reading_text, MAX_BLOCK_BYTES};
use sim::headers::read_headers;
use sim::time::US_PER_S;
use std::io::Read;

/// Reads the block, at `--now` or this computer's clock, and prints the reading.
pub fn read(args: &Args) -> Result<String, String> {
    let now_s = match args.get::<u64>("now") {
        Some(now_s) => now_s,
        // The CLI may read a clock; the core never does, it is handed this number.
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_err(|_| "this computer's clock is before 1970: give --now".to_string())?
            .as_secs(),
    };
    // Read at most one byte past the limit: a 10 MB line is refused, not slurped.
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_BLOCK_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("standard input cannot be read: {e}"))?;
    let pairs = parse_block_bytes(&bytes).map_err(|e| e.to_string())?;
    let reading = read_headers(&pairs, now_s.saturating_mul(US_PER_S));
    Ok(if args.has("json") {
        serde_json::to_string_pretty(&reading_json(&pairs, &reading)).expect("a reading serialises")
    } else {
        reading_text(&pairs, &reading)
    })
}

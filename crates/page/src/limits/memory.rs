//! The memory experiment in words: bytes as megabytes, its cells, its table and its
//! errors.

use super::lab::Cells;
use crate::shared::format::count;
use crate::shared::words::Words;
use sim::lab::memory::{MemoryError, MemoryResult, MAX_CALLERS};
use sim::lab::ExperimentName;
use sim::limiter::MAX_LIMIT;
use std::fmt;

/// Bytes for people, in decimal megabytes: "80.1 MB", "0.27 MB".
pub fn megabytes(bytes: u64) -> String {
    if bytes >= 10_000_000 {
        let tenths = (bytes + 50_000) / 100_000;
        format!("{}.{} MB", count(tenths / 10), tenths % 10)
    } else {
        let hundredths = (bytes + 5_000) / 10_000;
        format!("{}.{:02} MB", hundredths / 100, hundredths % 100)
    }
}

/// 10^`exp` bytes as a log axis labels it: "1 B", "100 B", "10 kB", "1 GB".
pub fn decade_label(exp: u32) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let unit = (exp / 3) as usize;
    match UNITS.get(unit) {
        Some(u) => format!("{} {u}", 10u64.pow(exp % 3)),
        None => format!("1e{exp} B"),
    }
}

/// The decades a log axis needs to hold `max` bytes: 10^0 to the first power of ten at
/// or above it.
pub fn decades(max: u64) -> u32 {
    let mut exp = 0;
    while 10u64.saturating_pow(exp) < max {
        exp += 1;
    }
    exp.max(1)
}

/// `memory.fixedBytes`, `memory.fixedPerCallerBytes`, `memory.fixedMb`, the same for
/// sliding and bucket, then `memory.keyBytes`, `memory.callers`, `memory.perWindow` and
/// `memory.logToBucketRatio`.
pub fn cells(r: &MemoryResult) -> Vec<(String, String)> {
    let mut c = Cells::new(ExperimentName::Memory);
    for row in &r.rows {
        let name = row.limiter.as_str();
        c.put_of(name, "Bytes", row.total_bytes);
        c.put_of(name, "PerCallerBytes", row.per_caller_bytes);
        c.put_of(name, "Mb", megabytes(row.total_bytes));
    }
    c.put("keyBytes", r.key_bytes);
    c.put("callers", r.callers);
    c.put("perWindow", r.per_window);
    c.put("logToBucketRatio", r.log_to_bucket_ratio);
    c.done()
}

/// The table.
pub fn text(r: &MemoryResult) -> String {
    let mut out = format!(
        "memory: {} callers at {} requests per window\n\
         counted: state payload (integers, 8 bytes per logged instant) and key bytes ({});\n\
         not counted: map nodes, pointers, spare capacity, allocator overhead\n\n\
         {:<10}{:>18}{:>16}{:>12}\n",
        count(r.callers.into()),
        count(r.per_window.into()),
        count(r.key_bytes),
        "limiter",
        "bytes per caller",
        "total bytes",
        "total"
    );
    for row in &r.rows {
        out.push_str(&format!(
            "{:<10}{:>18}{:>16}{:>12}\n",
            row.limiter.as_str(),
            count(row.per_caller_bytes),
            count(row.total_bytes),
            megabytes(row.total_bytes)
        ));
    }
    out.push_str(&format!(
        "\nthe sliding log needs {}x the token bucket's memory",
        count(r.log_to_bucket_ratio)
    ));
    out
}

impl Words for MemoryError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::Callers => write!(f, "give 1 to {} callers", count(MAX_CALLERS.into())),
            MemoryError::PerWindow => write!(
                f,
                "a caller makes 1 to {} requests per window",
                count(MAX_LIMIT.into())
            ),
            MemoryError::Window => f.write_str("the window must be at least 1 µs per request"),
            MemoryError::Limiter(why) => why.words(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab::memory::{run, MemoryParams};

    #[test]
    fn log_axis_labels_read_as_sizes() {
        assert_eq!(decade_label(0), "1 B");
        assert_eq!(decade_label(2), "100 B");
        assert_eq!(decade_label(4), "10 kB");
        assert_eq!(decade_label(9), "1 GB");
        assert_eq!(decades(1), 1);
        assert_eq!(decades(80_000_000), 8);
        assert_eq!(decades(100_000_000), 8);
        assert_eq!(decades(100_000_001), 9);
    }

    #[test]
    fn megabytes_read_well() {
        assert_eq!(megabytes(80_108_890), "80.1 MB");
        assert_eq!(megabytes(268_890), "0.27 MB");
        assert_eq!(megabytes(1_234_567_890), "1,234.6 MB");
    }

    #[test]
    fn cells_and_table_carry_every_limiter() {
        let r = run(&MemoryParams::default()).unwrap();
        let cells = cells(&r);
        assert!(cells.contains(&("memory.slidingMb".into(), "80.1 MB".into())));
        assert!(cells.contains(&("memory.bucketMb".into(), "0.27 MB".into())));
        let t = text(&r);
        assert!(t.starts_with("memory: 10,000 callers at 1,000 requests per window\n"));
        assert!(t.ends_with("needs 298x the token bucket's memory"), "{t}");
    }

    #[test]
    fn bad_parameters_are_sentences() {
        let p = MemoryParams {
            callers: 0,
            ..MemoryParams::default()
        };
        assert_eq!(
            run(&p).unwrap_err().sentence(),
            "give 1 to 10,000,000 callers"
        );
        assert_eq!(
            MemoryError::PerWindow.sentence(),
            format!(
                "a caller makes 1 to {} requests per window",
                count(MAX_LIMIT.into())
            )
        );
        assert_eq!(
            MemoryError::Window.sentence(),
            "the window must be at least 1 µs per request"
        );
    }
}

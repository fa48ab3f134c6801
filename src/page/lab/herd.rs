//! The thundering herd in words: its cells, its table with the histogram, and its
//! errors.

use super::{round_ms, Cells};
use crate::page::format::count;
use crate::sim::lab::herd::{HerdError, HerdResult, MAX_CLIENTS};
use crate::sim::lab::ExperimentName;
use crate::sim::time::{secs, US_PER_MS};
use std::fmt;

/// `herd.noJitterPeakPerMs`, `herd.noJitterPeakPerBin`, `herd.noJitterFirstMs`,
/// `herd.noJitterLastMs`, the same for `fullJitter`, then `herd.clients`,
/// `herd.retryAfterS` and `herd.binMs`.
pub fn cells(r: &HerdResult) -> Vec<(String, String)> {
    let mut c = Cells::new(ExperimentName::Herd);
    for (label, case) in [("noJitter", &r.no_jitter), ("fullJitter", &r.full_jitter)] {
        c.put(&format!("{label}PeakPerMs"), case.peak_per_ms);
        c.put(&format!("{label}PeakPerBin"), case.peak_per_bin);
        c.put(&format!("{label}FirstMs"), case.first_us / US_PER_MS);
        c.put(&format!("{label}LastMs"), case.last_us / US_PER_MS);
    }
    c.put("clients", r.clients);
    c.put("retryAfterS", r.retry_after_us / secs(1));
    c.put("binMs", round_ms(r.bin_us));
    c.done()
}

/// The table and the histogram.
pub fn text(r: &HerdResult) -> String {
    let mut out = format!(
        "herd: {} clients are refused at the same instant and all read a {} s Retry-After\n\
         full jitter: wake = wait + uniform(0, wait)\n\n{:<22}{:>12}{:>14}\n",
        count(r.clients.into()),
        r.retry_after_us / secs(1),
        "",
        "no jitter",
        "full jitter"
    );
    let (n, f) = (&r.no_jitter, &r.full_jitter);
    let rows = [
        (
            "first wake-up (ms)",
            n.first_us / US_PER_MS,
            f.first_us / US_PER_MS,
        ),
        (
            "last wake-up (ms)",
            n.last_us / US_PER_MS,
            f.last_us / US_PER_MS,
        ),
        ("peak per ms", n.peak_per_ms.into(), f.peak_per_ms.into()),
        ("peak per bin", n.peak_per_bin.into(), f.peak_per_bin.into()),
    ];
    for (label, without, with) in rows {
        out.push_str(&format!(
            "{label:<22}{:>12}{:>14}\n",
            count(without),
            count(with)
        ));
    }
    out.push_str(&format!(
        "\nwake-ups per {} ms bin (from the refusal)\n{:>8}{:>12}{:>14}\n",
        round_ms(r.bin_us),
        "ms",
        "no jitter",
        "full jitter"
    ));
    // Bins before the wait are empty by construction; print from the first wake-up.
    let from = (r.retry_after_us / r.bin_us) as usize;
    for b in &r.bins[from..] {
        out.push_str(&format!(
            "{:>8}{:>12}{:>14}  {}\n",
            b.start_ms,
            b.no_jitter,
            b.full_jitter,
            "#".repeat(b.full_jitter.min(60) as usize)
        ));
    }
    out.trim_end().to_string()
}

impl fmt::Display for HerdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HerdError::Clients => write!(f, "give 1 to {} clients", count(MAX_CLIENTS.into())),
            HerdError::RetryAfter(why) => write!(f, "{why}"),
            // The test below holds the core's bound to this sentence's hour.
            HerdError::WaitOutOfRange => {
                f.write_str("the herd needs a Retry-After of 1 s to 1 hour")
            }
            HerdError::Bin => f.write_str(
                "a histogram bin must be 1 ms wide at least, and no wider than the wait",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::lab::herd::{run, HerdParams, MAX_RETRY_AFTER_US};

    #[test]
    fn cells_and_table_carry_both_cases() {
        let r = run(&HerdParams::default(), 1).unwrap();
        let cells = cells(&r);
        assert_eq!(cells[0], ("herd.noJitterPeakPerMs".into(), "100".into()));
        assert_eq!(cells.last(), Some(&("herd.binMs".into(), "50".into())));
        let t = text(&r);
        assert!(t.contains("\npeak per ms                    100"), "{t}");
        assert!(
            t.contains("\nwake-ups per 50 ms bin (from the refusal)\n"),
            "{t}"
        );
    }

    #[test]
    fn bad_parameters_are_sentences() {
        let p = HerdParams {
            clients: 0,
            ..HerdParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().to_string(),
            "give 1 to 1,000,000 clients"
        );
        let p = HerdParams {
            retry_after: "-1".into(),
            ..HerdParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().to_string(),
            "Retry-After: '-1' is negative: a wait cannot point into the past",
            "the header reader's own sentence"
        );
        assert_eq!(MAX_RETRY_AFTER_US, secs(3_600));
        assert_eq!(
            HerdError::WaitOutOfRange.to_string(),
            "the herd needs a Retry-After of 1 s to 1 hour"
        );
        assert_eq!(
            HerdError::Bin.to_string(),
            "a histogram bin must be 1 ms wide at least, and no wider than the wait"
        );
    }
}

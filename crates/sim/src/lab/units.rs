//! Experiment 2, units: the same wait written the four ways servers write it, each read
//! by the naive `Number(value) * 1000` and by [`wait_from_header`].
//!
//! The naive reading is right for the two delta-seconds forms and catastrophically wrong
//! for the other two: an HTTP-date is NaN, which a timer treats as "now", and a Unix
//! timestamp becomes a sleep of decades. Both fail silently.

use super::LAB_EPOCH_S;
use crate::headers::{
    http_date, naive_wait, wait_from_header, HeaderError, NaiveWait, WaitForm, EPOCH_CUTOFF_S,
    MAX_WAIT_S,
};
use crate::time::US_PER_S;
use serde::Serialize;

/// The experiment's two numbers. The defaults are the article's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitsParams {
    /// The simulated "now", in epoch seconds.
    pub now_epoch_s: u64,
    /// The wait every header means.
    pub wait_s: u64,
}

impl Default for UnitsParams {
    fn default() -> Self {
        Self {
            now_epoch_s: LAB_EPOCH_S,
            wait_s: 120,
        }
    }
}

/// Why the units experiment cannot run with these numbers (the page layer writes the
/// sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitsError {
    /// "Now" is at or before [`EPOCH_CUTOFF_S`]: a timestamp could not be told from a
    /// wait.
    NowTooEarly,
    /// The wait is outside 1 to [`MAX_WAIT_S`] seconds.
    WaitOutOfRange {
        /// The wait given, in seconds.
        wait_s: u64,
    },
    /// A header the experiment wrote could not be read back, for the reader's reason.
    Header(HeaderError),
}

crate::error_display!(UnitsError, "units experiment refused");

/// One way of writing the wait, and both readings of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnitsRow {
    /// The row's name in cell keys, e.g. `retryAfterDate`.
    pub id: &'static str,
    /// The header.
    pub header: &'static str,
    /// Its value.
    pub value: String,
    /// What the naive reading sleeps; `None` where `Number(value)` is NaN.
    pub naive_wait_us: Option<u64>,
    /// What the correct reading sleeps.
    pub correct_wait_us: u64,
    /// How the correct reading understood the value.
    pub form: WaitForm,
}

/// The units experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnitsResult {
    /// The simulated "now", in epoch seconds.
    pub now_epoch_s: u64,
    /// The same instant as an HTTP-date.
    pub now_http_date: String,
    /// The wait every row means.
    pub wait_s: u64,
    /// One row per way of writing it.
    pub rows: Vec<UnitsRow>,
}

/// Runs the experiment.
pub fn run(p: &UnitsParams) -> Result<UnitsResult, UnitsError> {
    if p.now_epoch_s <= EPOCH_CUTOFF_S {
        return Err(UnitsError::NowTooEarly);
    }
    if !(1..=MAX_WAIT_S).contains(&p.wait_s) {
        return Err(UnitsError::WaitOutOfRange { wait_s: p.wait_s });
    }
    let at_s = p.now_epoch_s + p.wait_s;
    let forms: [(&str, &str, String); 4] = [
        ("retryAfterSeconds", "Retry-After", p.wait_s.to_string()),
        ("retryAfterDate", "Retry-After", http_date(at_s)),
        ("rateLimitReset", "RateLimit-Reset", p.wait_s.to_string()),
        ("xRateLimitReset", "X-RateLimit-Reset", at_s.to_string()),
    ];
    let mut rows = Vec::new();
    for (id, header, value) in forms {
        let naive = naive_wait(&value);
        let correct = wait_from_header(header, &value, p.now_epoch_s * US_PER_S)
            .map_err(UnitsError::Header)?;
        rows.push(UnitsRow {
            id,
            header,
            naive_wait_us: match naive {
                NaiveWait::NotANumber => None,
                NaiveWait::Wait { us } => Some(us),
            },
            correct_wait_us: correct.wait_us,
            form: correct.form,
            value,
        });
    }
    Ok(UnitsResult {
        now_epoch_s: p.now_epoch_s,
        now_http_date: http_date(p.now_epoch_s),
        wait_s: p.wait_s,
        rows,
    })
}

impl UnitsResult {
    /// The row with this id.
    pub fn row(&self, id: &str) -> Option<&UnitsRow> {
        self.rows.iter().find(|r| r.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::secs;

    #[test]
    fn the_correct_reading_agrees_and_the_naive_one_does_not() {
        let r = run(&UnitsParams::default()).unwrap();
        assert_eq!(r.rows.len(), 4);
        for row in &r.rows {
            assert_eq!(row.correct_wait_us, secs(120), "{}", row.id);
        }
        let date = r.row("retryAfterDate").unwrap();
        assert_eq!(date.value, "Sun, 30 Aug 2026 10:42:59 GMT");
        assert_eq!(date.naive_wait_us, None);
        let epoch = r.row("xRateLimitReset").unwrap();
        assert_eq!(epoch.value, "1788086579");
        assert_eq!(epoch.form, WaitForm::EpochSeconds);
        assert_eq!(epoch.naive_wait_us, Some(secs(1_788_086_579)));
        for id in ["retryAfterSeconds", "rateLimitReset"] {
            assert_eq!(r.row(id).unwrap().naive_wait_us, Some(secs(120)), "{id}");
        }
    }

    #[test]
    fn another_now_moves_only_the_instant_forms() {
        let r = run(&UnitsParams {
            now_epoch_s: 2_000_000_000,
            wait_s: 30,
        })
        .unwrap();
        let epoch = r.row("xRateLimitReset").unwrap();
        assert_eq!(epoch.value, "2000000030");
        assert_eq!(epoch.naive_wait_us, Some(secs(2_000_000_030)));
        assert_eq!(r.row("retryAfterDate").unwrap().correct_wait_us, secs(30));
        assert_eq!(r.wait_s, 30);
    }

    #[test]
    fn bad_parameters_say_which() {
        let e = run(&UnitsParams {
            now_epoch_s: 5,
            wait_s: 120,
        });
        assert_eq!(e, Err(UnitsError::NowTooEarly));
        let e = run(&UnitsParams {
            wait_s: 0,
            ..UnitsParams::default()
        });
        assert_eq!(e, Err(UnitsError::WaitOutOfRange { wait_s: 0 }));
    }
}

//! The units experiment in words: each reading as a wait for people, its cells, its
//! table, its JSON and its errors.

use super::lab::{wait_text, Cells};
use crate::shared::words::Words;
use serde::Serialize;
use sim::headers::{WaitForm, EPOCH_CUTOFF_S, MAX_WAIT_S};
use sim::lab::units::{UnitsError, UnitsResult, UnitsRow};
use sim::lab::ExperimentName;
use std::fmt;

/// The naive reading for people, e.g. "no wait at all (NaN)" or "56.7 years".
pub fn naive_text(row: &UnitsRow) -> String {
    match row.naive_wait_us {
        None => format!("{} (NaN)", wait_text(0)),
        Some(us) => wait_text(us),
    }
}

/// The correct reading for people, e.g. "120 s".
pub fn correct_text(row: &UnitsRow) -> String {
    wait_text(row.correct_wait_us)
}

/// Per row `<id>Value`, `<id>Naive` and `<id>Correct` (e.g.
/// `units.retryAfterDateNaive`), then `units.now` and `units.waitS`.
pub fn cells(r: &UnitsResult) -> Vec<(String, String)> {
    let mut c = Cells::new(ExperimentName::Units);
    for row in &r.rows {
        c.put_of(row.id, "Value", &row.value);
        c.put_of(row.id, "Naive", naive_text(row));
        c.put_of(row.id, "Correct", correct_text(row));
    }
    c.put("now", &r.now_http_date);
    c.put("waitS", r.wait_s);
    c.done()
}

/// The table.
pub fn text(r: &UnitsResult) -> String {
    let mut out = format!(
        "units: \"wait {} s\" written four ways, read naively (Number(v) * 1000 ms) and correctly\n\
         now: {} ({})\n\n{:<19}{:<31}{:<24}{}\n",
        r.wait_s, r.now_http_date, r.now_epoch_s, "header", "value", "naive", "correct"
    );
    for row in &r.rows {
        out.push_str(&format!(
            "{:<19}{:<31}{:<24}{}\n",
            row.header,
            row.value,
            naive_text(row),
            correct_text(row)
        ));
    }
    out.trim_end().to_string()
}

/// The result as `--json` prints it: the core's fields in the core's order, each row with
/// its readings written out after their numbers.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct JsonUnits<'a> {
    now_epoch_s: u64,
    now_http_date: &'a str,
    wait_s: u64,
    rows: Vec<JsonRow<'a>>,
}

/// One row as `--json` prints it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonRow<'a> {
    id: &'a str,
    header: &'a str,
    value: &'a str,
    naive_wait_us: Option<u64>,
    naive: String,
    correct_wait_us: u64,
    correct: String,
    form: WaitForm,
}

impl<'a> JsonUnits<'a> {
    /// The JSON view of `r`.
    pub(super) fn of(r: &'a UnitsResult) -> Self {
        Self {
            now_epoch_s: r.now_epoch_s,
            now_http_date: &r.now_http_date,
            wait_s: r.wait_s,
            rows: r
                .rows
                .iter()
                .map(|row| JsonRow {
                    id: row.id,
                    header: row.header,
                    value: &row.value,
                    naive_wait_us: row.naive_wait_us,
                    naive: naive_text(row),
                    correct_wait_us: row.correct_wait_us,
                    correct: correct_text(row),
                    form: row.form,
                })
                .collect(),
        }
    }
}

impl Words for UnitsError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitsError::NowTooEarly => write!(
                f,
                "now must be a Unix time after {EPOCH_CUTOFF_S} s (2001), or a timestamp could \
                 not be told from a wait"
            ),
            UnitsError::WaitOutOfRange { wait_s } => {
                write!(
                    f,
                    "the wait must be 1 to {MAX_WAIT_S} seconds, got {wait_s}"
                )
            }
            UnitsError::Header(why) => why.words(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab::units::{run, UnitsParams};

    #[test]
    fn the_readings_read_well() {
        let r = run(&UnitsParams::default()).unwrap();
        for row in &r.rows {
            assert_eq!(correct_text(row), "120 s", "{}", row.id);
        }
        assert_eq!(
            naive_text(r.row("retryAfterDate").unwrap()),
            "no wait at all (NaN)"
        );
        assert_eq!(naive_text(r.row("xRateLimitReset").unwrap()), "56.7 years");
        assert_eq!(naive_text(r.row("rateLimitReset").unwrap()), "120 s");
        let r = run(&UnitsParams {
            now_epoch_s: 2_000_000_000,
            wait_s: 30,
        })
        .unwrap();
        assert_eq!(naive_text(r.row("xRateLimitReset").unwrap()), "63.4 years");
        assert_eq!(
            cells(&r).last(),
            Some(&("units.waitS".to_string(), "30".to_string()))
        );
        assert!(text(&r).contains("\nX-RateLimit-Reset  2000000030"));
    }

    /// The page's caption says what JavaScript does with the epoch read as a delay: its
    /// timer cannot hold it (a browser wraps it, Node fires after 1 ms); Python and Go
    /// would sleep for decades (the headers page says so). True over the whole range the
    /// page's knob takes.
    #[test]
    fn the_caption_s_claims_about_runtimes_hold_for_every_wait_the_page_takes() {
        use sim::headers::{naive_readings, GoSleep, PythonSleep};
        const DECADE_US: u64 = 10 * 365 * 86_400 * 1_000_000;
        for wait_s in [1, 120, 86_400, sim::headers::MAX_WAIT_S] {
            let r = run(&UnitsParams {
                wait_s,
                ..UnitsParams::default()
            })
            .unwrap();
            let epoch = r.row("xRateLimitReset").unwrap();
            let n = naive_readings(&epoch.value);
            assert!(n.js.overflows(), "{wait_s}: {:?}", n.js);
            assert_eq!(n.js.node_ms, 1, "{wait_s}");
            assert!(
                matches!(n.python, PythonSleep::Sleeps { us, near_limit: false } if us > DECADE_US),
                "{wait_s}: {:?}",
                n.python
            );
            assert!(
                matches!(n.go, GoSleep::Sleeps { ns, wrapped: false, .. } if ns as u64 / 1_000 > DECADE_US),
                "{wait_s}: {:?}",
                n.go
            );
        }
        let result = sim::lab::LabResult::Units(run(&UnitsParams::default()).unwrap());
        let caption = crate::limits::view::body_html(&result, None).into_string();
        assert!(caption.contains(
            "more than a JavaScript timer holds (a browser wraps it, Node fires after 1 ms)."
        ));
        assert!(
            !caption.contains("sleeps for decades."),
            "no JavaScript client sleeps that long"
        );
    }

    #[test]
    fn bad_parameters_are_sentences() {
        let e = run(&UnitsParams {
            now_epoch_s: 5,
            wait_s: 120,
        })
        .unwrap_err();
        assert_eq!(
            e.sentence(),
            "now must be a Unix time after 1000000000 s (2001), or a timestamp could not be \
             told from a wait"
        );
        let e = UnitsError::WaitOutOfRange { wait_s: 0 };
        assert_eq!(
            e.sentence(),
            format!("the wait must be 1 to {MAX_WAIT_S} seconds, got 0")
        );
    }
}

//! The limiter lab in words: each experiment's table for the command line, its flat
//! result cells, the sentences of its errors, and the JSON `ratelab limits --json`
//! prints. The core ([`sim::lab`]) keeps the numbers; everything here is written
//! from them.
//!
//! The cells, `("burst.fixedAccepted", "20")`, are what the browser page and the command
//! line both print: the page puts each in an element with `data-result="<key>"`, the
//! CLI's `--json` carries the same list under `cells`, so the two can be compared cell by
//! cell.

use crate::shared::format::count;
use serde::{Serialize, Serializer};
use sim::lab::{ExperimentName, LabResult};
use sim::time::{secs, US_PER_MS, US_PER_S};

/// The result cells, `("<experiment>.<field>", value)`, in display order.
pub fn cells(result: &LabResult) -> Vec<(String, String)> {
    match result {
        LabResult::Fleet(r) => super::fleet::cells(r),
        other => cells_on_page(other),
    }
}

/// [`cells`] as the limits page's module knows them: every experiment's but the fleet's,
/// whose cells its own module draws ([`super::fleet::draw_on_page`]); none for it here.
pub fn cells_on_page(result: &LabResult) -> Vec<(String, String)> {
    match result {
        LabResult::Burst(r) => super::burst::cells(r),
        LabResult::Units(r) => super::units::cells(r),
        LabResult::Clients(r) => super::clients::cells(r),
        LabResult::Neighbour(r) => super::neighbour::cells(r),
        LabResult::Memory(r) => super::memory::cells(r),
        LabResult::Herd(r) => super::herd::cells(r),
        LabResult::Fleet(_) => Vec::new(),
    }
}

/// The result as a plain-text table, as `ratelab limits <experiment>` prints it.
pub fn text(result: &LabResult) -> String {
    match result {
        LabResult::Burst(r) => super::burst::text(r),
        LabResult::Units(r) => super::units::text(r),
        LabResult::Clients(r) => super::clients::text(r),
        LabResult::Neighbour(r) => super::neighbour::text(r),
        LabResult::Memory(r) => super::memory::text(r),
        LabResult::Herd(r) => super::herd::text(r),
        LabResult::Fleet(r) => super::fleet::text(r),
    }
}

/// A result as `ratelab limits --json` prints it: the core's fields unchanged, and for
/// the units experiment each row's two readings written out beside their numbers
/// (`naive`, `correct`).
#[derive(Clone, Copy, Debug)]
pub struct JsonResult<'a>(pub &'a LabResult);

impl Serialize for JsonResult<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            LabResult::Units(r) => super::units::JsonUnits::of(r).serialize(serializer),
            other => other.serialize(serializer),
        }
    }
}

/// Result cells of one experiment, keyed `<experiment>.<field>`.
pub(crate) struct Cells {
    prefix: &'static str,
    cells: Vec<(String, String)>,
}

impl Cells {
    /// An empty list for `name`.
    pub(crate) fn new(name: ExperimentName) -> Self {
        Self {
            prefix: name.as_str(),
            cells: Vec::new(),
        }
    }

    /// Adds `<experiment>.<field>` = `value`.
    pub(crate) fn put(&mut self, field: &str, value: impl std::fmt::Display) {
        self.put_shown("", field, &value);
    }

    /// Adds `<experiment>.<who><field>` = `value`: one of a row's cells, such as
    /// `burst.fixedAccepted` for `who` "fixed" and `field` "Accepted".
    pub(crate) fn put_of(&mut self, who: &str, field: &str, value: impl std::fmt::Display) {
        self.put_shown(who, field, &value);
    }

    /// [`Cells::put`] and [`Cells::put_of`] behind one copy, whatever the value's type:
    /// one way to write a key.
    fn put_shown(&mut self, who: &str, field: &str, value: &dyn std::fmt::Display) {
        let key = format!("{}.{who}{field}", self.prefix);
        assert!(
            !self.cells.iter().any(|(k, _)| *k == key),
            "cell {key} is set twice"
        );
        self.cells.push((key, value.to_string()));
    }

    /// The finished list.
    pub(crate) fn done(self) -> Vec<(String, String)> {
        self.cells
    }
}

/// Seconds in a Julian year (365.25 days), the unit of the longest waits.
pub const SECONDS_PER_YEAR: u64 = 31_557_600;

/// A wait for people: "no wait at all", "250 ms", "120 s" or "56.7 years". Integer
/// arithmetic only (rounded half up), so every platform prints the same text.
pub fn wait_text(us: u64) -> String {
    let year_us = secs(SECONDS_PER_YEAR);
    if us == 0 {
        "no wait at all".into()
    } else if us < US_PER_S {
        format!("{} ms", (us + US_PER_MS / 2) / US_PER_MS)
    } else if us < year_us {
        format!("{} s", count((us + US_PER_S / 2) / US_PER_S))
    } else {
        // (us × 10 + year / 2) / year, in u64: a year in µs is a multiple of 20, and the
        // sum saturates only within half a tenth of u64::MAX, where it rounds the same.
        let tenth_us = year_us / 10;
        let tenths = us.saturating_add(tenth_us / 2) / tenth_us;
        format!("{}.{} years", tenths / 10, tenths % 10)
    }
}

/// Whole milliseconds in `us`, rounded to nearest: how result tables and cells print
/// durations.
pub fn round_ms(us: u64) -> u64 {
    (us + US_PER_MS / 2) / US_PER_MS
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab::run;
    use sim::time::ms;

    #[test]
    fn every_cell_is_prefixed_unique_and_plain() {
        for name in ExperimentName::ALL {
            let cells = cells(&run(name, 1));
            assert!(!cells.is_empty(), "{name}");
            for (k, v) in &cells {
                let field = k.strip_prefix(&format!("{name}.")).expect(k);
                assert!(
                    field.chars().all(|c| c.is_ascii_alphanumeric()),
                    "{k}: keys are camelCase words"
                );
                assert!(!v.is_empty() && !v.contains('\n'), "{k} = {v:?}");
            }
        }
    }

    #[test]
    fn every_table_starts_with_its_name() {
        for name in ExperimentName::ALL {
            let t = text(&run(name, 1));
            assert!(t.starts_with(&format!("{name}: ")), "{t}");
            assert!(!t.ends_with('\n'), "{t}");
        }
    }

    #[test]
    fn the_json_is_the_cores_with_the_readings_written_out() {
        for name in ExperimentName::ALL {
            let result = run(name, 1);
            let mut shown = serde_json::to_value(JsonResult(&result)).unwrap();
            if let Some(rows) = shown.get_mut("rows").and_then(|r| r.as_array_mut()) {
                for row in rows {
                    let row = row.as_object_mut().unwrap();
                    for words in ["naive", "correct"] {
                        if name == ExperimentName::Units {
                            assert!(row.remove(words).unwrap().is_string(), "{words}");
                        }
                    }
                }
            }
            assert_eq!(shown, serde_json::to_value(&result).unwrap(), "{name}");
        }
    }

    #[test]
    fn waits_read_well() {
        assert_eq!(wait_text(0), "no wait at all");
        assert_eq!(wait_text(ms(250)), "250 ms");
        assert_eq!(wait_text(secs(120)), "120 s");
        assert_eq!(wait_text(secs(86_400)), "86,400 s");
        assert_eq!(wait_text(secs(SECONDS_PER_YEAR)), "1.0 years");
        assert_eq!(wait_text(secs(1_788_086_579)), "56.7 years");
        assert_eq!(wait_text(u64::MAX), "584542.0 years");
        assert_eq!(round_ms(1_499), 1);
        assert_eq!(round_ms(1_500), 2);
    }

    /// Years in tenths, rounded half up, as exact 128-bit arithmetic gives them: around
    /// every rounding edge, and at the top of u64.
    #[test]
    fn years_round_as_exact_arithmetic_does() {
        let year_us = secs(SECONDS_PER_YEAR);
        let exact = |us: u64| {
            let tenths = (u128::from(us) * 10 + u128::from(year_us) / 2) / u128::from(year_us);
            format!("{}.{} years", tenths / 10, tenths % 10)
        };
        let tenth_us = year_us / 10;
        let edges = (10..2_000u64).flat_map(|t| {
            let edge = t * tenth_us + tenth_us / 2;
            [edge - 1, edge, edge + 1]
        });
        for us in edges.chain((0..4_000).map(|k| u64::MAX - k)) {
            assert_eq!(wait_text(us), exact(us), "{us} µs");
        }
    }
}

//! The three HTTP-date forms a recipient must accept (RFC 9110, section 5.6.7):
//!
//! - IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`, the only one a sender may write;
//! - the obsolete RFC 850 form, `Sunday, 06-Nov-94 08:49:37 GMT`, with a two-digit year;
//! - the obsolete asctime form, `Sun Nov  6 08:49:37 1994`, with no zone (it is GMT).
//!
//! All are case-sensitive. Why not the `httpdate` crate, which parses all three: its RFC
//! 850 reading pins two-digit years to 1970–2069 and then checks the day name against that
//! year, while RFC 9110 asks for a window that moves with "now" (below). With "now" in
//! 2026, `Wednesday, 01-Jan-70 00:00:00 GMT` is 2070 by the RFC's rule, and the crate
//! refuses it as a Thursday in 1970. Its errors also carry no reason a page could show.

use super::{
    date_number, instant, month_number, time_of_day, DateField, HttpDateError, DAY_NAMES,
    SECONDS_PER_DAY,
};

/// The full day names of the RFC 850 form, Sunday first as in [`DAY_NAMES`].
const LONG_DAY_NAMES: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// Parses an HTTP-date in any of its three forms to epoch seconds. `now_s` is needed only
/// for RFC 850's two-digit year.
///
/// The form is told by its first word: a three-letter day name and a comma is an
/// IMF-fixdate, a full day name and a comma is RFC 850, a day name without a comma is
/// asctime. As with [`super::parse_http_date`], the day name must be a real one but is not
/// checked against the date.
pub fn parse_any_http_date(text: &str, now_s: u64) -> Result<u64, HttpDateError> {
    let first = text.split(' ').next().unwrap_or("");
    match first.strip_suffix(',') {
        Some(name) if name.len() > 3 => rfc850(text, now_s),
        Some(_) => super::parse_http_date(text),
        None => asctime(text),
    }
}

/// `Sunday, 06-Nov-94 08:49:37 GMT`.
///
/// RFC 9110 says a two-digit year that "appears to be more than 50 years in the future"
/// is the most recent past year with those digits. It leaves open which century to try
/// first; we read the two digits as the one year in the 100-year window that ends 50 years
/// after now's year. With now in 2026: `76` is 2076, `77` is 1977.
fn rfc850(text: &str, now_s: u64) -> Result<u64, HttpDateError> {
    let [day_name, date, time, zone] = text.split(' ').collect::<Vec<_>>()[..] else {
        return Err(HttpDateError::Parts);
    };
    let day_name = day_name
        .strip_suffix(',')
        .ok_or(HttpDateError::DayNameComma)?;
    if !LONG_DAY_NAMES.contains(&day_name) {
        return Err(HttpDateError::DayName);
    }
    if zone != "GMT" {
        return Err(HttpDateError::Zone);
    }
    let [day, month, year] = date.split('-').collect::<Vec<_>>()[..] else {
        return Err(HttpDateError::Parts);
    };
    let day = date_number(day, DateField::Day)?;
    let month = month_number(month)?;
    let two = date_number(year, DateField::ShortYear)?;
    let (h, m, s) = time_of_day(time)?;
    let now_year = super::civil_from_days(now_s / SECONDS_PER_DAY).0;
    let mut year = now_year - now_year % 100 + two;
    if year > now_year + 50 {
        year -= 100;
    } else if year + 50 <= now_year {
        year += 100;
    }
    instant(year, month, day, h, m, s)
}

/// `Sun Nov  6 08:49:37 1994`: the day is two digits, or a space and one digit.
fn asctime(text: &str) -> Result<u64, HttpDateError> {
    let parts: Vec<&str> = text.split(' ').collect();
    let (day_name, month, day, time, year) = match parts[..] {
        [n, m, "", d, t, y] if d.len() == 1 => (n, m, d, t, y),
        [n, m, d, t, y] if d.len() == 2 => (n, m, d, t, y),
        [_, _, d, _, _] if d.len() == 1 => return Err(HttpDateError::Digits(DateField::Day)),
        _ => return Err(HttpDateError::Parts),
    };
    if !DAY_NAMES.contains(&day_name) {
        return Err(HttpDateError::DayName);
    }
    let month = month_number(month)?;
    let day = if day.len() == 1 {
        date_number(&format!("0{day}"), DateField::Day)?
    } else {
        date_number(day, DateField::Day)?
    };
    let (h, m, s) = time_of_day(time)?;
    let year = date_number(year, DateField::Year)?;
    instant(year, month, day, h, m, s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sun, 30 Aug 2026 10:40:59 GMT.
    const NOW_S: u64 = 1_788_086_459;

    #[test]
    fn rfc_9110s_three_examples_are_one_instant() {
        // RFC 9110, section 5.6.7: the same instant in the three forms.
        for form in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(parse_any_http_date(form, NOW_S), Ok(784_111_777), "{form}");
        }
    }

    #[test]
    fn the_two_digit_year_window_moves_with_now() {
        let at = |y: &str| parse_any_http_date(&format!("Friday, 01-Jan-{y} 00:00:00 GMT"), NOW_S);
        let year_of = |s: u64| super::super::civil_from_days(s / SECONDS_PER_DAY).0;
        assert_eq!(at("76").map(year_of), Ok(2076));
        assert_eq!(at("77").map(year_of), Ok(1977));
        assert_eq!(at("26").map(year_of), Ok(2026));
        assert_eq!(at("00").map(year_of), Ok(2000));
    }

    #[test]
    fn near_misses_are_refused() {
        for bad in [
            "sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-nov-94 08:49:37 GMT",
            "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 UTC",
            "Sun Nov 6 08:49:37 1994",
            "Sun Nov  6 08:49:37 1994 GMT",
            "Sun Nov 06 08:49:37 94",
            "Sunday 06-Nov-94 08:49:37 GMT",
        ] {
            assert!(parse_any_http_date(bad, NOW_S).is_err(), "{bad}");
        }
    }
}

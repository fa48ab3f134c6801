//! Rate-limit headers in both directions: what a server puts on a response, and how a
//! client turns what it reads back into a wait.
//!
//! A server publishes its limit on every response, not only on the 429, in both shapes
//! the IETF draft has had: the structured pair `RateLimit-Policy` + `RateLimit`, and the
//! older three `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`. A 429 also
//! carries `Retry-After`. All durations are delta-seconds, rounded up so that a caller who
//! obeys them is never early.
//!
//! Reading them is where clients go wrong, because three different meanings all arrive as
//! plain integers: seconds to wait, an HTTP-date, and a Unix timestamp. [`wait_from_header`]
//! tells them apart; [`naive_wait`] reproduces the common mistake of multiplying whatever
//! came by 1,000 and sleeping that many milliseconds. "Now" is always passed in (epoch
//! microseconds on the simulated clock): nothing here reads a real clock.

use super::limiter::{ceil_secs, Decision, Policy};
use super::time::{secs, US_PER_S};
use serde::{Deserialize, Serialize};

mod dates;
mod naive;
mod reader;
mod structured;
mod values;

pub use dates::parse_any_http_date;
pub use naive::{
    naive_readings, GoSleep, JsTimer, NaiveReadings, PythonSleep, JS_MAX_DELAY_MS, NS_LIMIT,
    PYTHON_UPTIME_BAND_NS,
};
pub use reader::{
    naive_header, read_headers, Ignored, Reading, Why, MILLISECOND_RETRY_AFTER, NAIVE_HEADERS,
    READER_MAX_WAIT_S, SHOPIFY_LEAK_US,
};
pub use values::{DeltaFault, StampFault, ValueFault, GO_DURATION_MAX_BYTES, TIMESTAMP_MAX_BYTES};

/// The name under which the limiter's one policy is published.
pub const POLICY_NAME: &str = "burst";

/// A numeric value above this many seconds is a Unix timestamp, not a duration: no
/// server means "wait 31 years", and 10⁹ s after 1970 was already September 2001.
pub const EPOCH_CUTOFF_S: u64 = 1_000_000_000;

/// The longest wait a header may ask for: one year. Anything longer is a misreading (or
/// a broken server), and sleeping through it would be a worker that never comes back.
pub const MAX_WAIT_S: u64 = 365 * 86_400;

/// The headers a response carries for `decision`, in the order they are written.
/// `Retry-After` is present only when the request was refused (a 429).
pub fn response_headers(policy: Policy, decision: &Decision) -> Vec<(&'static str, String)> {
    let window_s = ceil_secs(policy.window_us);
    let reset_s = ceil_secs(decision.reset_us);
    let mut headers = vec![
        (
            "RateLimit-Policy",
            format!("\"{POLICY_NAME}\";q={};w={window_s}", policy.limit),
        ),
        (
            "RateLimit",
            format!("\"{POLICY_NAME}\";r={};t={reset_s}", decision.remaining),
        ),
        ("RateLimit-Limit", policy.limit.to_string()),
        ("RateLimit-Remaining", decision.remaining.to_string()),
        ("RateLimit-Reset", reset_s.to_string()),
    ];
    if !decision.allowed {
        let retry_s = ceil_secs(decision.retry_after_us);
        // A refusal always has a positive wait, so the header never says "retry now".
        assert!(retry_s >= 1, "{decision:?}");
        headers.push(("Retry-After", retry_s.to_string()));
    }
    headers
}

/// How a header expressed its wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WaitForm {
    /// A number of seconds from now.
    DeltaSeconds,
    /// An IMF-fixdate such as `Sun, 30 Aug 2026 10:42:59 GMT`.
    HttpDate,
    /// A Unix timestamp in seconds.
    EpochSeconds,
    /// The `t` parameter of the structured `RateLimit` field.
    Structured,
}

/// A wait read from a header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Wait {
    /// How long to wait from now. Zero only when the header named an instant already past.
    pub wait_us: u64,
    /// How the header said it.
    pub form: WaitForm,
}

/// Why a header gives no wait (the page layer writes the sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderError {
    /// The header's name as given, trimmed.
    pub name: String,
    /// Its value as given, trimmed.
    pub value: String,
    /// What is wrong with it.
    pub fault: HeaderFault,
}

crate::error_display!(HeaderError, "header gives no wait");

/// What is wrong with a header that gives no wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderFault {
    /// The value is empty.
    Empty,
    /// `RateLimit-Policy`, `RateLimit-Limit` or `RateLimit-Remaining`: they describe the
    /// limit, not a wait.
    DescribesTheLimit,
    /// Not one of the headers that carry a wait.
    NotARateLimitHeader,
    /// Delta-seconds or a Unix timestamp that is not a usable number.
    Seconds(SecondsFault),
    /// A `Retry-After` that starts with a letter but is not an HTTP-date.
    Date(HttpDateError),
    /// A structured `RateLimit` field that cannot be read.
    Structured(StructuredFault),
    /// A wait longer than [`MAX_WAIT_S`].
    TooLong {
        /// The wait asked for, in whole seconds.
        wait_s: u64,
    },
}

/// Why text is not `1*DIGIT`, the grammar of delta-seconds and Unix seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondsFault {
    /// A minus sign before digits.
    Negative,
    /// Anything else that is not all digits: a sign, a fraction, an exponent, text.
    NotWhole,
    /// More than a `u64` holds.
    TooLarge,
}

/// Why a structured `RateLimit` field cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StructuredFault {
    /// A quoted policy name whose quote is never closed.
    UnclosedQuote,
    /// A member that does not start with a policy name.
    NoPolicyName,
    /// A bare `t`, without `=` and a value.
    TWithoutValue,
    /// A `t` whose value is not whole seconds.
    BadT {
        /// The value of `t`, trimmed.
        t: String,
        /// What is wrong with it.
        fault: SecondsFault,
    },
    /// Text after the parameters that is neither the end nor a comma.
    UnexpectedText {
        /// The text, trimmed.
        text: String,
    },
    /// A member without a `t` parameter.
    NoT,
}

/// Reads how long to wait from one header.
///
/// Understands `Retry-After` (delta-seconds or HTTP-date), `RateLimit-Reset`
/// (delta-seconds), `X-RateLimit-Reset` (Unix seconds) and the structured `RateLimit`
/// (its `t`; with several policies, the largest). Any numeric value above
/// [`EPOCH_CUTOFF_S`] is read as a timestamp whichever header carried it. Header names
/// are case-insensitive. Anything else (garbage, empty, negative, fractional, a wait
/// longer than [`MAX_WAIT_S`]) is a [`HeaderError`]: never a panic, never a silent zero.
pub fn wait_from_header(name: &str, value: &str, now_epoch_us: u64) -> Result<Wait, HeaderError> {
    let name = name.trim();
    let value = value.trim();
    let fail = |fault: HeaderFault| HeaderError {
        name: name.to_string(),
        value: value.to_string(),
        fault,
    };
    if value.is_empty() {
        return Err(fail(HeaderFault::Empty));
    }
    let lower = name.to_ascii_lowercase();
    let wait = match lower.as_str() {
        "retry-after" if value.starts_with(|c: char| c.is_ascii_alphabetic()) => {
            let at_s = parse_http_date(value).map_err(|e| fail(HeaderFault::Date(e)))?;
            until(at_s, now_epoch_us, WaitForm::HttpDate)
        }
        "retry-after" | "ratelimit-reset" | "x-ratelimit-reset" => {
            let n = whole_seconds(value).map_err(|e| fail(HeaderFault::Seconds(e)))?;
            if n > EPOCH_CUTOFF_S {
                until(n, now_epoch_us, WaitForm::EpochSeconds)
            } else {
                Wait {
                    wait_us: n.saturating_mul(US_PER_S),
                    form: WaitForm::DeltaSeconds,
                }
            }
        }
        "ratelimit" => Wait {
            wait_us: structured_reset_s(value)
                .map_err(|e| fail(HeaderFault::Structured(e)))?
                .saturating_mul(US_PER_S),
            form: WaitForm::Structured,
        },
        "ratelimit-policy" | "ratelimit-limit" | "ratelimit-remaining" => {
            return Err(fail(HeaderFault::DescribesTheLimit))
        }
        _ => return Err(fail(HeaderFault::NotARateLimitHeader)),
    };
    if wait.wait_us > secs(MAX_WAIT_S) {
        return Err(fail(HeaderFault::TooLong {
            wait_s: wait.wait_us / US_PER_S,
        }));
    }
    Ok(wait)
}

/// The wait until epoch second `at_s`; an instant already past means no wait.
fn until(at_s: u64, now_epoch_us: u64, form: WaitForm) -> Wait {
    Wait {
        wait_us: at_s.saturating_mul(US_PER_S).saturating_sub(now_epoch_us),
        form,
    }
}

/// `1*DIGIT`, the only grammar delta-seconds and Unix seconds have.
fn whole_seconds(value: &str) -> Result<u64, SecondsFault> {
    if let Some(rest) = value.strip_prefix('-') {
        return Err(
            if rest.bytes().all(|b| b.is_ascii_digit()) && !rest.is_empty() {
                SecondsFault::Negative
            } else {
                SecondsFault::NotWhole
            },
        );
    }
    if !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SecondsFault::NotWhole);
    }
    value.parse::<u64>().map_err(|_| SecondsFault::TooLarge)
}

/// The largest `t` of a structured `RateLimit` field: by then every listed quota has
/// been restored.
fn structured_reset_s(value: &str) -> Result<u64, StructuredFault> {
    let (mut largest, mut after) = structured_member(value)?;
    while let Some(more) = after.strip_prefix(',') {
        let (t, rest) = structured_member(more.trim_start())?;
        largest = largest.max(t);
        after = rest;
    }
    Ok(largest)
}

/// One list member, `"name";r=N;t=N` or `name;...`: its `t` and the text after it.
fn structured_member(text: &str) -> Result<(u64, &str), StructuredFault> {
    let rest = if let Some(quoted) = text.strip_prefix('"') {
        quoted
            .split_once('"')
            .ok_or(StructuredFault::UnclosedQuote)?
            .1
    } else {
        let (token, rest) = before_separator(text);
        let token = token.trim();
        if token.is_empty()
            || !token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"*_-.:/".contains(&b))
        {
            return Err(StructuredFault::NoPolicyName);
        }
        rest
    };
    let mut reset_s = None;
    let mut rest = rest;
    while let Some(param) = rest.strip_prefix(';') {
        let (member, after) = before_separator(param);
        let (key, val) = match member.split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            // A bare parameter is a boolean in structured fields: harmless unless it is t.
            None => (member.trim(), None),
        };
        if key == "t" {
            let val = val.ok_or(StructuredFault::TWithoutValue)?;
            let n = whole_seconds(val).map_err(|fault| StructuredFault::BadT {
                t: val.to_string(),
                fault,
            })?;
            reset_s = Some(n);
        }
        rest = after;
    }
    let rest = rest.trim_start();
    if !rest.is_empty() && !rest.starts_with(',') {
        return Err(StructuredFault::UnexpectedText {
            text: rest.trim().to_string(),
        });
    }
    let t = reset_s.ok_or(StructuredFault::NoT)?;
    Ok((t, rest))
}

/// `text` up to its first `;` or `,`, and the rest from that separator on.
/// (`split_at_checked`, not indexing: a header block is untrusted input, and no slice of
/// it may panic.)
fn before_separator(text: &str) -> (&str, &str) {
    let end = text.find([';', ',']).unwrap_or(text.len());
    text.split_at_checked(end).unwrap_or((text, ""))
}

/// `text` without a leading `-` or `+`, and whether it was `-`.
fn sign(text: &str) -> (bool, &str) {
    match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    }
}

/// What the naive reading `Number(value) * 1000` milliseconds comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NaiveWait {
    /// `Number(value)` was NaN; a timer set for NaN ms fires at once.
    NotANumber,
    /// The computed wait. A negative number is clamped to zero, as timers do.
    Wait {
        /// The wait in microseconds (saturating for absurd values).
        us: u64,
    },
}

impl NaiveWait {
    /// How long the naive client really sleeps: NaN sleeps not at all.
    pub fn slept_us(self) -> u64 {
        match self {
            NaiveWait::NotANumber => 0,
            NaiveWait::Wait { us } => us,
        }
    }
}

/// The limits lab's naive reading of the values its units experiment writes (whole
/// seconds, epoch seconds, a date): `Number(value) * 1000` milliseconds over the decimal
/// subset `[+-]digits[.digits]`, anything else NaN. What each language's timer really does
/// with any value (exponents, wraps, overflows) is [`naive_readings`].
pub fn naive_wait(value: &str) -> NaiveWait {
    let t = value.trim();
    if t.is_empty() {
        return NaiveWait::Wait { us: 0 };
    }
    let (negative, digits) = sign(t);
    let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + frac.len() == 0 || !all_digits(whole) || !all_digits(frac) {
        return NaiveWait::NotANumber;
    }
    // n seconds-as-milliseconds × 1000 is n × 10⁶ µs; six fractional digits are exact.
    let mut us: u64 = 0;
    for b in whole.bytes() {
        us = us.saturating_mul(10).saturating_add(u64::from(b - b'0'));
    }
    us = us.saturating_mul(US_PER_S);
    let mut scale = US_PER_S;
    for b in frac.bytes().take(6) {
        scale /= 10;
        us = us.saturating_add(u64::from(b - b'0') * scale);
    }
    NaiveWait::Wait {
        us: if negative { 0 } else { us },
    }
}

const DAY_NAMES: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTH_NAMES: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const SECONDS_PER_DAY: u64 = 86_400;
/// The last year an IMF-fixdate can write with four digits.
const LAST_YEAR: u64 = 9_999;

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian, year ≥ 1970).
fn days_from_civil(year: u64, month: u64, day: u64) -> u64 {
    // Counting years from March puts the leap day last, so the month lengths follow a
    // fixed 153-days-per-five-months pattern.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y / 400;
    let year_of_era = y % 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The civil date (year, month, day) `days` after 1970-01-01.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    (year, month, day)
}

fn is_leap(year: u64) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

fn days_in_month(year: u64, month: u64) -> u64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Epoch second `epoch_s` as an IMF-fixdate, e.g. `Sun, 30 Aug 2026 10:42:59 GMT`.
/// Years past 9999 cannot be written in four digits and are clamped to its last second.
pub fn http_date(epoch_s: u64) -> String {
    let last = days_from_civil(LAST_YEAR, 12, 31) * SECONDS_PER_DAY + SECONDS_PER_DAY - 1;
    let epoch_s = epoch_s.min(last);
    let days = epoch_s / SECONDS_PER_DAY;
    let of_day = epoch_s % SECONDS_PER_DAY;
    let (year, month, day) = civil_from_days(days);
    // 1970-01-01 was a Thursday.
    let weekday = DAY_NAMES[((days + 4) % 7) as usize];
    format!(
        "{weekday}, {day:02} {} {year:04} {:02}:{:02}:{:02} GMT",
        MONTH_NAMES[(month - 1) as usize],
        of_day / 3_600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// A numeric field of an IMF-fixdate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DateField {
    /// The year, four digits.
    Year,
    /// The two-digit year of the obsolete RFC 850 form.
    ShortYear,
    /// The day of the month, two digits.
    Day,
    /// The hour, two digits.
    Hour,
    /// The minute, two digits.
    Minute,
    /// The second, two digits.
    Second,
}

impl DateField {
    /// How many digits the field is written with.
    pub fn digits(self) -> usize {
        match self {
            DateField::Year => 4,
            DateField::ShortYear
            | DateField::Day
            | DateField::Hour
            | DateField::Minute
            | DateField::Second => 2,
        }
    }
}

/// Why text is not an IMF-fixdate (the page layer writes the sentence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpDateError {
    /// Not six space-separated parts.
    Parts,
    /// The day name does not end with a comma.
    DayNameComma,
    /// Not one of the seven day names.
    DayName,
    /// A zone other than `GMT`.
    Zone,
    /// A numeric field without exactly its number of digits.
    Digits(DateField),
    /// Not one of the twelve month names.
    Month,
    /// A time that is not `hh:mm:ss`.
    Time,
    /// A year before 1970.
    Before1970,
    /// A day the month does not have.
    NoSuchDay,
    /// An hour, minute or second out of range.
    NoSuchTime,
}

crate::error_display!(HttpDateError, "not an HTTP-date");

/// Parses an IMF-fixdate (`Sun, 30 Aug 2026 10:42:59 GMT`) to epoch seconds. The day
/// name must be one of the seven but is not checked against the date, which already says
/// everything. The two obsolete HTTP date formats are refused.
pub fn parse_http_date(text: &str) -> Result<u64, HttpDateError> {
    let parts: Vec<&str> = text.split(' ').collect();
    let [day_name, day, month, year, time, zone] = parts.as_slice() else {
        return Err(HttpDateError::Parts);
    };
    let day_name = day_name
        .strip_suffix(',')
        .ok_or(HttpDateError::DayNameComma)?;
    if !DAY_NAMES.contains(&day_name) {
        return Err(HttpDateError::DayName);
    }
    if *zone != "GMT" {
        return Err(HttpDateError::Zone);
    }
    let number = date_number;
    let year = number(year, DateField::Year)?;
    let month = month_number(month)?;
    let day = number(day, DateField::Day)?;
    let (h, m, s) = time_of_day(time)?;
    instant(year, month, day, h, m, s)
}

/// `s` as exactly `field.digits()` ASCII digits.
fn date_number(s: &str, field: DateField) -> Result<u64, HttpDateError> {
    if s.len() != field.digits() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(HttpDateError::Digits(field));
    }
    s.parse().map_err(|_| HttpDateError::Digits(field))
}

/// A three-letter month name (case-sensitive, as RFC 9110 says) as 1 to 12.
fn month_number(name: &str) -> Result<u64, HttpDateError> {
    MONTH_NAMES
        .iter()
        .position(|m| *m == name)
        .map(|i| i as u64 + 1)
        .ok_or(HttpDateError::Month)
}

/// `hh:mm:ss`, each two digits.
fn time_of_day(time: &str) -> Result<(u64, u64, u64), HttpDateError> {
    let [h, m, s] = time.split(':').collect::<Vec<_>>()[..] else {
        return Err(HttpDateError::Time);
    };
    Ok((
        date_number(h, DateField::Hour)?,
        date_number(m, DateField::Minute)?,
        date_number(s, DateField::Second)?,
    ))
}

/// The epoch second of a civil date and time, checked.
fn instant(year: u64, month: u64, day: u64, h: u64, m: u64, s: u64) -> Result<u64, HttpDateError> {
    if year < 1970 {
        return Err(HttpDateError::Before1970);
    }
    if day == 0 || day > days_in_month(year, month) {
        return Err(HttpDateError::NoSuchDay);
    }
    // IMF allows second 60 for a leap second; it is counted as the next minute's first.
    if h > 23 || m > 59 || s > 60 {
        return Err(HttpDateError::NoSuchTime);
    }
    Ok(days_from_civil(year, month, day) * SECONDS_PER_DAY + h * 3_600 + m * 60 + s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::ms;

    /// Sun, 30 Aug 2026 10:40:59 GMT, the article's "now".
    const NOW_S: u64 = 1_788_086_459;
    const NOW_US: u64 = NOW_S * US_PER_S;

    #[test]
    fn dates_round_trip_and_match_known_instants() {
        assert_eq!(http_date(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(http_date(NOW_S), "Sun, 30 Aug 2026 10:40:59 GMT");
        assert_eq!(http_date(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT");
        assert_eq!(http_date(u64::MAX), "Fri, 31 Dec 9999 23:59:59 GMT");
        assert_eq!(
            parse_http_date("Sun, 30 Aug 2026 10:42:59 GMT"),
            Ok(NOW_S + 120)
        );
        // Every day over a few centuries, including the 2100 non-leap year.
        for days in (0..160_000u64).step_by(7) {
            let t = days * SECONDS_PER_DAY + (days * 37 % SECONDS_PER_DAY);
            assert_eq!(parse_http_date(&http_date(t)), Ok(t), "{}", http_date(t));
        }
        assert!(parse_http_date("Mon, 29 Feb 2100 00:00:00 GMT").is_err());
    }

    /// (header, value, the wait it must give, how it was written).
    const GOOD: &[(&str, &str, u64, WaitForm)] = &[
        ("Retry-After", "120", 120, WaitForm::DeltaSeconds),
        ("retry-after", " 1 ", 1, WaitForm::DeltaSeconds),
        ("Retry-After", "0", 0, WaitForm::DeltaSeconds),
        (
            "Retry-After",
            "Sun, 30 Aug 2026 10:42:59 GMT",
            120,
            WaitForm::HttpDate,
        ),
        (
            "Retry-After",
            "Sun, 30 Aug 2026 10:00:00 GMT",
            0,
            WaitForm::HttpDate,
        ),
        ("RateLimit-Reset", "120", 120, WaitForm::DeltaSeconds),
        (
            "X-RateLimit-Reset",
            "1788086579",
            120,
            WaitForm::EpochSeconds,
        ),
        ("X-RateLimit-Reset", "30", 30, WaitForm::DeltaSeconds),
        ("Retry-After", "1788086460", 1, WaitForm::EpochSeconds),
        ("RateLimit", "\"burst\";r=0;t=1", 1, WaitForm::Structured),
        ("RATELIMIT", "burst;r=0;t=120", 120, WaitForm::Structured),
        (
            "RateLimit",
            "\"burst\";r=0;t=1, \"daily\";r=0;t=3600",
            3_600,
            WaitForm::Structured,
        ),
        (
            "RateLimit",
            "\"a,b\";t=7;r=2;x=\"y\"",
            7,
            WaitForm::Structured,
        ),
        (
            "RateLimit-Reset",
            "31536000",
            MAX_WAIT_S,
            WaitForm::DeltaSeconds,
        ),
    ];

    #[test]
    fn every_header_form_gives_the_same_wait() {
        for (name, value, wait_s, form) in GOOD {
            let w = wait_from_header(name, value, NOW_US)
                .unwrap_or_else(|e| panic!("{name}: {value}: {e}"));
            assert_eq!(w.wait_us, secs(*wait_s), "{name}: {value}");
            assert_eq!(w.form, *form, "{name}: {value}");
        }
    }

    /// (header, value, what is wrong with it).
    fn bad() -> Vec<(&'static str, &'static str, HeaderFault)> {
        use HeaderFault::{Date, Seconds, Structured, TooLong};
        use HttpDateError as D;
        use SecondsFault::{Negative, NotWhole, TooLarge};
        use StructuredFault as S;
        let bad_t = |t: &str, fault| {
            Structured(S::BadT {
                t: t.to_string(),
                fault,
            })
        };
        vec![
            ("Retry-After", "", HeaderFault::Empty),
            ("Retry-After", "   ", HeaderFault::Empty),
            ("Retry-After", "-5", Seconds(Negative)),
            ("RateLimit-Reset", "-0x1", Seconds(NotWhole)),
            ("Retry-After", "1.5", Seconds(NotWhole)),
            ("Retry-After", "NaN", Date(D::Parts)),
            ("Retry-After", "Infinity", Date(D::Parts)),
            ("Retry-After", "1e3", Seconds(NotWhole)),
            ("Retry-After", "+5", Seconds(NotWhole)),
            ("Retry-After", "soon", Date(D::Parts)),
            (
                "Retry-After",
                "Sun, 30 Aug 2026 10:42:59 UTC",
                Date(D::Zone),
            ),
            (
                "Retry-After",
                "Sunday, 30-Aug-26 10:42:59 GMT",
                Date(D::Parts),
            ),
            ("Retry-After", "Sun Aug 30 10:42:59 2026", Date(D::Parts)),
            (
                "Retry-After",
                "Sun 30 Aug 2026 10:42:59 GMT",
                Date(D::DayNameComma),
            ),
            (
                "Retry-After",
                "Xyz, 30 Aug 2026 10:42:59 GMT",
                Date(D::DayName),
            ),
            (
                "Retry-After",
                "Sun, 30 Foo 2026 10:42:59 GMT",
                Date(D::Month),
            ),
            ("Retry-After", "Sun, 30 Aug 2026 10:42 GMT", Date(D::Time)),
            (
                "Retry-After",
                "Sun, 30 Aug 226 10:42:59 GMT",
                Date(D::Digits(DateField::Year)),
            ),
            (
                "Retry-After",
                "Sun, 30 Aug 2026 10:42:5 GMT",
                Date(D::Digits(DateField::Second)),
            ),
            (
                "Retry-After",
                "Sun, 31 Sep 2026 10:42:59 GMT",
                Date(D::NoSuchDay),
            ),
            (
                "Retry-After",
                "Sun, 30 Aug 2026 24:00:00 GMT",
                Date(D::NoSuchTime),
            ),
            (
                "Retry-After",
                "Sun, 30 Aug 1969 10:42:59 GMT",
                Date(D::Before1970),
            ),
            (
                "Retry-After",
                "Sun, 30 Aug 2036 10:42:59 GMT",
                TooLong {
                    wait_s: 315_619_320,
                },
            ),
            ("Retry-After", "99999999999999999999999", Seconds(TooLarge)),
            (
                "RateLimit-Reset",
                "999999999",
                TooLong {
                    wait_s: 999_999_999,
                },
            ),
            (
                "X-RateLimit-Reset",
                "99999999999",
                TooLong {
                    wait_s: 99_999_999_999 - NOW_S,
                },
            ),
            (
                "RateLimit-Reset",
                "18446744073709551615",
                TooLong {
                    wait_s: u64::MAX / US_PER_S - NOW_S,
                },
            ),
            ("RateLimit", "\"burst\";r=0", Structured(S::NoT)),
            ("RateLimit", "\"burst\";r=0;t=-1", bad_t("-1", Negative)),
            ("RateLimit", "\"burst\";t=soon", bad_t("soon", NotWhole)),
            ("RateLimit", "\"burst;t=1", Structured(S::UnclosedQuote)),
            ("RateLimit", ";t=1", Structured(S::NoPolicyName)),
            ("RateLimit", "b;t=1, ;t=2", Structured(S::NoPolicyName)),
            ("RateLimit", "\"burst\";t=1 junk", bad_t("1 junk", NotWhole)),
            (
                "RateLimit",
                "\"burst\" x;t=1",
                Structured(S::UnexpectedText {
                    text: "x;t=1".into(),
                }),
            ),
            ("RateLimit", "\"burst\";t", Structured(S::TWithoutValue)),
            (
                "RateLimit-Policy",
                "\"burst\";q=10;w=1",
                HeaderFault::DescribesTheLimit,
            ),
            ("Content-Type", "120", HeaderFault::NotARateLimitHeader),
        ]
    }

    #[test]
    fn anything_unreadable_is_an_error_not_a_zero_wait() {
        for (name, value, fault) in bad() {
            match wait_from_header(&format!(" {name} "), value, NOW_US) {
                Ok(w) => panic!("{name}: '{value}' gave {w:?}"),
                Err(e) => assert_eq!(
                    e,
                    HeaderError {
                        name: name.into(),
                        value: value.trim().into(),
                        fault
                    },
                    "{name}: '{value}'"
                ),
            }
        }
    }

    #[test]
    fn the_naive_reading_springs_both_traps() {
        assert_eq!(naive_wait("120"), NaiveWait::Wait { us: secs(120) });
        assert_eq!(naive_wait("0.25"), NaiveWait::Wait { us: ms(250) });
        assert_eq!(naive_wait(""), NaiveWait::Wait { us: 0 });
        assert_eq!(naive_wait("-3"), NaiveWait::Wait { us: 0 });
        let date = naive_wait("Sun, 30 Aug 2026 10:42:59 GMT");
        assert_eq!(date, NaiveWait::NotANumber);
        assert_eq!(date.slept_us(), 0);
        assert_eq!(naive_wait("1e3"), NaiveWait::NotANumber);
        assert_eq!(naive_wait("."), NaiveWait::NotANumber);
        // A timestamp read as seconds-to-wait: 1.788 × 10⁹ s, over 56 years.
        let epoch = naive_wait("1788086579").slept_us();
        assert_eq!(epoch, 1_788_086_579 * US_PER_S);
        assert_eq!(epoch / secs(31_557_600), 56);
        assert_eq!(
            naive_wait("99999999999999999999999"),
            NaiveWait::Wait { us: u64::MAX }
        );
    }

    #[test]
    fn a_429_carries_both_shapes_and_retry_after_rounded_up() {
        let policy = Policy {
            limit: 10,
            window_us: secs(1),
        };
        let refused = Decision {
            allowed: false,
            remaining: 0,
            retry_after_us: ms(100),
            reset_us: ms(1_000) - 1,
        };
        let h = response_headers(policy, &refused);
        let expected: Vec<(&str, String)> = [
            ("RateLimit-Policy", "\"burst\";q=10;w=1"),
            ("RateLimit", "\"burst\";r=0;t=1"),
            ("RateLimit-Limit", "10"),
            ("RateLimit-Remaining", "0"),
            ("RateLimit-Reset", "1"),
            ("Retry-After", "1"),
        ]
        .iter()
        .map(|(n, v)| (*n, v.to_string()))
        .collect();
        assert_eq!(h, expected);
        let ok = Decision {
            allowed: true,
            remaining: 7,
            retry_after_us: 0,
            reset_us: secs(2) + 1,
        };
        let h = response_headers(policy, &ok);
        assert_eq!(h.len(), 5, "no Retry-After on a 200");
        assert_eq!(h[1].1, "\"burst\";r=7;t=3");
        // Every header the server writes reads back as the wait it meant.
        for (name, value) in response_headers(policy, &refused) {
            if let Ok(w) = wait_from_header(name, &value, NOW_US) {
                assert_eq!(w.wait_us, secs(1), "{name}");
            }
        }
    }
}

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

/// Reads how long to wait from one header.
///
/// Understands `Retry-After` (delta-seconds or HTTP-date), `RateLimit-Reset`
/// (delta-seconds), `X-RateLimit-Reset` (Unix seconds) and the structured `RateLimit`
/// (its `t`; with several policies, the largest). Any numeric value above
/// [`EPOCH_CUTOFF_S`] is read as a timestamp whichever header carried it. Header names
/// are case-insensitive. Anything else (garbage, empty, negative, fractional, a wait
/// longer than [`MAX_WAIT_S`]) is an error sentence: never a panic, never a silent zero.
pub fn wait_from_header(name: &str, value: &str, now_epoch_us: u64) -> Result<Wait, String> {
    let name = name.trim();
    let value = value.trim();
    let fail = |why: String| format!("{name}: '{value}' {why}");
    if value.is_empty() {
        return Err(format!("{name} is empty: it gives no wait to obey"));
    }
    let lower = name.to_ascii_lowercase();
    let wait = match lower.as_str() {
        "retry-after" if value.starts_with(|c: char| c.is_ascii_alphabetic()) => {
            let at_s = parse_http_date(value).map_err(fail)?;
            until(at_s, now_epoch_us, WaitForm::HttpDate)
        }
        "retry-after" | "ratelimit-reset" | "x-ratelimit-reset" => {
            let n = whole_seconds(value).map_err(fail)?;
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
            wait_us: structured_reset_s(value).map_err(fail)?.saturating_mul(US_PER_S),
            form: WaitForm::Structured,
        },
        "ratelimit-policy" | "ratelimit-limit" | "ratelimit-remaining" => {
            return Err(format!(
                "{name} describes the limit, not a wait: read RateLimit, RateLimit-Reset or Retry-After"
            ))
        }
        _ => {
            return Err(format!(
                "{name} is not a rate-limit header: expected Retry-After, RateLimit, RateLimit-Reset or X-RateLimit-Reset"
            ))
        }
    };
    if wait.wait_us > secs(MAX_WAIT_S) {
        return Err(fail(format!(
            "asks for a wait of {} s, longer than a year: that is a misread header, not a rate limit",
            wait.wait_us / US_PER_S
        )));
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
fn whole_seconds(value: &str) -> Result<u64, String> {
    if let Some(rest) = value.strip_prefix('-') {
        return Err(
            if rest.bytes().all(|b| b.is_ascii_digit()) && !rest.is_empty() {
                "is negative: a wait cannot point into the past".to_string()
            } else {
                "is not a whole number of seconds".to_string()
            },
        );
    }
    if !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err("is not a whole number of seconds".into());
    }
    value
        .parse::<u64>()
        .map_err(|_| "is too large to be any number of seconds".into())
}

/// The largest `t` of a structured `RateLimit` field: by then every listed quota has
/// been restored.
fn structured_reset_s(value: &str) -> Result<u64, String> {
    let mut largest: Option<u64> = None;
    let mut rest = value;
    loop {
        let (t, after) = structured_member(rest)?;
        largest = Some(largest.map_or(t, |l| l.max(t)));
        match after.strip_prefix(',') {
            Some(more) => rest = more.trim_start(),
            None => break,
        }
    }
    largest.ok_or_else(|| "names no quota".into())
}

/// One list member, `"name";r=N;t=N` or `name;...`: its `t` and the text after it.
fn structured_member(text: &str) -> Result<(u64, &str), String> {
    let rest = if let Some(quoted) = text.strip_prefix('"') {
        let end = quoted
            .find('"')
            .ok_or("has a policy name whose quote is never closed")?;
        &quoted[end + 1..]
    } else {
        let end = text.find([';', ',']).unwrap_or(text.len());
        let token = text[..end].trim();
        if token.is_empty()
            || !token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"*_-.:/".contains(&b))
        {
            return Err("does not start with a policy name".into());
        }
        &text[end..]
    };
    let mut reset_s = None;
    let mut rest = rest;
    while let Some(param) = rest.strip_prefix(';') {
        let end = param.find([';', ',']).unwrap_or(param.len());
        let (key, val) = match param[..end].split_once('=') {
            Some((k, v)) => (k.trim(), Some(v.trim())),
            // A bare parameter is a boolean in structured fields: harmless unless it is t.
            None => (param[..end].trim(), None),
        };
        if key == "t" {
            let val = val.ok_or("has a t parameter without a value")?;
            let n = whole_seconds(val).map_err(|why| format!("has t={val}, which {why}"))?;
            reset_s = Some(n);
        }
        rest = &param[end..];
    }
    let rest = rest.trim_start();
    if !rest.is_empty() && !rest.starts_with(',') {
        return Err(format!("has unexpected text '{}'", rest.trim()));
    }
    let t = reset_s.ok_or("has no t parameter, so it says nothing about when to retry")?;
    Ok((t, rest))
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

/// The naive reading of any header value: `Number(value) * 1000` milliseconds. Models
/// the decimal subset of JavaScript's `Number()`: an empty value is 0, `[+-]digits[.digits]`
/// is itself, anything else (a date, `1e3`, `0x10`) is NaN.
pub fn naive_wait(value: &str) -> NaiveWait {
    let t = value.trim();
    if t.is_empty() {
        return NaiveWait::Wait { us: 0 };
    }
    let (negative, digits) = match t.as_bytes()[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
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

/// Parses an IMF-fixdate (`Sun, 30 Aug 2026 10:42:59 GMT`) to epoch seconds. The day
/// name must be one of the seven but is not checked against the date, which already says
/// everything. The two obsolete HTTP date formats are refused.
pub fn parse_http_date(text: &str) -> Result<u64, String> {
    let bad = |what: &str| {
        format!("is not an HTTP-date ({what}); expected the form 'Sun, 30 Aug 2026 10:42:59 GMT'")
    };
    let parts: Vec<&str> = text.split(' ').collect();
    let [day_name, day, month, year, time, zone] = parts.as_slice() else {
        return Err(bad("it needs six space-separated parts"));
    };
    let day_name = day_name
        .strip_suffix(',')
        .ok_or_else(|| bad("the day name must end with a comma"))?;
    if !DAY_NAMES.contains(&day_name) {
        return Err(bad("unknown day name"));
    }
    if *zone != "GMT" {
        return Err(bad("the zone must be GMT"));
    }
    let number = |s: &str, width: usize, what: &str| -> Result<u64, String> {
        if s.len() != width || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(&format!("the {what} must be {width} digits")));
        }
        s.parse().map_err(|_| bad(what))
    };
    let year = number(year, 4, "year")?;
    let month = MONTH_NAMES
        .iter()
        .position(|m| m == month)
        .ok_or_else(|| bad("unknown month"))? as u64
        + 1;
    let day = number(day, 2, "day")?;
    let [h, m, s] = time.split(':').collect::<Vec<_>>()[..] else {
        return Err(bad("the time must be hh:mm:ss"));
    };
    let (h, m, s) = (
        number(h, 2, "hour")?,
        number(m, 2, "minute")?,
        number(s, 2, "second")?,
    );
    if year < 1970 {
        return Err(bad("it is before 1970"));
    }
    if day == 0 || day > days_in_month(year, month) {
        return Err(bad("no such day in that month"));
    }
    // IMF allows second 60 for a leap second; it is counted as the next minute's first.
    if h > 23 || m > 59 || s > 60 {
        return Err(bad("no such time of day"));
    }
    Ok(days_from_civil(year, month, day) * SECONDS_PER_DAY + h * 3_600 + m * 60 + s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::ms;

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

    /// (header, value, a phrase the error must contain).
    const BAD: &[(&str, &str, &str)] = &[
        ("Retry-After", "", "empty"),
        ("Retry-After", "   ", "empty"),
        ("Retry-After", "-5", "negative"),
        ("RateLimit-Reset", "-0x1", "whole number"),
        ("Retry-After", "1.5", "whole number"),
        ("Retry-After", "NaN", "HTTP-date"),
        ("Retry-After", "Infinity", "HTTP-date"),
        ("Retry-After", "1e3", "whole number"),
        ("Retry-After", "+5", "whole number"),
        ("Retry-After", "soon", "HTTP-date"),
        ("Retry-After", "Sun, 30 Aug 2026 10:42:59 UTC", "GMT"),
        ("Retry-After", "Sunday, 30-Aug-26 10:42:59 GMT", "six"),
        ("Retry-After", "Sun Aug 30 10:42:59 2026", "six"),
        (
            "Retry-After",
            "Sun, 31 Sep 2026 10:42:59 GMT",
            "no such day",
        ),
        (
            "Retry-After",
            "Sun, 30 Aug 2026 24:00:00 GMT",
            "no such time",
        ),
        (
            "Retry-After",
            "Sun, 30 Aug 1969 10:42:59 GMT",
            "before 1970",
        ),
        (
            "Retry-After",
            "Sun, 30 Aug 2036 10:42:59 GMT",
            "longer than a year",
        ),
        ("Retry-After", "99999999999999999999999", "too large"),
        ("RateLimit-Reset", "999999999", "longer than a year"),
        ("X-RateLimit-Reset", "99999999999", "longer than a year"),
        (
            "RateLimit-Reset",
            "18446744073709551615",
            "longer than a year",
        ),
        ("RateLimit", "\"burst\";r=0", "no t"),
        ("RateLimit", "\"burst\";r=0;t=-1", "negative"),
        ("RateLimit", "\"burst\";t=soon", "whole number"),
        ("RateLimit", "\"burst;t=1", "never closed"),
        ("RateLimit", ";t=1", "policy name"),
        ("RateLimit", "\"burst\";t=1 junk", "whole number"),
        ("RateLimit", "\"burst\" x;t=1", "unexpected"),
        ("RateLimit", "\"burst\";t", "without a value"),
        ("RateLimit-Policy", "\"burst\";q=10;w=1", "not a wait"),
        ("Content-Type", "120", "not a rate-limit header"),
    ];

    #[test]
    fn anything_unreadable_is_an_error_sentence_not_a_zero_wait() {
        for (name, value, phrase) in BAD {
            match wait_from_header(name, value, NOW_US) {
                Ok(w) => panic!("{name}: '{value}' gave {w:?}"),
                Err(e) => assert!(e.contains(phrase), "{name}: '{value}': {e}"),
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

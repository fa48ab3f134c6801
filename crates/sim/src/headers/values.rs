//! The plain (not structured) numbers rate-limit headers carry: RFC 9110's
//! delta-seconds, the decimal seconds and milliseconds of vendor headers, and Go's
//! duration strings. Every reading saturates instead of overflowing, and rounds up to
//! the next microsecond, so that a client that obeys it is never early.

use crate::time::US_PER_S;

/// Why a `Retry-After` value is not `1*DIGIT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaFault {
    /// A `+` or `-` in front.
    Signed,
    /// A decimal point.
    Fraction,
    /// A digit that is not ASCII (Arabic-Indic, full-width, …).
    NonAsciiDigit,
    /// Anything else that is neither digits nor a date.
    NotDigits,
}

/// Why a vendor header's value cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueFault {
    /// Not a non-negative decimal number (`12`, `1.5`).
    NotANumber,
    /// Not a Go duration (`6m0s`, `1s`, `12ms`).
    NotADuration,
    /// A number without a unit: Go reads only `0` so (`60` is not `60s`).
    DurationWithoutUnit,
    /// A Go duration with a minus sign: Go writes negative durations, but a wait cannot be
    /// one.
    NegativeDuration,
    /// A Go duration longer than Go's `time.Duration` holds (2⁶³ − 1 ns, about 292
    /// years): no Go program wrote it.
    DurationOverflow,
    /// Longer than [`GO_DURATION_MAX_BYTES`]: more than any Go duration string.
    DurationTooManyBytes,
    /// Not an RFC 3339 timestamp (`2026-08-30T10:42:59Z`).
    NotATimestamp(StampFault),
    /// Neither a number nor anything shaped like an RFC 3339 timestamp.
    NotANumberOrTimestamp,
    /// Not `used/limit` in whole numbers.
    NotACallLimit,
}

/// Why text is not an RFC 3339 `date-time`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StampFault {
    /// Not `YYYY-MM-DDThh:mm:ss[.frac]` followed by a zone.
    Shape,
    /// No zone (`Z` or `±hh:mm`): a local time names no single instant.
    NoZone,
    /// A zone offset other than `hh:mm` within ±23:59.
    Offset,
    /// A day the month does not have.
    NoSuchDay,
    /// An hour, minute or second out of range.
    NoSuchTime,
    /// An instant before 1970.
    Before1970,
    /// Longer than [`TIMESTAMP_MAX_BYTES`].
    TooManyBytes,
}

/// The longest Go duration read: `time.Duration.String()` writes at most 25 bytes
/// (`-2562047h47m16.854775808s`); 32 leaves room for a `µ` and a few leading zeros.
pub const GO_DURATION_MAX_BYTES: usize = 32;

/// The longest RFC 3339 timestamp read: `2026-08-30T10:42:59.123456789+05:30` is 35 bytes;
/// 64 allows longer fractions.
pub const TIMESTAMP_MAX_BYTES: usize = 64;

/// The longest `time.Duration`, in nanoseconds: `i64::MAX`.
const GO_MAX_NS: u128 = i64::MAX as u128;

/// Delta-seconds, `1*DIGIT`, as microseconds (saturating: a value too large for any
/// clock is simply very long, and the reader's cap takes it from there).
pub(super) fn delta_seconds(value: &str) -> Result<u64, DeltaFault> {
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(whole(value).saturating_mul(US_PER_S));
    }
    Err(if value.starts_with(['+', '-']) {
        DeltaFault::Signed
    } else if value.contains('.') && value.chars().all(|c| c == '.' || c.is_ascii_digit()) {
        DeltaFault::Fraction
    } else if value.chars().any(|c| c.is_numeric() && !c.is_ascii_digit()) {
        DeltaFault::NonAsciiDigit
    } else {
        DeltaFault::NotDigits
    })
}

/// ASCII digits as a number, saturating.
pub(super) fn whole(digits: &str) -> u64 {
    digits.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    })
}

/// A non-negative decimal, `1*DIGIT [ "." 1*DIGIT ]`, times 10⁶, rounded up, saturating.
/// For seconds this is microseconds; for milliseconds, nanoseconds.
pub(super) fn micros(value: &str) -> Result<u128, ValueFault> {
    let (int, frac) = value.split_once('.').unwrap_or((value, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || (value.ends_with('.')) {
        return Err(ValueFault::NotANumber);
    }
    let mut n = int.bytes().fold(0u128, |n, b| {
        n.saturating_mul(10).saturating_add(u128::from(b - b'0'))
    });
    n = n.saturating_mul(1_000_000);
    let mut scale = 1_000_000u128;
    for b in frac.bytes() {
        let d = u128::from(b - b'0');
        if scale == 1 {
            // Past the sixth decimal: any non-zero digit rounds up, once.
            if frac.bytes().skip(6).any(|b| b != b'0') {
                n = n.saturating_add(1);
            }
            break;
        }
        scale /= 10;
        n = n.saturating_add(d * scale);
    }
    Ok(n)
}

/// A `u128` as a `u64`, saturating.
pub(super) fn clamp_u64(n: u128) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// A Go duration string (`time.Duration.String()`: `6m0s`, `1h2m3.5s`, `12ms`, `0s`) as
/// microseconds, rounded up. Go also accepts a bare `0`; signs are refused, since a wait
/// cannot be negative. Bounded as Go bounds it: more than `i64::MAX` nanoseconds is
/// [`ValueFault::DurationOverflow`], and text longer than [`GO_DURATION_MAX_BYTES`] is
/// refused before it is read.
pub(super) fn go_duration(value: &str) -> Result<u64, ValueFault> {
    if value.len() > GO_DURATION_MAX_BYTES {
        return Err(ValueFault::DurationTooManyBytes);
    }
    if value == "0" {
        return Ok(0);
    }
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(ValueFault::DurationWithoutUnit);
    }
    if let Some(magnitude) = value.strip_prefix('-') {
        if let Ok(_) | Err(ValueFault::DurationOverflow) = go_duration(magnitude) {
            return Err(ValueFault::NegativeDuration);
        }
    }
    let mut rest = value;
    let mut total_ns: u128 = 0;
    if rest.is_empty() {
        return Err(ValueFault::NotADuration);
    }
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or(ValueFault::NotADuration)?;
        let (num, after) = rest
            .split_at_checked(num_len)
            .ok_or(ValueFault::NotADuration)?;
        let (unit_ns, after_unit) = [
            ("ns", 1u128),
            ("us", 1_000),
            ("µs", 1_000),
            ("μs", 1_000),
            ("ms", 1_000_000),
            ("s", 1_000_000_000),
            ("m", 60_000_000_000),
            ("h", 3_600_000_000_000),
        ]
        .into_iter()
        .find_map(|(unit, per)| Some((per, after.strip_prefix(unit)?)))
        .ok_or(ValueFault::NotADuration)?;
        let ns = nanos(num, unit_ns).ok_or(ValueFault::NotADuration)?;
        total_ns = total_ns.saturating_add(ns);
        if total_ns > GO_MAX_NS {
            return Err(ValueFault::DurationOverflow);
        }
        rest = after_unit;
    }
    Ok(clamp_u64(total_ns.div_ceil(1_000)))
}

/// `1*DIGIT [ "." 1*DIGIT ]` of a unit `unit_ns` nanoseconds long, in nanoseconds, exact
/// to the nanosecond and rounded up (saturating). Go durations are written to the
/// nanosecond, so a coarser reading would push Go's own longest duration over its limit.
fn nanos(num: &str, unit_ns: u128) -> Option<u128> {
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || num.ends_with('.') {
        return None;
    }
    let value = |s: &str| {
        s.bytes().fold(0u128, |n, b| {
            n.saturating_mul(10).saturating_add(u128::from(b - b'0'))
        })
    };
    // 18 fractional digits are finer than a nanosecond of an hour; any further non-zero
    // digit rounds up once.
    let kept = frac.get(..18).unwrap_or(frac);
    let scale = 10u128.pow(kept.len() as u32);
    let scaled = value(kept) * unit_ns;
    let mut frac_ns = scaled.div_ceil(scale);
    if scaled.is_multiple_of(scale) && frac.bytes().skip(18).any(|b| b != b'0') {
        frac_ns += 1;
    }
    Some(value(int).saturating_mul(unit_ns).saturating_add(frac_ns))
}

/// An RFC 3339 `date-time` (section 5.6: `2026-08-30T10:42:59Z`,
/// `2026-08-30T12:42:59.5+02:00`) as epoch microseconds, a fraction rounded up. `T` and
/// `Z` may be lowercase, as the RFC allows; a space for `T` is refused (the RFC only
/// permits applications to agree on it). A leap second (`:60`) is the next minute's first.
pub(super) fn rfc3339_us(value: &str) -> Result<u64, StampFault> {
    if value.len() > TIMESTAMP_MAX_BYTES {
        return Err(StampFault::TooManyBytes);
    }
    let b = value.as_bytes();
    let digits = |from: usize, n: usize| -> Option<u64> {
        let part = b.get(from..from + n)?;
        part.iter()
            .all(u8::is_ascii_digit)
            .then(|| part.iter().fold(0, |v, d| v * 10 + u64::from(d - b'0')))
    };
    let sep = |at: usize, c: &[u8]| b.get(at).is_some_and(|x| c.contains(x));
    let fields = (|| {
        let ok = sep(4, b"-") && sep(7, b"-") && sep(10, b"Tt") && sep(13, b":") && sep(16, b":");
        ok.then_some(())?;
        Some([
            digits(0, 4)?,
            digits(5, 2)?,
            digits(8, 2)?,
            digits(11, 2)?,
            digits(14, 2)?,
            digits(17, 2)?,
        ])
    })();
    let [year, month, day, h, m, s] = fields.ok_or(StampFault::Shape)?;
    // The fraction: digits after a dot, rounded up to the microsecond.
    let mut at = 19;
    let mut frac_us = 0u64;
    if b.get(at) == Some(&b'.') {
        let n = b[at + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if n == 0 {
            return Err(StampFault::Shape);
        }
        let frac = value.get(at + 1..at + 1 + n).ok_or(StampFault::Shape)?;
        frac_us = u64::try_from(micros(&format!("0.{frac}")).map_err(|_| StampFault::Shape)?)
            .map_err(|_| StampFault::Shape)?;
        at += 1 + n;
    }
    let offset_s: i64 = match value.get(at..).ok_or(StampFault::Shape)? {
        "" => return Err(StampFault::NoZone),
        "Z" | "z" => 0,
        zone => {
            let zb = zone.as_bytes();
            let sign = match zb[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return Err(StampFault::Shape),
            };
            if zb.len() != 6 || zb[3] != b':' {
                return Err(StampFault::Offset);
            }
            let (oh, om) = (digits(at + 1, 2), digits(at + 4, 2));
            match (oh, om) {
                (Some(oh), Some(om)) if oh <= 23 && om <= 59 => {
                    sign * (oh * 3_600 + om * 60) as i64
                }
                _ => return Err(StampFault::Offset),
            }
        }
    };
    if !(1..=12).contains(&month) {
        return Err(StampFault::NoSuchDay);
    }
    if year < 1970 {
        return Err(StampFault::Before1970);
    }
    let local_s = super::instant(year, month, day, h, m, s).map_err(|e| match e {
        super::HttpDateError::NoSuchTime => StampFault::NoSuchTime,
        _ => StampFault::NoSuchDay,
    })?;
    // Local time minus its offset is UTC.
    let utc_s = i128::from(local_s) - i128::from(offset_s);
    let utc_s = u64::try_from(utc_s).map_err(|_| StampFault::Before1970)?;
    Ok(utc_s.saturating_mul(US_PER_S).saturating_add(frac_us))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        assert_eq!(go_duration("6m0s"), Ok(360_000_000));
        assert_eq!(go_duration("1s"), Ok(1_000_000));
        assert_eq!(go_duration("12ms"), Ok(12_000));
        assert_eq!(go_duration("1h2m3.5s"), Ok(3_723_500_000));
        assert_eq!(go_duration("1.5ns"), Ok(1));
        assert_eq!(go_duration("0"), Ok(0));
        for bad in [
            "", "1x", "s", "1.s", "1 s", "-", "--1s", "+1s", "1h-2m", "1e3s",
        ] {
            assert_eq!(go_duration(bad), Err(ValueFault::NotADuration), "{bad}");
        }
        assert_eq!(go_duration("5"), Err(ValueFault::DurationWithoutUnit));
        assert_eq!(go_duration("1.5"), Err(ValueFault::DurationWithoutUnit));
        assert_eq!(go_duration("-1s"), Err(ValueFault::NegativeDuration));
        assert_eq!(go_duration("-1m30.5s"), Err(ValueFault::NegativeDuration));
        // Go's longest duration, as its String() writes it, and one nanosecond more.
        assert_eq!(
            go_duration("2562047h47m16.854775807s"),
            Ok(9_223_372_036_854_776)
        );
        assert_eq!(
            go_duration("2562047h47m16.854775808s"),
            Err(ValueFault::DurationOverflow)
        );
        assert_eq!(go_duration("9999999h"), Err(ValueFault::DurationOverflow));
        assert_eq!(
            go_duration(&"1s".repeat(17)),
            Err(ValueFault::DurationTooManyBytes)
        );
        assert_eq!(go_duration(&"1s".repeat(16)), Ok(16_000_000));
    }

    #[test]
    fn rfc_3339_timestamps() {
        // Sun, 30 Aug 2026 10:42:59 GMT.
        let at_us = 1_788_086_579 * US_PER_S;
        assert_eq!(rfc3339_us("2026-08-30T10:42:59Z"), Ok(at_us));
        assert_eq!(rfc3339_us("2026-08-30t10:42:59z"), Ok(at_us));
        assert_eq!(rfc3339_us("2026-08-30T12:42:59+02:00"), Ok(at_us));
        assert_eq!(rfc3339_us("2026-08-30T05:12:59-05:30"), Ok(at_us));
        assert_eq!(rfc3339_us("2026-08-30T10:42:59.25Z"), Ok(at_us + 250_000));
        assert_eq!(
            rfc3339_us("2026-08-30T10:42:59.0000001Z"),
            Ok(at_us + 1),
            "rounded up"
        );
        assert_eq!(rfc3339_us("2026-08-30T10:42:60Z"), Ok(at_us + US_PER_S));
        assert_eq!(rfc3339_us("1970-01-01T00:00:00Z"), Ok(0));
        use StampFault::*;
        for (bad, fault) in [
            ("2026-08-30T10:42:59", NoZone),
            ("2026-08-30 10:42:59Z", Shape),
            ("2026-08-30T10:42Z", Shape),
            ("2026-8-30T10:42:59Z", Shape),
            ("2026-08-30T10:42:59.Z", Shape),
            ("2026-08-30T10:42:59 Z", Shape),
            ("2026-08-30T10:42:59+0200", Offset),
            ("2026-08-30T10:42:59+24:00", Offset),
            ("2026-08-30T10:42:59UTC", Shape),
            ("2026-02-30T10:42:59Z", NoSuchDay),
            ("2026-13-01T10:42:59Z", NoSuchDay),
            ("2026-08-30T24:00:00Z", NoSuchTime),
            ("1969-12-31T23:59:59Z", Before1970),
            ("1970-01-01T00:30:00+01:00", Before1970),
            ("", Shape),
            ("١٩٧٠-01-01T00:00:00Z", Shape),
        ] {
            assert_eq!(rfc3339_us(bad), Err(fault), "{bad}");
        }
        let long = format!("2026-08-30T10:42:59.{}Z", "1".repeat(60));
        assert_eq!(rfc3339_us(&long), Err(TooManyBytes));
    }

    #[test]
    fn decimals_round_up_and_saturate() {
        assert_eq!(micros("1.5"), Ok(1_500_000));
        assert_eq!(micros("0.0000001"), Ok(1));
        assert_eq!(micros("0.0000000"), Ok(0));
        assert_eq!(micros("12"), Ok(12_000_000));
        assert!(micros(&"9".repeat(100)).is_ok());
        for bad in ["", ".5", "1.", "-1", "1e3", "+1", " 1"] {
            assert_eq!(micros(bad), Err(ValueFault::NotANumber), "{bad}");
        }
    }

    #[test]
    fn delta_seconds_is_digits_only() {
        assert_eq!(delta_seconds("120"), Ok(120_000_000));
        assert_eq!(delta_seconds(&"9".repeat(40)), Ok(u64::MAX));
        assert_eq!(delta_seconds("-1"), Err(DeltaFault::Signed));
        assert_eq!(delta_seconds("+1"), Err(DeltaFault::Signed));
        assert_eq!(delta_seconds("1.5"), Err(DeltaFault::Fraction));
        assert_eq!(delta_seconds("١٢٠"), Err(DeltaFault::NonAsciiDigit));
        assert_eq!(delta_seconds("1e3"), Err(DeltaFault::NotDigits));
        assert_eq!(delta_seconds(""), Err(DeltaFault::NotDigits));
    }
}

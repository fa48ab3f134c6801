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
    /// Not `used/limit` in whole numbers.
    NotACallLimit,
}

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
/// cannot be negative.
pub(super) fn go_duration(value: &str) -> Result<u64, ValueFault> {
    if value == "0" {
        return Ok(0);
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
        let (num, after) = rest.split_at(num_len);
        // micros() gives the number times 10⁶; scale it to nanoseconds per unit.
        let n = micros(num).map_err(|_| ValueFault::NotADuration)?;
        let (ns_per_unit_e6, unit_len) = [
            ("ns", 1u128, 2),
            ("us", 1_000, 2),
            ("µs", 1_000, "µs".len()),
            ("μs", 1_000, "μs".len()),
            ("ms", 1_000_000, 2),
            ("s", 1_000_000_000, 1),
            ("m", 60_000_000_000, 1),
            ("h", 3_600_000_000_000, 1),
        ]
        .into_iter()
        .find(|(u, _, _)| after.starts_with(u))
        .map(|(_, per, len)| (per, len))
        .ok_or(ValueFault::NotADuration)?;
        total_ns = total_ns.saturating_add(n.saturating_mul(ns_per_unit_e6).div_ceil(1_000_000));
        rest = &after[unit_len..];
    }
    Ok(clamp_u64(total_ns.div_ceil(1_000)))
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
        for bad in ["", "5", "-1s", "1x", "s", "1.s", "1 s"] {
            assert_eq!(go_duration(bad), Err(ValueFault::NotADuration), "{bad}");
        }
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

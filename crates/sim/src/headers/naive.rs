//! The naive reading of a header value, language by language: what a client that takes
//! the value as seconds-to-wait really does with it in JavaScript (in a browser and in
//! Node), in Python and in Go.
//!
//! Each is modelled on the runtime's own rules, checked against the runtimes (the tests
//! quote the values that were run):
//!
//! - **JavaScript**, `setTimeout(retry, Number(value) * 1000)`. `Number()` follows
//!   ECMAScript's StringToNumber (an empty value is 0; decimals with an exponent,
//!   `Infinity` and `0x`/`0o`/`0b` are numbers; anything else is NaN), correctly rounded
//!   to a double, then multiplied by 1000 in doubles.
//!   - A **browser** passes the delay through WebIDL's `long`: NaN and infinities become
//!     0, anything else is truncated and taken modulo 2³² as a signed 32-bit integer, and
//!     HTML's timer steps make a negative result 0. So a delay over 2³¹−1 ms either wraps
//!     to a negative number and fires at once, or (2³² ms and more) wraps to a smaller
//!     positive delay: Chromium fires `2**32 + 300` after 300 ms.
//!   - **Node** sets any delay that is not between 1 and 2³¹−1 ms (NaN, negative, larger)
//!     to 1 ms, with a `TimeoutOverflowWarning` for the larger ones; otherwise it
//!     truncates.
//! - **Python**, `time.sleep(float(value))`. `float()` takes decimals with exponents and
//!   `_` between digits, and `inf`/`infinity`/`nan` in any case, but not an empty value or
//!   `0x…`; otherwise it raises `ValueError`. `time.sleep` turns the seconds into
//!   nanoseconds in a signed 64-bit count first: NaN raises `ValueError`, anything whose
//!   nanoseconds reach ±2⁶³ (about 292 years) raises `OverflowError`, and then a negative
//!   value raises `ValueError`. Python 3.11 and later sleep until a deadline on the
//!   monotonic clock, and raise `OSError` (EINVAL) when that deadline passes 2⁶³ ns: a
//!   sleep within the machine's uptime of the limit. CPython 3.8 to 3.13 were run.
//! - **Go**, `n, err := strconv.Atoi(value)` then `time.Sleep(time.Duration(n) *
//!   time.Second)`. `Atoi` takes an optional sign and ASCII digits only: anything else is
//!   `invalid syntax`, more than an `int64` holds is `value out of range`. The product is
//!   `int64` nanoseconds and wraps silently past about 292 years; `time.Sleep` returns at
//!   once for a duration of zero or less.
//!
//! The doubles here model a runtime that computes in doubles: no rule of the simulation
//! uses them, and every operation is IEEE-exact, so the same value gives the same reading
//! everywhere.

use super::sign;

/// 2³¹ − 1 ms, the longest delay a JavaScript timer keeps (about 24.8 days).
pub const JS_MAX_DELAY_MS: u32 = 2_147_483_647;

/// 2⁶³ nanoseconds, where Python's and Go's 64-bit nanosecond counts end (about 292 years).
pub const NS_LIMIT: u128 = 1 << 63;

/// How close below [`NS_LIMIT`] a Python sleep must come before a deadline on the
/// monotonic clock may pass it: ten years of uptime, in nanoseconds.
pub const PYTHON_UPTIME_BAND_NS: u64 = 10 * 31_557_600 * 1_000_000_000;

/// What JavaScript's timers do with `Number(value) * 1000`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JsTimer {
    /// `Number(value) * 1000`, as JavaScript computes it: may be NaN, infinite, negative
    /// or far past any timer.
    pub delay_ms: f64,
    /// The delay as WebIDL's `long` makes it: truncated, modulo 2³², signed.
    pub int32_ms: i32,
    /// The delay a browser's timer really waits, in whole milliseconds (0: at once).
    pub browser_ms: u32,
    /// The delay Node's timer really waits, in whole milliseconds (1: at once).
    pub node_ms: u32,
}

impl JsTimer {
    /// The delay is past 2³¹−1 ms, the most a timer keeps (a browser wraps it, Node
    /// replaces it with 1 ms).
    pub fn overflows(&self) -> bool {
        self.delay_ms.abs() >= f64::from(JS_MAX_DELAY_MS) + 1.0
    }
}

/// What `time.sleep(float(value))` does in CPython.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PythonSleep {
    /// `float()` raises `ValueError`: not a number in Python's grammar.
    NotAFloat,
    /// The text is not ASCII: `float()` also reads other scripts' digits and spaces,
    /// which this model does not.
    NotModelled,
    /// `float()` gives NaN and `time.sleep` raises `ValueError`.
    NaN,
    /// The nanoseconds reach ±2⁶³: `OverflowError`.
    Overflow,
    /// A negative number of seconds: `ValueError`.
    Negative,
    /// Sleeps this long; `near_limit` when it is within [`PYTHON_UPTIME_BAND_NS`] of the
    /// limit, where Python 3.11 and later may raise `OSError` instead.
    Sleeps {
        /// The sleep, in microseconds, rounded up.
        us: u64,
        /// Within reach of the limit on a machine that has been up a while.
        near_limit: bool,
    },
}

/// What `strconv.Atoi` and `time.Sleep(time.Duration(n) * time.Second)` do in Go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoSleep {
    /// `strconv.Atoi`: invalid syntax.
    Syntax,
    /// `strconv.Atoi`: value out of range (more than an `int64` holds).
    Range,
    /// `time.Sleep` returns at once: a duration of zero or less, after any wrap.
    AtOnce {
        /// The seconds parsed.
        n: i64,
        /// `n × 10⁹` wrapped around `int64`.
        wrapped: bool,
    },
    /// Sleeps this long.
    Sleeps {
        /// The seconds parsed.
        n: i64,
        /// The nanoseconds `time.Sleep` gets, after any wrap.
        ns: i64,
        /// `n × 10⁹` wrapped around `int64`.
        wrapped: bool,
    },
}

/// The naive reading of one value in each language.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NaiveReadings {
    /// JavaScript's timers, in a browser and in Node.
    pub js: JsTimer,
    /// CPython's `time.sleep(float(value))`.
    pub python: PythonSleep,
    /// Go's `strconv.Atoi` and `time.Sleep`.
    pub go: GoSleep,
}

/// The naive reading of `value` (a header's value, as the server sent it).
pub fn naive_readings(value: &str) -> NaiveReadings {
    let delay_ms = js_number(value) * 1000.0;
    let int32_ms = to_int32(delay_ms);
    NaiveReadings {
        js: JsTimer {
            delay_ms,
            int32_ms,
            browser_ms: int32_ms.max(0) as u32,
            node_ms: node_delay_ms(delay_ms),
        },
        python: python_sleep(value),
        go: go_sleep(value),
    }
}

/// WebIDL's `long` conversion (ECMAScript's ToInt32): NaN and infinities are 0, anything
/// else is truncated and taken modulo 2³².
fn to_int32(ms: f64) -> i32 {
    if !ms.is_finite() {
        return 0;
    }
    let t = ms.trunc().abs();
    // A double at or above 2¹²⁸ is a multiple of 2³²: its low 32 bits are zero.
    let low = if t < 3.402_823_669_209_385e38 {
        t as u128 as u32
    } else {
        0
    };
    (if ms < 0.0 { low.wrapping_neg() } else { low }) as i32
}

/// Node's rule: a delay not in 1..=2³¹−1 ms is 1 ms; otherwise truncated.
fn node_delay_ms(ms: f64) -> u32 {
    if ms >= 1.0 && ms <= f64::from(JS_MAX_DELAY_MS) {
        ms as u32
    } else {
        1
    }
}

/// ECMAScript's StringToNumber: whitespace trimmed; empty is 0; `[+-]` decimal with an
/// optional exponent, or `[+-]Infinity`; `0x`/`0o`/`0b` integers without a sign; else NaN.
fn js_number(value: &str) -> f64 {
    // StrWhiteSpace: Unicode spaces, line terminators and the BOM (not U+0085).
    let t = value.trim_matches(|c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}');
    if t.is_empty() {
        return 0.0;
    }
    let b = t.as_bytes();
    if b.len() > 2 && b[0] == b'0' {
        let radix = match b[1] {
            b'x' | b'X' => 16,
            b'o' | b'O' => 8,
            b'b' | b'B' => 2,
            _ => 0,
        };
        if radix != 0 {
            return radix_integer(t.get(2..).unwrap_or(""), radix);
        }
    }
    let (negative, body) = sign(t);
    let magnitude = if body == "Infinity" {
        f64::INFINITY
    } else if decimal_literal(body, false) {
        decimal_to_f64(body)
    } else {
        f64::NAN
    };
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// Digits in `radix`, as a correctly rounded double up to 2¹²⁸ (past that, approximate:
/// every timer treats it the same), or NaN when a digit is missing or wrong.
fn radix_integer(digits: &str, radix: u32) -> f64 {
    let mut exact: u128 = 0;
    let mut approx = 0.0f64;
    let mut big = false;
    for c in digits.chars() {
        let Some(d) = c.to_digit(radix) else {
            return f64::NAN;
        };
        approx = approx * f64::from(radix) + f64::from(d);
        match exact
            .checked_mul(u128::from(radix))
            .and_then(|n| n.checked_add(u128::from(d)))
        {
            Some(n) => exact = n,
            None => big = true,
        }
    }
    if big {
        approx
    } else {
        exact as f64
    }
}

/// The powers of ten a double holds exactly.
const EXACT_POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A decimal literal (checked by [`decimal_literal`], no `_`) as the nearest double, as
/// JavaScript's `Number()` and Python's `float()` both round it. Written out rather than
/// `str::parse`, whose tables cost the page's module about 18 KB.
///
/// Exact (correctly rounded) for every integer of up to 38 digits and, by Clinger's fast
/// path, for up to 15 significant digits scaled by 10^±22, which covers what servers send.
/// Beyond those the result may be off by a few units in the last place: too little to move
/// any reading here, since by then the value is a whole number of milliseconds far past
/// every limit, or far below a millisecond.
fn decimal_to_f64(s: &str) -> f64 {
    let (mantissa, exponent) = s.split_once(['e', 'E']).unwrap_or((s, ""));
    let (mut sig, mut exp10, mut inexact, mut after_point) = (0u128, 0i64, false, false);
    for b in mantissa.bytes() {
        if b == b'.' {
            after_point = true;
            continue;
        }
        let d = u128::from(b - b'0');
        match sig.checked_mul(10).and_then(|n| n.checked_add(d)) {
            Some(n) => {
                sig = n;
                if after_point {
                    exp10 -= 1;
                }
            }
            // Past 38 digits: a dropped digit before the point still multiplies by ten.
            None => {
                inexact |= d != 0;
                if !after_point {
                    exp10 += 1;
                }
            }
        }
    }
    let written: i64 = {
        let (neg, digits) = sign(exponent);
        // Past ±10⁶ the value is infinite or zero whatever the digits say.
        let e = digits
            .bytes()
            .fold(0i64, |n, b| (n * 10 + i64::from(b - b'0')).min(1_000_000));
        if neg {
            -e
        } else {
            e
        }
    };
    let exp10 = exp10 + written;
    if sig == 0 {
        return 0.0;
    }
    if !inexact && exp10 >= 0 {
        if let Some(v) = (0..exp10).try_fold(sig, |v, _| v.checked_mul(10)) {
            // One rounding, from an exact integer: correctly rounded.
            return v as f64;
        }
    }
    if !inexact && sig < 1 << 53 && (-22..=22).contains(&exp10) {
        let p = EXACT_POW10[exp10.unsigned_abs() as usize];
        return if exp10 < 0 {
            sig as f64 / p
        } else {
            sig as f64 * p
        };
    }
    let mut v = sig as f64;
    let mut e = exp10.clamp(-1_000, 1_000);
    while e > 0 {
        let step = e.min(22);
        v *= EXACT_POW10[step as usize];
        e -= step;
    }
    while e < 0 {
        let step = (-e).min(22);
        v /= EXACT_POW10[step as usize];
        e += step;
    }
    v
}

/// `digits [. [digits]] [exponent] | . digits [exponent]`, ASCII only. With
/// `underscores`, a single `_` may sit between two digits (Python's grammar).
fn decimal_literal(s: &str, underscores: bool) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| -> usize {
        let start = *i;
        while *i < b.len() {
            // A digit, or (Python) one `_` between two digits.
            let underscore = underscores
                && b[*i] == b'_'
                && *i > start
                && b.get(*i + 1).is_some_and(u8::is_ascii_digit);
            if !(b[*i].is_ascii_digit() || underscore) {
                break;
            }
            *i += 1;
        }
        *i - start
    };
    let whole = digits(&mut i);
    let mut frac = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        frac = digits(&mut i);
    }
    if whole + frac == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// CPython's `float(value)` then `time.sleep`.
fn python_sleep(value: &str) -> PythonSleep {
    if !value.is_ascii() {
        return PythonSleep::NotModelled;
    }
    // Python strips ASCII whitespace and the four separators \x1c to \x1f.
    let t = value.trim_matches(|c: char| c.is_ascii_whitespace() || ('\x1c'..='\x1f').contains(&c));
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let lower = body.to_ascii_lowercase();
    let magnitude = match lower.as_str() {
        "inf" | "infinity" => f64::INFINITY,
        "nan" => f64::NAN,
        _ if decimal_literal(body, true) => decimal_to_f64(&body.replace('_', "")),
        _ => return PythonSleep::NotAFloat,
    };
    let secs = if t.starts_with('-') {
        -magnitude
    } else {
        magnitude
    };
    if secs.is_nan() {
        return PythonSleep::NaN;
    }
    // _PyTime_FromSecondsObject: seconds × 10⁹, rounded up, must lie in [−2⁶³, 2⁶³).
    let ns = (secs * 1e9).ceil();
    let limit = NS_LIMIT as f64;
    if !(-limit <= ns && ns < limit) {
        return PythonSleep::Overflow;
    }
    if secs < 0.0 {
        return PythonSleep::Negative;
    }
    let ns = ns as u64;
    PythonSleep::Sleeps {
        us: ns.div_ceil(1_000),
        near_limit: u128::from(ns) + u128::from(PYTHON_UPTIME_BAND_NS) >= NS_LIMIT,
    }
}

/// Go's `strconv.Atoi` (base 10, 64-bit), then `time.Duration(n) * time.Second`.
fn go_sleep(value: &str) -> GoSleep {
    let (negative, digits) = sign(value);
    if digits.is_empty() {
        return GoSleep::Syntax;
    }
    // As ParseUint does: a wrong byte is a syntax error, an overflow a range error,
    // whichever comes first.
    let mut n: u64 = 0;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return GoSleep::Syntax;
        }
        match n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
        {
            Some(v) => n = v,
            None => return GoSleep::Range,
        }
    }
    let n = match (negative, i64::try_from(n)) {
        (false, Ok(v)) => v,
        (true, Ok(v)) => -v,
        (true, Err(_)) if n == 1 << 63 => i64::MIN,
        _ => return GoSleep::Range,
    };
    let ns = n.wrapping_mul(1_000_000_000);
    let wrapped = n.checked_mul(1_000_000_000).is_none();
    if ns <= 0 {
        GoSleep::AtOnce { n, wrapped }
    } else {
        GoSleep::Sleeps { n, ns, wrapped }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(value: &str) -> (u32, u32) {
        let t = naive_readings(value).js;
        assert_eq!(t.browser_ms, t.int32_ms.max(0) as u32, "{value}");
        (t.browser_ms, t.node_ms)
    }

    /// Measured in Chromium 156 and Node 20 with a real `setTimeout`.
    #[test]
    fn javascript_timers_wrap_in_a_browser_and_give_up_in_node() {
        assert_eq!(js("0.3"), (300, 300));
        assert_eq!(js("120"), (120_000, 120_000));
        assert_eq!(js("Sun, 30 Aug 2026 10:42:59 GMT"), (0, 1));
        assert_eq!(js("-5"), (0, 1));
        // 2³¹ + 300 ms: negative as a 32-bit integer.
        assert_eq!(js("2147483.948"), (0, 1));
        assert_eq!(naive_readings("2147483.948").js.int32_ms, -2_147_483_348);
        // 2³² + 300 ms: wraps to 300 ms in a browser.
        assert_eq!(js("4294967.596"), (300, 1));
        // GitHub's reset read as seconds: 1,788,086,579,000 ms mod 2³² = 1,380,183,864.
        assert_eq!(js("1788086579"), (1_380_183_864, 1));
        assert_eq!(js("99999999999999999999"), (0, 1));
        assert_eq!(js("1e400"), (0, 1));
        assert_eq!(js("-4294966.996"), (300, 1));
        assert_eq!(js("250.9e-3"), (250, 250));
        assert!(naive_readings("1788086579").js.overflows());
        assert!(!naive_readings("2147483.647").js.overflows());
    }

    #[test]
    fn decimals_round_as_the_runtimes_round_them() {
        // Each against Rust's own correctly rounded parser, which the page does not carry.
        for v in [
            "0",
            "120",
            "1.250",
            "0.05",
            "000.5e1",
            "5.",
            ".5",
            "1788086579",
            "1788086580.250",
            "99999999999999999999",
            "18446744073709551617",
            "9007199254740993",
            "12345678901234567890123456789012345678",
            "1e20",
            "1.5e-7",
            "2147483.948",
            "4294967.596",
            "0.1",
            "0.29",
            "1.005",
            "3.14159e2",
            "1e22",
            "1e-22",
        ] {
            let want: f64 = v.parse().unwrap();
            assert_eq!(decimal_to_f64(v).to_bits(), want.to_bits(), "{v}");
        }
        // Outside the exact paths: within a few units in the last place, and the same
        // infinities and zeros.
        for v in [
            "1e308",
            "1e309",
            "1e-400",
            "9223372036.854775807",
            "123456789012345678901234567890123456789",
            "1.0000000000000000000001e30",
        ] {
            let (got, want) = (decimal_to_f64(v), v.parse::<f64>().unwrap());
            assert!(
                got == want || ((got - want) / want).abs() < 1e-15,
                "{v}: {got:e} vs {want:e}"
            );
        }
    }

    #[test]
    fn javascript_numbers_follow_string_to_number() {
        let n = |v: &str| js_number(v);
        assert_eq!(n(""), 0.0);
        assert_eq!(n("  12  "), 12.0);
        assert_eq!(n("1e3"), 1000.0);
        assert_eq!(n("0x10"), 16.0);
        assert_eq!(n("0b101"), 5.0);
        assert_eq!(n(".5"), 0.5);
        assert_eq!(n("5."), 5.0);
        assert_eq!(n("-Infinity"), f64::NEG_INFINITY);
        assert_eq!(n("99999999999999999999"), 1e20);
        for nan in [
            ".", "1_000", "-0x10", "infinity", "1e", "0x", "12px", "NaN", "١٢",
        ] {
            assert!(n(nan).is_nan(), "{nan}");
        }
    }

    /// Run in CPython 3.8, 3.11, 3.12 and 3.13.
    #[test]
    fn python_raises_where_cpython_raises() {
        use PythonSleep::*;
        let p = |v: &str| naive_readings(v).python;
        assert_eq!(
            p("120"),
            Sleeps {
                us: 120_000_000,
                near_limit: false
            }
        );
        assert_eq!(
            p("1_000"),
            Sleeps {
                us: 1_000_000_000,
                near_limit: false
            }
        );
        assert_eq!(
            p(" 1e3 "),
            Sleeps {
                us: 1_000_000_000,
                near_limit: false
            }
        );
        assert_eq!(
            p("-0"),
            Sleeps {
                us: 0,
                near_limit: false
            }
        );
        assert_eq!(p(""), NotAFloat);
        assert_eq!(p("0x10"), NotAFloat);
        assert_eq!(p("Sun, 30 Aug 2026 10:42:59 GMT"), NotAFloat);
        assert_eq!(p("NaN"), NaN);
        assert_eq!(p("-nan"), NaN);
        assert_eq!(p("-1"), Negative);
        assert_eq!(p("-1e20"), Overflow);
        assert_eq!(p("Infinity"), Overflow);
        assert_eq!(p("1e10"), Overflow);
        assert_eq!(p("99999999999999999999"), Overflow);
        assert_eq!(p("9223372037"), Overflow);
        assert_eq!(
            p("1788086579"),
            Sleeps {
                us: 1_788_086_579_000_000,
                near_limit: false
            }
        );
        assert!(matches!(
            p("9223372036"),
            Sleeps {
                near_limit: true,
                ..
            }
        ));
        assert_eq!(p("١٢"), NotModelled);
    }

    #[test]
    fn go_parses_with_atoi_and_wraps_the_product() {
        use GoSleep::*;
        let g = |v: &str| naive_readings(v).go;
        assert_eq!(
            g("120"),
            Sleeps {
                n: 120,
                ns: 120_000_000_000,
                wrapped: false
            }
        );
        assert_eq!(
            g("+5"),
            Sleeps {
                n: 5,
                ns: 5_000_000_000,
                wrapped: false
            }
        );
        assert_eq!(
            g("-5"),
            AtOnce {
                n: -5,
                wrapped: false
            }
        );
        assert_eq!(
            g("0"),
            AtOnce {
                n: 0,
                wrapped: false
            }
        );
        assert_eq!(g("1.5"), Syntax);
        assert_eq!(g(""), Syntax);
        assert_eq!(g("Sun, 30 Aug 2026 10:42:59 GMT"), Syntax);
        assert_eq!(g("99999999999999999999"), Range);
        assert_eq!(g("9223372036854775808"), Range);
        assert_eq!(
            g("-9223372036854775808"),
            AtOnce {
                n: i64::MIN,
                wrapped: true
            }
        );
        assert_eq!(g("99999999999999999999x"), Range);
        let github = g("1788086579");
        assert_eq!(
            github,
            Sleeps {
                n: 1_788_086_579,
                ns: 1_788_086_579_000_000_000,
                wrapped: false
            }
        );
        // 10¹¹ s × 10⁹ wraps to 7,766,279,631,452,241,920 ns, about 246 years.
        assert_eq!(
            g("100000000000"),
            Sleeps {
                n: 100_000_000_000,
                ns: 7_766_279_631_452_241_920,
                wrapped: true
            }
        );
    }
}

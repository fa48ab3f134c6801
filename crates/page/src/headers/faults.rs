//! The sentences for a header that gives no wait: what the reader typed (or a server
//! sent), quoted, and what is wrong with it.

use crate::shared::markup::Whole;
use crate::shared::words::Words;
use sim::headers::{
    DateField, DeltaFault, HeaderError, HeaderFault, HttpDateError, Ignored, SecondsFault,
    StampFault, StructuredFault, ValueFault, Why, GO_DURATION_MAX_BYTES, TIMESTAMP_MAX_BYTES,
};
use std::fmt;

/// The form an HTTP-date takes, as the sentences show it.
const DATE_FORM: &str = "Sun, 30 Aug 2026 10:42:59 GMT";

impl Words for HeaderError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        match &self.fault {
            HeaderFault::Empty => write!(f, "{name} is empty: it gives no wait to obey"),
            HeaderFault::DescribesTheLimit => write!(
                f,
                "{name} describes the limit, not a wait: read RateLimit, RateLimit-Reset or \
                 Retry-After"
            ),
            HeaderFault::NotARateLimitHeader => write!(
                f,
                "{name} is not a rate-limit header: expected Retry-After, RateLimit, \
                 RateLimit-Reset or X-RateLimit-Reset"
            ),
            HeaderFault::Seconds(why) => write!(f, "{name}: '{}' {}", self.value, why.said()),
            HeaderFault::Date(why) => write!(f, "{name}: '{}' {}", self.value, why.said()),
            HeaderFault::Structured(why) => {
                write!(f, "{name}: '{}' {}", self.value, why.said())
            }
            HeaderFault::TooLong { wait_s } => write!(
                f,
                "{name}: '{}' asks for a wait of {wait_s} s, longer than a year: that is a \
                 misread header, not a rate limit",
                self.value
            ),
        }
    }
}

/// What is wrong with a number of seconds, written to follow the quoted value:
/// "'-5' is negative: …".
impl Words for SecondsFault {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SecondsFault::Negative => "is negative: a wait cannot point into the past",
            SecondsFault::NotWhole => "is not a whole number of seconds",
            SecondsFault::TooLarge => "is too large to be any number of seconds",
        })
    }
}

/// What is wrong with a structured field, written to follow the quoted value.
impl Words for StructuredFault {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StructuredFault::UnclosedQuote => {
                f.write_str("has a policy name whose quote is never closed")
            }
            StructuredFault::NoPolicyName => f.write_str("does not start with a policy name"),
            StructuredFault::TWithoutValue => f.write_str("has a t parameter without a value"),
            StructuredFault::BadT { t, fault } => write!(f, "has t={t}, which {}", fault.said()),
            StructuredFault::UnexpectedText { text } => {
                write!(f, "has unexpected text '{text}'")
            }
            StructuredFault::NoT => {
                f.write_str("has no t parameter, so it says nothing about when to retry")
            }
        }
    }
}

/// What is wrong with a date, written to follow the quoted value: "'soon' is not an
/// HTTP-date (…); expected the form '…'".
impl Words for HttpDateError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("is not an HTTP-date (")?;
        let what = match self {
            HttpDateError::Parts => "it needs six space-separated parts",
            HttpDateError::DayNameComma => "the day name must end with a comma",
            HttpDateError::DayName => "unknown day name",
            HttpDateError::Zone => "the zone must be GMT",
            HttpDateError::Digits(field) => {
                let name = match field {
                    DateField::Year => "year",
                    DateField::ShortYear => "two-digit year",
                    DateField::Day => "day",
                    DateField::Hour => "hour",
                    DateField::Minute => "minute",
                    DateField::Second => "second",
                };
                return write!(
                    f,
                    "the {name} must be {} digits); expected the form '{DATE_FORM}'",
                    field.digits()
                );
            }
            HttpDateError::Month => "unknown month",
            HttpDateError::Time => "the time must be hh:mm:ss",
            HttpDateError::Before1970 => "it is before 1970",
            HttpDateError::NoSuchDay => "no such day in that month",
            HttpDateError::NoSuchTime => "no such time of day",
        };
        write!(f, "{what}); expected the form '{DATE_FORM}'")
    }
}

/// Why the reader set a header aside, in one sentence that names it: "Retry-After '1.5'
/// has a decimal point: delta-seconds are whole seconds."
impl Words for Ignored {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (h, v) = (&self.header, &self.value);
        match &self.why {
            Why::Unrelated => write!(f, "{h} is not a rate-limit header."),
            Why::DescribesTheLimit => {
                write!(f, "{h} describes the limit, not when to retry.")
            }
            Why::Outranked { by } => write!(
                f,
                "{h} is valid, but {by} takes precedence over it."
            ),
            Why::Disagrees { by } => write!(
                f,
                "{h} '{v}' differs from {by} by a second or more, more than rounding to whole seconds explains, so {by}, the standard field, is obeyed."
            ),
            Why::Shorter { by } => write!(
                f,
                "{h} is valid, but {by} asks for a longer wait, and the longest is the one to obey."
            ),
            Why::QuotaLeft { remaining } => write!(
                f,
                "{h} says {remaining} request{} remain{}, so it asks for no wait.",
                if *remaining == 1 { "" } else { "s" },
                if *remaining == 1 { "s" } else { "" }
            ),
            Why::NoRemaining => write!(
                f,
                "{h} gives a reset but no remaining count, so the quota may not be spent."
            ),
            Why::NoReset => write!(
                f,
                "{h} says the quota is spent but not when it comes back."
            ),
            Why::FromCache { age_s } => write!(
                f,
                "{h} came from a cache (Age: {age_s}), so the quota it describes is stale."
            ),
            Why::Repeated => write!(
                f,
                "{h} repeats a field that may appear once; the first one is read."
            ),
            Why::Conflicting => write!(
                f,
                "{h} was sent more than once with different values, so none of them is trusted."
            ),
            Why::NotOneItem => write!(
                f,
                "{h} was sent more than once, and a structured Item field must appear once (RFC 9651)."
            ),
            Why::Empty => write!(f, "{h} is empty."),
            Why::NotDeltaSeconds(fault) => {
                let what = match fault {
                    DeltaFault::Signed => "has a sign: delta-seconds are digits only",
                    DeltaFault::Fraction => {
                        "has a decimal point: delta-seconds are whole seconds"
                    }
                    DeltaFault::NonAsciiDigit => "has digits other than ASCII 0–9",
                    DeltaFault::NotDigits => "is neither whole seconds nor an HTTP-date",
                };
                write!(f, "{h} '{v}' {what}.")
            }
            Why::NotADate(fault) => write!(
                f,
                "{h} '{v}' is not an HTTP-date in any of its three forms: {}.",
                date_fault(*fault)
            ),
            Why::NotStructured { at } => match at {
                Some(at) => write!(
                    f,
                    "{h} '{v}' is not a valid structured field (RFC 9651; it breaks at character {}), so the whole field is ignored.",
                    at + 1
                ),
                None => write!(
                    f,
                    "{h} '{v}' is not a valid structured field (RFC 9651), so the whole field is ignored."
                ),
            },
            Why::NotAnInteger { key } => write!(
                f,
                "{h} '{v}': {key} must be a non-negative integer, so the whole field is ignored."
            ),
            Why::NotAPolicy => write!(
                f,
                "{h} '{v}' lists something other than a policy name, so the whole field is ignored."
            ),
            Why::Value(fault) => match fault {
                ValueFault::NotANumber => write!(f, "{h} '{v}' is not a non-negative number."),
                ValueFault::NotADuration => write!(
                    f,
                    "{h} '{v}' is not a Go duration such as 6m0s, 1.5s or 12ms."
                ),
                ValueFault::DurationWithoutUnit => write!(
                    f,
                    "{h} '{v}' has no unit: a Go duration says 60s or 1m0s, never a bare number."
                ),
                ValueFault::NegativeDuration => write!(
                    f,
                    "{h} '{v}' is a negative Go duration: a wait cannot point into the past."
                ),
                ValueFault::DurationOverflow => write!(
                    f,
                    "{h} '{v}' is longer than a Go duration can be (about 292 years), so no Go server wrote it."
                ),
                ValueFault::DurationTooManyBytes => write!(
                    f,
                    "{h} is longer than {GO_DURATION_MAX_BYTES} characters, more than any Go duration, so it is not read."
                ),
                ValueFault::NotATimestamp(fault) => write!(
                    f,
                    "{h} '{v}' is not an RFC 3339 timestamp such as 2026-08-30T10:42:59Z: {}.",
                    stamp_fault(*fault)
                ),
                ValueFault::NotANumberOrTimestamp => write!(
                    f,
                    "{h} '{v}' is neither a number of seconds nor an RFC 3339 timestamp such as 2026-08-30T10:42:59Z."
                ),
                ValueFault::NotACallLimit => {
                    write!(f, "{h} '{v}' is not used/limit, such as 32/40.")
                }
            },
        }
    }
}

/// What is wrong with an RFC 3339 timestamp, as a clause.
fn stamp_fault(fault: StampFault) -> String {
    match fault {
        StampFault::Shape => "it is not date, T, time and zone".into(),
        StampFault::NoZone => "it has no zone (Z or ±hh:mm), so it names no single instant".into(),
        StampFault::Offset => "its zone offset is not ±hh:mm within a day".into(),
        StampFault::NoSuchDay => "no such day in that month".into(),
        StampFault::NoSuchTime => "no such time of day".into(),
        StampFault::Before1970 => "it is before 1970".into(),
        StampFault::TooManyBytes => format!("it is longer than {TIMESTAMP_MAX_BYTES} characters"),
    }
}

/// What is wrong with a date, as a clause.
fn date_fault(fault: HttpDateError) -> &'static str {
    match fault {
        HttpDateError::Parts => "its parts are not those of any form",
        HttpDateError::DayNameComma => "the day name must end with a comma",
        HttpDateError::DayName => "unknown day name (they are case-sensitive)",
        HttpDateError::Zone => "the zone must be GMT",
        HttpDateError::Digits(_) => "a number has the wrong count of digits",
        HttpDateError::Month => "unknown month (they are case-sensitive)",
        HttpDateError::Time => "the time must be hh:mm:ss",
        HttpDateError::Before1970 => "it is before 1970",
        HttpDateError::NoSuchDay => "no such day in that month",
        HttpDateError::NoSuchTime => "no such time of day",
    }
}

/// The two responses our token bucket sends (a 200 and a 429) as raw HTTP, as markup:
/// the status line, then each header (`data-header`), `Retry-After` marked.
pub fn responses_markup() -> maud::Markup {
    maud::html! {
        @for r in sim::lab::sample_responses() {
            pre.rll-source data-status=(Whole(r.status.into())) {
                code {
                    span.rll-line {
                        strong {
                            "HTTP/1.1 " (Whole(r.status.into())) " "
                            (if r.status == 200 { "OK" } else { "Too Many Requests" })
                        }
                    }
                    @for (k, v) in r.headers {
                        span.rll-line.rll-changed[k == "Retry-After"] data-header=(k) { (k) ": " (v) }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::shared::words::Words;
    use sim::headers::{parse_http_date, wait_from_header};

    /// Sun, 30 Aug 2026 10:40:59 GMT.
    const NOW_US: u64 = 1_788_086_459_000_000;

    fn words(name: &str, value: &str) -> String {
        wait_from_header(name, value, NOW_US)
            .unwrap_err()
            .sentence()
    }

    #[test]
    fn every_header_fault_is_a_sentence() {
        let cases = [
            (
                "Retry-After",
                " ",
                "Retry-After is empty: it gives no wait to obey",
            ),
            (
                "RateLimit-Policy",
                "\"burst\";q=10;w=1",
                "RateLimit-Policy describes the limit, not a wait: read RateLimit, \
                 RateLimit-Reset or Retry-After",
            ),
            (
                " Content-Type ",
                "120",
                "Content-Type is not a rate-limit header: expected Retry-After, RateLimit, \
                 RateLimit-Reset or X-RateLimit-Reset",
            ),
            (
                "Retry-After",
                "-5",
                "Retry-After: '-5' is negative: a wait cannot point into the past",
            ),
            (
                "Retry-After",
                " 1.5 ",
                "Retry-After: '1.5' is not a whole number of seconds",
            ),
            (
                "RateLimit-Reset",
                "99999999999999999999999",
                "RateLimit-Reset: '99999999999999999999999' is too large to be any number of \
                 seconds",
            ),
            (
                "Retry-After",
                "soon",
                "Retry-After: 'soon' is not an HTTP-date (it needs six space-separated \
                 parts); expected the form 'Sun, 30 Aug 2026 10:42:59 GMT'",
            ),
            (
                "RateLimit-Reset",
                "999999999",
                "RateLimit-Reset: '999999999' asks for a wait of 999999999 s, longer than a \
                 year: that is a misread header, not a rate limit",
            ),
            (
                "RateLimit",
                "\"burst;t=1",
                "RateLimit: '\"burst;t=1' has a policy name whose quote is never closed",
            ),
            (
                "RateLimit",
                ";t=1",
                "RateLimit: ';t=1' does not start with a policy name",
            ),
            (
                "RateLimit",
                "\"burst\";t",
                "RateLimit: '\"burst\";t' has a t parameter without a value",
            ),
            (
                "RateLimit",
                "\"burst\";t=-1",
                "RateLimit: '\"burst\";t=-1' has t=-1, which is negative: a wait cannot \
                 point into the past",
            ),
            (
                "RateLimit",
                "\"burst\" x;t=1",
                "RateLimit: '\"burst\" x;t=1' has unexpected text 'x;t=1'",
            ),
            (
                "RateLimit",
                "\"burst\";r=0",
                "RateLimit: '\"burst\";r=0' has no t parameter, so it says nothing about \
                 when to retry",
            ),
        ];
        for (name, value, sentence) in cases {
            assert_eq!(words(name, value), sentence, "{name}: {value}");
        }
    }

    #[test]
    fn every_vendor_form_fault_is_a_sentence() {
        // (block, the header set aside, its sentence).
        let cases = [
            (
                "x-ratelimit-remaining-requests: 0\nx-ratelimit-reset-requests: 60",
                "x-ratelimit-reset-requests '60' has no unit: a Go duration says 60s or 1m0s, never a bare number.",
            ),
            (
                "x-ratelimit-remaining-requests: 0\nx-ratelimit-reset-requests: -6m0s",
                "x-ratelimit-reset-requests '-6m0s' is a negative Go duration: a wait cannot point into the past.",
            ),
            (
                "x-ratelimit-remaining-requests: 0\nx-ratelimit-reset-requests: 2562047h47m16.854775808s",
                "x-ratelimit-reset-requests '2562047h47m16.854775808s' is longer than a Go duration can be (about 292 years), so no Go server wrote it.",
            ),
            (
                "x-ratelimit-remaining-requests: 0\nx-ratelimit-reset-requests: 1s1s1s1s1s1s1s1s1s1s1s1s1s1s1s1s1s",
                "x-ratelimit-reset-requests is longer than 32 characters, more than any Go duration, so it is not read.",
            ),
            (
                "x-ratelimit-remaining-requests: 0\nx-ratelimit-reset-requests: 6m0sX",
                "x-ratelimit-reset-requests '6m0sX' is not a Go duration such as 6m0s, 1.5s or 12ms.",
            ),
            (
                "Retry-After: 60\nretry-after-ms: 100",
                "retry-after-ms '100' differs from Retry-After by a second or more, more than rounding to whole seconds explains, so Retry-After, the standard field, is obeyed.",
            ),
            (
                "X-RateLimit-Remaining: 0\nX-RateLimit-Reset: soon",
                "X-RateLimit-Reset 'soon' is neither a number of seconds nor an RFC 3339 timestamp such as 2026-08-30T10:42:59Z.",
            ),
            (
                "anthropic-ratelimit-requests-remaining: 0\nanthropic-ratelimit-requests-reset: 2026-08-30T10:41:29",
                "anthropic-ratelimit-requests-reset '2026-08-30T10:41:29' is not an RFC 3339 timestamp such as 2026-08-30T10:42:59Z: it has no zone (Z or ±hh:mm), so it names no single instant.",
            ),
            (
                "anthropic-ratelimit-requests-remaining: 0\nanthropic-ratelimit-requests-reset: 2026-02-30T10:41:29Z",
                "anthropic-ratelimit-requests-reset '2026-02-30T10:41:29Z' is not an RFC 3339 timestamp such as 2026-08-30T10:42:59Z: no such day in that month.",
            ),
            (
                "anthropic-ratelimit-requests-limit: 50\nanthropic-ratelimit-requests-remaining: 1\nanthropic-ratelimit-requests-reset: 2026-08-30T10:41:29Z",
                "anthropic-ratelimit-requests-limit describes the limit, not when to retry.",
            ),
        ];
        for (block, sentence) in cases {
            let (_, r) = crate::headers::reader::read_block(block, sim::lab::LAB_EPOCH_S).unwrap();
            let said: Vec<String> = r.ignored.iter().map(|i| i.sentence()).collect();
            assert!(said.iter().any(|s| s == sentence), "{block}: {said:#?}");
        }
    }

    #[test]
    fn every_date_fault_is_a_sentence() {
        let cases = [
            (
                "Sun, 30 Aug 2026 10:42:59",
                "it needs six space-separated parts",
            ),
            (
                "Sun 30 Aug 2026 10:42:59 GMT",
                "the day name must end with a comma",
            ),
            ("Xyz, 30 Aug 2026 10:42:59 GMT", "unknown day name"),
            ("Sun, 30 Aug 2026 10:42:59 UTC", "the zone must be GMT"),
            ("Sun, 30 Aug 226 10:42:59 GMT", "the year must be 4 digits"),
            ("Sun, 30 Foo 2026 10:42:59 GMT", "unknown month"),
            ("Sun, 3 Aug 2026 10:42:59 GMT", "the day must be 2 digits"),
            ("Sun, 30 Aug 2026 10:42 GMT", "the time must be hh:mm:ss"),
            ("Sun, 30 Aug 2026 1:42:59 GMT", "the hour must be 2 digits"),
            (
                "Sun, 30 Aug 2026 10:4x:59 GMT",
                "the minute must be 2 digits",
            ),
            (
                "Sun, 30 Aug 2026 10:42:5 GMT",
                "the second must be 2 digits",
            ),
            ("Sun, 30 Aug 1969 10:42:59 GMT", "it is before 1970"),
            ("Sun, 31 Sep 2026 10:42:59 GMT", "no such day in that month"),
            ("Sun, 30 Aug 2026 24:00:00 GMT", "no such time of day"),
        ];
        for (date, why) in cases {
            assert_eq!(
                parse_http_date(date).unwrap_err().sentence(),
                format!(
                    "is not an HTTP-date ({why}); expected the form 'Sun, 30 Aug 2026 \
                     10:42:59 GMT'"
                ),
                "{date}"
            );
        }
    }

    #[test]
    fn the_sample_responses_show_every_header_and_mark_retry_after() {
        let m = crate::headers::faults::responses_markup().into_string();
        let responses = sim::lab::sample_responses();
        assert_eq!(
            m.matches("<pre class=\"rll-source\" data-status=").count(),
            responses.len()
        );
        let headers: usize = responses.iter().map(|r| r.headers.len()).sum();
        assert_eq!(m.matches("data-header=").count(), headers);
        assert!(
            m.contains("<strong>HTTP/1.1 429 Too Many Requests</strong>"),
            "{m}"
        );
        assert!(
            m.contains(
                "<span class=\"rll-line rll-changed\" data-header=\"Retry-After\">Retry-After: "
            ),
            "{m}"
        );
    }
}

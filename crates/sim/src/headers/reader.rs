//! The header reader: a whole response's header block in, the wait before the next
//! request out, with the header it came from and every header it set aside and why.
//!
//! # Precedence
//!
//! 1. **`Retry-After`** (RFC 9110, section 10.2.3), when valid, wins over every other
//!    signal, even a RateLimit field that says quota is left, and even when it says `0`:
//!    it is the one field that answers "when may I retry this", and the server chose to
//!    send it.
//! 2. **The RateLimit draft** (draft-ietf-httpapi-ratelimit-headers), in any of its three
//!    shapes. Only exhausted quotas (remaining 0) ask for a wait; when several are, the
//!    longest of their resets is obeyed, since a shorter one would be refused by the others.
//! 3. **Vendor forms**: `X-RateLimit-*` and `X-Rate-Limit-*`, OpenAI's
//!    `x-ratelimit-*-requests`/`-tokens`, Anthropic's `anthropic-ratelimit-*`,
//!    `retry-after-ms` and `x-ms-retry-after-ms`, Shopify's call limit. Again the longest
//!    wait among them is obeyed.
//!
//!    A millisecond `Retry-After` (`retry-after-ms`, `x-ms-retry-after-ms`) beside a valid
//!    `Retry-After` is read as the same field to the millisecond: when the two differ by
//!    less than a second (what rounding to whole seconds can explain), the first of them,
//!    in that order, gives the wait in `Retry-After`'s place, with its precedence;
//!    otherwise it is set aside ([`Why::Disagrees`]) and `Retry-After` is obeyed.
//!    docs/headers.md says why.
//! 4. Otherwise, no wait.
//!
//! # Choices where the specifications leave one open
//!
//! - A `Retry-After` sent twice with the same value is read once; with different values
//!   both are ignored (it is a singleton field, and we cannot tell which one is meant).
//! - A `Retry-After` of delta-seconds is seconds, however large: RFC 9110 has no
//!   timestamp form of it. `1788086579` is 56 years, which the cap turns into a day.
//! - The separate `RateLimit-Reset` of drafts 00 to 06 is delta-seconds, as those drafts
//!   say, even if it looks like a timestamp. A reset with no remaining count beside it is
//!   not a wait: without the count we cannot tell whether the quota is spent.
//! - A cached response (`Age` above 0) makes the draft's fields stale, as the draft says;
//!   we set the vendor quota fields aside too, for the same reason. `Retry-After` is kept.
//! - A structured `RateLimit` is read as a List (drafts 08 on) and, if it is not one, as
//!   a Dictionary (draft 07). A member with `r=0` and no `t` gives no wait.
//! - Vendor resets: a number above 10¹² is epoch milliseconds, above 10⁹ epoch seconds,
//!   otherwise delta-seconds (decimals allowed); text shaped `YYYY-MM-DD…` is an RFC 3339
//!   instant. `X-RateLimit-Reset-After` (a delta) is preferred over `X-RateLimit-Reset` (an
//!   instant that depends on both clocks). Anthropic's resets are RFC 3339 only.
//! - Go durations (`x-ratelimit-reset-requests: 6m0s`) are read as Go writes and bounds
//!   them: a unit after every number, no sign, at most `i64::MAX` nanoseconds, at most
//!   [`super::GO_DURATION_MAX_BYTES`] of text. Anything else is ignored with its reason,
//!   never saturated.
//! - Shopify's `X-Shopify-Shop-Api-Call-Limit: 40/40` says the leaky bucket is full. It
//!   has no reset: we wait for one request to leak out at the documented standard rate of
//!   2 per second, [`SHOPIFY_LEAK_US`].
//!
//! # The cap
//!
//! Every wait is clamped to [`READER_MAX_WAIT_S`], one day, and [`Reading::capped`] says
//! when that happened. A day is the longest window common APIs publish (daily quotas);
//! anything longer is a misread header or a broken server, and a worker asleep for longer
//! than a day is a worker someone has to go and wake. All arithmetic saturates first, so
//! nothing can overflow on the way to the cap.

use super::dates::parse_any_http_date;
use super::structured::{self, Member, Num, Quota};
use super::values::{clamp_u64, delta_seconds, go_duration, micros, rfc3339_us, whole};
use super::values::{DeltaFault, ValueFault};
use super::HttpDateError;
use crate::time::{US_PER_MS, US_PER_S};

/// The longest wait the reader ever returns: one day (see the module's doc).
pub const READER_MAX_WAIT_S: u64 = 86_400;

/// Shopify's documented leak rate for a standard REST Admin API bucket, 2 requests per
/// second: a full bucket frees one slot every 500 ms.
pub const SHOPIFY_LEAK_US: u64 = 500 * US_PER_MS;

/// Above this a vendor reset is an epoch second, not a delta.
const EPOCH_S_ABOVE: u128 = 1_000_000_000;
/// Above this a vendor reset is an epoch millisecond.
const EPOCH_MS_ABOVE: u128 = 1_000_000_000_000;

/// What the reader makes of a header block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// How long to wait before the next request, after the cap; none when no header asks.
    pub wait_us: Option<u64>,
    /// The header the wait came from, as its name was written.
    pub from: Option<String>,
    /// The header asked for more than [`READER_MAX_WAIT_S`], and the wait was cut to it.
    pub capped: bool,
    /// Every header that did not give the wait, in the block's order.
    pub ignored: Vec<Ignored>,
}

/// A header the reader set aside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignored {
    /// Its name as written.
    pub header: String,
    /// Its value, trimmed.
    pub value: String,
    /// Why (the page layer writes the sentence).
    pub why: Why,
}

/// Why a header did not give the wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// Not a header that says anything about rate limits.
    Unrelated,
    /// It describes the limit (its size or window), not when to retry.
    DescribesTheLimit,
    /// Valid, but the header named ranks above it, and gave the wait.
    Outranked {
        /// The header that gave the wait.
        by: String,
    },
    /// A millisecond `Retry-After` (`retry-after-ms`, `x-ms-retry-after-ms`) that differs
    /// from the `Retry-After` named by a second or more: more than its rounding to whole
    /// seconds explains, so the standard field is obeyed.
    Disagrees {
        /// The `Retry-After` that gave the wait.
        by: String,
    },
    /// Valid, and of the same rank as the header named, which asks for a longer wait.
    Shorter {
        /// The header that gave the wait.
        by: String,
    },
    /// It says requests remain, so it asks for no wait.
    QuotaLeft {
        /// Requests remaining (the smallest, when it lists several quotas).
        remaining: u64,
    },
    /// A reset with no remaining count beside it: the quota may not be spent.
    NoRemaining,
    /// Remaining is 0, but nothing says when the quota comes back.
    NoReset,
    /// The response came from a cache (`Age` above 0): the quota it describes is stale.
    FromCache {
        /// The `Age`, in seconds.
        age_s: u64,
    },
    /// The same value again, in a field that may appear only once.
    Repeated,
    /// A field that may appear only once came with different values.
    Conflicting,
    /// A structured Item field sent on several lines: RFC 9651 combines them into one
    /// value, which is then not an Item.
    NotOneItem,
    /// The value is empty.
    Empty,
    /// A `Retry-After` that is neither delta-seconds nor a date.
    NotDeltaSeconds(DeltaFault),
    /// A `Retry-After` that starts like a date but is not one.
    NotADate(HttpDateError),
    /// Not a valid structured field (RFC 9651); the byte where parsing stopped, if known.
    NotStructured {
        /// The byte offset in the value (the combined value, for a repeated field).
        at: Option<usize>,
    },
    /// A structured field in which the named member or parameter is not a non-negative
    /// integer: a decimal, a negative number, a string.
    NotAnInteger {
        /// The key: `r`, `t`, `remaining`, `reset`, or the field's own value.
        key: String,
    },
    /// A member of a structured `RateLimit` list that is not a quoted policy name or token.
    NotAPolicy,
    /// A vendor value that cannot be read.
    Value(ValueFault),
}

/// One header line, its name lowercased for matching.
struct Line<'a> {
    index: usize,
    name: &'a str,
    lower: String,
    value: &'a str,
}

/// A wait some header asks for, before the cap.
struct Candidate {
    /// 0 `Retry-After`, 1 the draft, 2 vendor forms: lower wins.
    rank: u8,
    wait_us: u64,
    /// The line it came from.
    index: usize,
    /// The other lines that went into it (not ignored, not the source either).
    with: Vec<usize>,
}

/// Reads a whole header block at `now_epoch_us` (epoch microseconds; the reader never
/// looks at a clock). Names are case-insensitive and may repeat; values are trimmed of
/// surrounding whitespace. Never panics: anything unreadable is an [`Ignored`] entry.
pub fn read_headers<N: AsRef<str>, V: AsRef<str>>(block: &[(N, V)], now_epoch_us: u64) -> Reading {
    let lines: Vec<Line> = block
        .iter()
        .enumerate()
        .map(|(index, (n, v))| {
            let name = n.as_ref().trim();
            Line {
                index,
                name,
                lower: name.to_ascii_lowercase(),
                value: v.as_ref().trim_matches([' ', '\t']),
            }
        })
        .collect();
    let mut why: Vec<Option<Why>> = vec![None; lines.len()];
    let mut candidates = Vec::new();
    let age_s = cache_age(&lines);

    retry_after(&lines, now_epoch_us, &mut why, &mut candidates);
    draft(&lines, age_s, &mut why, &mut candidates);
    vendor(&lines, age_s, now_epoch_us, &mut why, &mut candidates);

    let winner = candidates
        .iter()
        .enumerate()
        .min_by_key(|(i, c)| (c.rank, u64::MAX - c.wait_us, *i))
        .map(|(i, _)| i);
    let mut reading = Reading {
        wait_us: None,
        from: None,
        capped: false,
        ignored: Vec::new(),
    };
    if let Some(w) = winner {
        let win = &candidates[w];
        let by = lines[win.index].name.to_string();
        for (i, c) in candidates.iter().enumerate() {
            if i != w {
                let lost = if c.rank > win.rank {
                    Why::Outranked { by: by.clone() }
                } else {
                    Why::Shorter { by: by.clone() }
                };
                for line in std::iter::once(c.index).chain(c.with.iter().copied()) {
                    why[line].get_or_insert_with(|| lost.clone());
                }
            }
        }
        let cap_us = READER_MAX_WAIT_S * US_PER_S;
        reading.wait_us = Some(win.wait_us.min(cap_us));
        reading.capped = win.wait_us > cap_us;
        reading.from = Some(by);
        let used: Vec<usize> = std::iter::once(win.index)
            .chain(win.with.iter().copied())
            .collect();
        for u in used {
            why[u] = None;
        }
    }
    let kept: Vec<usize> = winner
        .map(|w| {
            std::iter::once(candidates[w].index)
                .chain(candidates[w].with.iter().copied())
                .collect()
        })
        .unwrap_or_default();
    for line in &lines {
        if kept.contains(&line.index) || (line.lower == "age" && age_s.is_some()) {
            continue;
        }
        reading.ignored.push(Ignored {
            header: line.name.to_string(),
            value: line.value.to_string(),
            why: why[line.index].clone().unwrap_or(Why::Unrelated),
        });
    }
    reading
}

/// The headers a naive client looks for, in the order it tries them: the one it finds
/// first is read as seconds to wait ([`super::naive_readings`]).
pub const NAIVE_HEADERS: [&str; 4] = [
    "retry-after",
    "x-ratelimit-reset",
    "ratelimit-reset",
    "x-ratelimit-reset-after",
];

/// The header a naive client reads from a block, by its index, or none when it finds
/// none of [`NAIVE_HEADERS`] (it then retries at once). What it makes of the value, in
/// each language, is [`super::naive_readings`].
pub fn naive_header<N: AsRef<str>, V: AsRef<str>>(block: &[(N, V)]) -> Option<usize> {
    NAIVE_HEADERS.iter().find_map(|wanted| {
        block
            .iter()
            .position(|(n, _)| n.as_ref().trim().eq_ignore_ascii_case(wanted))
    })
}

/// The response's `Age` when it is a positive whole number of seconds.
fn cache_age(lines: &[Line]) -> Option<u64> {
    lines
        .iter()
        .find(|l| l.lower == "age")
        .and_then(|l| delta_seconds(l.value).ok())
        .map(|us| us / US_PER_S)
        .filter(|s| *s > 0)
}

/// The lines named `lower`.
fn named<'l, 'a>(lines: &'l [Line<'a>], lower: &str) -> Vec<&'l Line<'a>> {
    lines.iter().filter(|l| l.lower == lower).collect()
}

/// The first of `lines` when every repeat has the same value; otherwise marks them all.
/// Repeats of the first are marked [`Why::Repeated`].
fn singleton<'l, 'a>(lines: &[&'l Line<'a>], why: &mut [Option<Why>]) -> Option<&'l Line<'a>> {
    let first = *lines.first()?;
    if lines.iter().any(|l| l.value != first.value) {
        for l in lines {
            why[l.index] = Some(Why::Conflicting);
        }
        return None;
    }
    for l in &lines[1..] {
        why[l.index] = Some(Why::Repeated);
    }
    Some(first)
}

/// `Retry-After`: delta-seconds or an HTTP-date in any of its three forms.
fn retry_after(
    lines: &[Line],
    now_epoch_us: u64,
    why: &mut [Option<Why>],
    out: &mut Vec<Candidate>,
) {
    let Some(line) = singleton(&named(lines, "retry-after"), why) else {
        return;
    };
    let v = line.value;
    let wait = if v.is_empty() {
        Err(Why::Empty)
    } else if v.starts_with(|c: char| c.is_ascii_alphabetic()) {
        parse_any_http_date(v, now_epoch_us / US_PER_S)
            .map(|at_s| at_s.saturating_mul(US_PER_S).saturating_sub(now_epoch_us))
            .map_err(Why::NotADate)
    } else {
        delta_seconds(v).map_err(Why::NotDeltaSeconds)
    };
    match wait {
        Ok(wait_us) => out.push(Candidate {
            rank: 0,
            wait_us,
            index: line.index,
            with: Vec::new(),
        }),
        Err(w) => why[line.index] = Some(w),
    }
}

/// Marks every line in `lines` with `w`, unless already marked.
fn mark(lines: &[&Line], why: &mut [Option<Why>], w: &Why) {
    for l in lines {
        why[l.index].get_or_insert_with(|| w.clone());
    }
}

/// Several lines of one structured field, combined as RFC 9651 says: joined with commas.
fn combined(lines: &[&Line]) -> String {
    lines.iter().map(|l| l.value).collect::<Vec<_>>().join(", ")
}

/// A non-negative integer where the draft requires one, or the reason the field is
/// ignored whole.
fn integer(n: Option<Num>, key: &str) -> Result<Option<u64>, Why> {
    match n {
        None => Ok(None),
        Some(Num::Whole(v)) => Ok(Some(v)),
        Some(Num::NotWhole) => Err(Why::NotAnInteger { key: key.into() }),
    }
}

/// The quota state one shape of the draft reports.
enum QuotaState {
    /// Exhausted; the wait until it resets, if it says.
    Spent(Option<u64>),
    /// Requests left.
    Left(u64),
}

/// The RateLimit draft, all three shapes.
fn draft(lines: &[Line], age_s: Option<u64>, why: &mut [Option<Why>], out: &mut Vec<Candidate>) {
    let names = [
        "ratelimit",
        "ratelimit-policy",
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
    ];
    if let Some(age_s) = age_s {
        for n in names {
            mark(&named(lines, n), why, &Why::FromCache { age_s });
        }
        return;
    }
    // Drafts 07 on: RateLimit-Policy describes the quotas (checked, so a malformed one
    // says so).
    let policy = named(lines, "ratelimit-policy");
    if !policy.is_empty() {
        let w = match structured::is_list(&combined(&policy)) {
            Ok(()) => Why::DescribesTheLimit,
            Err(at) => Why::NotStructured { at },
        };
        mark(&policy, why, &w);
    }
    mark(
        &named(lines, "ratelimit-limit"),
        why,
        &Why::DescribesTheLimit,
    );
    // Drafts 07 on: the one RateLimit field.
    let field = named(lines, "ratelimit");
    if let Some(first) = field.first() {
        match structured_ratelimit(&combined(&field)) {
            Err(w) => mark(&field, why, &w),
            Ok(QuotaState::Left(remaining)) => mark(&field, why, &Why::QuotaLeft { remaining }),
            Ok(QuotaState::Spent(None)) => mark(&field, why, &Why::NoReset),
            Ok(QuotaState::Spent(Some(reset_s))) => out.push(Candidate {
                rank: 1,
                wait_us: reset_s.saturating_mul(US_PER_S),
                index: first.index,
                with: field[1..].iter().map(|l| l.index).collect(),
            }),
        }
    }
    // Drafts 00 to 06: three separate fields, each an Item (parameters ignored).
    let remaining = item_field(&named(lines, "ratelimit-remaining"), why);
    let reset = item_field(&named(lines, "ratelimit-reset"), why);
    pair(remaining, reset, 1, US_PER_S, why, out);
}

/// Pairs a remaining count with a reset: a wait when remaining is 0, otherwise the
/// reasons. The reset times `us_per_unit` is the wait.
fn pair(
    remaining: Option<(&Line, u64)>,
    reset: Option<(&Line, u64)>,
    rank: u8,
    us_per_unit: u64,
    why: &mut [Option<Why>],
    out: &mut Vec<Candidate>,
) {
    match (remaining, reset) {
        (Some((r, 0)), Some((t, n))) => out.push(Candidate {
            rank,
            wait_us: n.saturating_mul(us_per_unit),
            index: t.index,
            with: vec![r.index],
        }),
        (Some((r, 0)), None) => why[r.index] = Some(Why::NoReset),
        (Some((r, left)), reset) => {
            let w = Why::QuotaLeft { remaining: left };
            why[r.index] = Some(w.clone());
            if let Some((t, _)) = reset {
                why[t.index] = Some(w);
            }
        }
        (None, Some((t, _))) => why[t.index] = Some(Why::NoRemaining),
        (None, None) => {}
    }
}

/// A draft 00–06 field: one structured Item, a non-negative integer.
fn item_field<'l, 'a>(
    lines: &[&'l Line<'a>],
    why: &mut [Option<Why>],
) -> Option<(&'l Line<'a>, u64)> {
    let first = *lines.first()?;
    if lines.len() > 1 {
        // RFC 9651 combines repeated lines into one value, which is then not an Item.
        mark(lines, why, &Why::NotOneItem);
        return None;
    }
    match structured::item(first.value) {
        Err(at) => {
            why[first.index] = Some(Why::NotStructured { at });
            None
        }
        Ok(Num::Whole(n)) => Some((first, n)),
        Ok(Num::NotWhole) => {
            why[first.index] = Some(Why::NotAnInteger {
                key: first.name.to_string(),
            });
            None
        }
    }
}

/// The one `RateLimit` field: a List of policies (drafts 08 on), or the Dictionary of
/// draft 07.
fn structured_ratelimit(value: &str) -> Result<QuotaState, Why> {
    match structured::list(value) {
        Ok(members) => policies(&members),
        Err(list_at) => match structured::dictionary(value) {
            Ok(q) if q[1].is_some() || q[2].is_some() => dictionary(q),
            _ => Err(Why::NotStructured { at: list_at }),
        },
    }
}

/// `"name";r=..;t=..` members: the exhausted ones govern, the longest reset wins.
fn policies(members: &[Member]) -> Result<QuotaState, Why> {
    let mut spent: Option<Option<u64>> = None;
    let mut least_left: Option<u64> = None;
    for m in members {
        if !m.named {
            return Err(Why::NotAPolicy);
        }
        let (r, t) = (integer(m.r, "r")?, integer(m.t, "t")?);
        match r {
            Some(0) => {
                let longest = spent.flatten();
                spent = Some(match (longest, t) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (a, b) => a.or(b),
                });
            }
            Some(left) => least_left = Some(least_left.map_or(left, |l: u64| l.min(left))),
            None => {}
        }
    }
    match (spent, least_left) {
        (Some(t), _) => Ok(QuotaState::Spent(t)),
        (None, Some(left)) => Ok(QuotaState::Left(left)),
        (None, None) => Err(Why::NoRemaining),
    }
}

/// Draft 07: `limit=.., remaining=.., reset=..`.
fn dictionary([limit, remaining, reset]: Quota) -> Result<QuotaState, Why> {
    integer(limit, "limit")?;
    let (remaining, reset) = (integer(remaining, "remaining")?, integer(reset, "reset")?);
    match remaining {
        Some(0) => Ok(QuotaState::Spent(reset)),
        Some(left) => Ok(QuotaState::Left(left)),
        None => Err(Why::NoRemaining),
    }
}

/// A vendor line as a number, when it is one, and the lines that repeat it marked.
fn vendor_value<'l, 'a, T>(
    lines: &[&'l Line<'a>],
    why: &mut [Option<Why>],
    read: fn(&str) -> Result<T, ValueFault>,
) -> Option<(&'l Line<'a>, T)> {
    let line = singleton(lines, why)?;
    match read(line.value) {
        Ok(v) => Some((line, v)),
        Err(f) => {
            why[line.index] = Some(if line.value.is_empty() {
                Why::Empty
            } else {
                Why::Value(f)
            });
            None
        }
    }
}

/// A non-negative count. Some vendors write theirs as decimals (`0.0`, `12.0`): such a
/// count is the number it is, and a fraction is dropped (`4.5` requests left is 4), so a
/// client never counts on more than the header says.
fn count(value: &str) -> Result<u128, ValueFault> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match value.split_once('.') {
        None if digits(value) => Ok(u128::from(whole(value))),
        Some((int, frac)) if digits(int) && digits(frac) => Ok(u128::from(whole(int))),
        _ => Err(ValueFault::NotANumber),
    }
}

/// A Go duration in µs, as [`vendor_value`] takes it.
fn duration(value: &str) -> Result<u128, ValueFault> {
    go_duration(value).map(u128::from)
}

/// An RFC 3339 timestamp as epoch microseconds, as [`vendor_value`] takes it.
fn timestamp(value: &str) -> Result<u64, ValueFault> {
    rfc3339_us(value).map_err(ValueFault::NotATimestamp)
}

/// What an `X-RateLimit-Reset` says.
enum Reset {
    /// A number, times 10⁶: an epoch millisecond, an epoch second or a delta in seconds.
    Number(u128),
    /// An RFC 3339 timestamp, in epoch microseconds.
    Instant(u64),
}

/// An `X-RateLimit-Reset`: a non-negative decimal, or an RFC 3339 timestamp.
fn reset_value(value: &str) -> Result<Reset, ValueFault> {
    let b = value.as_bytes();
    let dated = b.len() > 4 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-';
    match micros(value) {
        Ok(n) => Ok(Reset::Number(n)),
        Err(_) if dated => timestamp(value).map(Reset::Instant),
        Err(_) => Err(ValueFault::NotANumberOrTimestamp),
    }
}

/// A count or reset as `pair` takes it.
fn narrow<'l, 'a>(v: Option<(&'l Line<'a>, u128)>) -> Option<(&'l Line<'a>, u64)> {
    v.map(|(l, n)| (l, clamp_u64(n)))
}

/// The lines under either spelling of a vendor prefix, `x-ratelimit-` or `x-rate-limit-`.
fn either<'l, 'a>(lines: &'l [Line<'a>], suffix: &str) -> Vec<&'l Line<'a>> {
    lines
        .iter()
        .filter(|l| {
            l.lower.strip_prefix("x-ratelimit-") == Some(suffix)
                || l.lower.strip_prefix("x-rate-limit-") == Some(suffix)
        })
        .collect()
}

/// The vendor forms.
fn vendor(
    lines: &[Line],
    age_s: Option<u64>,
    now_epoch_us: u64,
    why: &mut [Option<Why>],
    out: &mut Vec<Candidate>,
) {
    let is_vendor = |l: &Line| {
        l.lower.starts_with("x-ratelimit-")
            || l.lower.starts_with("x-rate-limit-")
            || l.lower.starts_with(ANTHROPIC)
            || l.lower == "x-shopify-shop-api-call-limit"
    };
    if let Some(age_s) = age_s {
        let stale: Vec<&Line> = lines.iter().filter(|l| is_vendor(l)).collect();
        mark(&stale, why, &Why::FromCache { age_s });
    }
    millisecond_retry_after(lines, why, out);
    if age_s.is_some() {
        return;
    }
    for l in lines.iter().filter(|l| is_vendor(l)) {
        let rest = l
            .lower
            .strip_prefix("x-ratelimit-")
            .or_else(|| l.lower.strip_prefix("x-rate-limit-"))
            .unwrap_or("");
        let anthropic_limit = l.lower.starts_with(ANTHROPIC) && l.lower.ends_with("-limit");
        if rest.starts_with("limit") || rest == "used" || anthropic_limit {
            why[l.index].get_or_insert(Why::DescribesTheLimit);
        }
    }
    // X-RateLimit-Remaining with -Reset-After (delta) or -Reset (instant or delta).
    let remaining = narrow(vendor_value(&either(lines, "remaining"), why, count));
    let after = vendor_value(&either(lines, "reset-after"), why, micros);
    let reset = vendor_value(&either(lines, "reset"), why, reset_value);
    let (reset_line, reset_us) = match (after, reset) {
        (Some((a, us)), Some((r, _))) => {
            why[r.index] = Some(Why::Outranked {
                by: a.name.to_string(),
            });
            (Some(a), clamp_u64(us))
        }
        (Some((a, us)), None) => (Some(a), clamp_u64(us)),
        (None, Some((r, Reset::Number(n)))) => (Some(r), vendor_reset_wait(n, now_epoch_us)),
        (None, Some((r, Reset::Instant(at_us)))) => (Some(r), at_us.saturating_sub(now_epoch_us)),
        (None, None) => (None, 0),
    };
    pair(remaining, reset_line.map(|l| (l, reset_us)), 2, 1, why, out);
    // OpenAI: x-ratelimit-remaining-requests/-tokens with x-ratelimit-reset-requests/-tokens.
    for (left, reset) in [
        ("remaining-requests", "reset-requests"),
        ("remaining-tokens", "reset-tokens"),
    ] {
        let remaining = narrow(vendor_value(&either(lines, left), why, count));
        let reset = narrow(vendor_value(&either(lines, reset), why, duration));
        pair(remaining, reset, 2, 1, why, out);
    }
    // Anthropic: anthropic-ratelimit-<kind>-remaining with -reset, an RFC 3339 instant.
    for kind in ["requests", "tokens", "input-tokens", "output-tokens"] {
        let name = |part: &str| format!("{ANTHROPIC}{kind}-{part}");
        let remaining = narrow(vendor_value(&named(lines, &name("remaining")), why, count));
        let reset = vendor_value(&named(lines, &name("reset")), why, timestamp)
            .map(|(l, at_us)| (l, at_us.saturating_sub(now_epoch_us)));
        pair(remaining, reset, 2, 1, why, out);
    }
    // Shopify: used/limit of a leaky bucket.
    let calls = vendor_value(
        &named(lines, "x-shopify-shop-api-call-limit"),
        why,
        call_limit,
    );
    if let Some((line, packed)) = calls {
        let (used, limit) = ((packed >> 64) as u64, packed as u64);
        if used >= limit {
            out.push(Candidate {
                rank: 2,
                wait_us: SHOPIFY_LEAK_US,
                index: line.index,
                with: Vec::new(),
            });
        } else {
            why[line.index] = Some(Why::QuotaLeft {
                remaining: limit - used,
            });
        }
    }
}

/// The prefix of Anthropic's rate-limit headers.
const ANTHROPIC: &str = "anthropic-ratelimit-";

/// The millisecond spellings of `Retry-After`, in the order Azure's SDKs try them.
pub const MILLISECOND_RETRY_AFTER: [&str; 2] = ["retry-after-ms", "x-ms-retry-after-ms"];

/// `retry-after-ms` (OpenAI, Azure OpenAI) and `x-ms-retry-after-ms` (Azure): `Retry-After`
/// in milliseconds, decimals allowed. Not a quota, so a cached response keeps them, as it
/// keeps `Retry-After`.
///
/// Beside a valid `Retry-After` (already in `out`, rank 0), the first of them that agrees
/// with it, within the second its whole-seconds rounding can account for, takes its place:
/// the same wait, to the millisecond. One that differs by a second or more is set aside
/// ([`Why::Disagrees`]) and `Retry-After` is obeyed. Without a `Retry-After` they are
/// vendor forms, of rank 2.
fn millisecond_retry_after(lines: &[Line], why: &mut [Option<Why>], out: &mut Vec<Candidate>) {
    let standard = out
        .iter()
        .position(|c| c.rank == 0)
        .map(|i| (i, out[i].wait_us, out[i].index));
    let mut refined = false;
    for name in MILLISECOND_RETRY_AFTER {
        let Some((line, ns)) = vendor_value(&named(lines, name), why, micros) else {
            continue;
        };
        let wait_us = clamp_u64(ns.div_ceil(1_000));
        let mut candidate = Candidate {
            rank: 2,
            wait_us,
            index: line.index,
            with: Vec::new(),
        };
        if let Some((i, standard_us, standard_line)) = standard {
            if standard_us.abs_diff(wait_us) >= US_PER_S {
                why[line.index] = Some(Why::Disagrees {
                    by: lines[standard_line].name.to_string(),
                });
                continue;
            }
            if !refined {
                refined = true;
                candidate.rank = 0;
                candidate.with.push(standard_line);
                out[i] = candidate;
                continue;
            }
        }
        out.push(candidate);
    }
}

/// A vendor reset (its value × 10⁶) as a wait: an epoch millisecond, an epoch second, or
/// a delta in seconds.
fn vendor_reset_wait(n_e6: u128, now_epoch_us: u64) -> u64 {
    let now = u128::from(now_epoch_us);
    let wait = if n_e6 > EPOCH_MS_ABOVE * 1_000_000 {
        (n_e6 / 1_000).saturating_sub(now)
    } else if n_e6 > EPOCH_S_ABOVE * 1_000_000 {
        n_e6.saturating_sub(now)
    } else {
        n_e6
    };
    clamp_u64(wait)
}

/// `used/limit`, e.g. `32/40`, packed as `used << 64 | limit`.
fn call_limit(value: &str) -> Result<u128, ValueFault> {
    let (used, limit) = value.split_once('/').ok_or(ValueFault::NotACallLimit)?;
    match (count(used), count(limit)) {
        (Ok(u), Ok(l)) if l > 0 => Ok((u128::from(clamp_u64(u)) << 64) | u128::from(clamp_u64(l))),
        _ => Err(ValueFault::NotACallLimit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW_US: u64 = 1_788_086_459 * US_PER_S;

    fn read(block: &[(&str, &str)]) -> Reading {
        read_headers(block, NOW_US)
    }

    #[test]
    fn retry_after_wins_even_over_quota_left() {
        let r = read(&[("RateLimit", "\"default\";r=50;t=30"), ("Retry-After", "5")]);
        assert_eq!(r.wait_us, Some(5 * US_PER_S));
        assert_eq!(r.from.as_deref(), Some("Retry-After"));
        assert_eq!(r.ignored.len(), 1);
        assert_eq!(r.ignored[0].why, Why::QuotaLeft { remaining: 50 });
    }

    #[test]
    fn the_longest_exhausted_policy_governs() {
        let r = read(&[(
            "RateLimit",
            "\"a\";r=0;t=10, \"b\";r=0;t=60, \"c\";r=5;t=600",
        )]);
        assert_eq!(r.wait_us, Some(60 * US_PER_S));
    }

    #[test]
    fn milliseconds_refine_an_agreeing_retry_after_and_yield_to_a_disagreeing_one() {
        let r = read(&[("Retry-After", "2"), ("retry-after-ms", "1500")]);
        assert_eq!(r.wait_us, Some(1_500_000));
        assert_eq!(r.from.as_deref(), Some("retry-after-ms"));
        assert!(r.ignored.is_empty(), "Retry-After went into the wait");
        let r = read(&[("Retry-After", "60"), ("x-ms-retry-after-ms", "100")]);
        assert_eq!(r.wait_us, Some(60 * US_PER_S));
        assert_eq!(
            r.ignored[0].why,
            Why::Disagrees {
                by: "Retry-After".into()
            }
        );
        // Alone, a vendor form: the longest vendor wait wins.
        let r = read(&[
            ("retry-after-ms", "500"),
            ("x-ratelimit-remaining-requests", "0"),
            ("x-ratelimit-reset-requests", "2s"),
        ]);
        assert_eq!(r.wait_us, Some(2 * US_PER_S));
    }

    #[test]
    fn vendor_values_out_of_bounds_are_reasons() {
        let why = |block: &[(&str, &str)]| read(block).ignored.pop().map(|i| i.why);
        let go = |v| {
            why(&[
                ("x-ratelimit-remaining-tokens", "0"),
                ("x-ratelimit-reset-tokens", v),
            ])
        };
        assert_eq!(go("-1s"), Some(Why::Value(ValueFault::NegativeDuration)));
        assert_eq!(
            go("3000000h"),
            Some(Why::Value(ValueFault::DurationOverflow))
        );
        assert_eq!(go("60"), Some(Why::Value(ValueFault::DurationWithoutUnit)));
        let stamp = |v| {
            why(&[
                ("anthropic-ratelimit-requests-remaining", "0"),
                ("anthropic-ratelimit-requests-reset", v),
            ])
        };
        assert_eq!(
            stamp("2026-08-30T10:41:29"),
            Some(Why::Value(ValueFault::NotATimestamp(
                super::super::StampFault::NoZone
            )))
        );
        assert_eq!(
            why(&[
                ("X-RateLimit-Remaining", "0"),
                ("X-RateLimit-Reset", "soon")
            ]),
            Some(Why::Value(ValueFault::NotANumberOrTimestamp))
        );
        let r = read(&[
            ("anthropic-ratelimit-requests-remaining", "0"),
            (
                "anthropic-ratelimit-requests-reset",
                "2026-08-30T10:41:29.5+00:00",
            ),
        ]);
        assert_eq!(r.wait_us, Some(30_500_000));
    }

    #[test]
    fn an_empty_block_asks_for_no_wait() {
        let none: [(&str, &str); 0] = [];
        let r = read(&none);
        assert_eq!((r.wait_us, r.from, r.capped), (None, None, false));
        assert!(r.ignored.is_empty());
    }
}

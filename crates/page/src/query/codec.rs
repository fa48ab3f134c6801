//! The query string itself: percent-encoding and decoding, and `key=value` pairs.

use super::page::Speed;
use super::read::Query;
use sim::{Scenario, StrategyName};

/// The query string for a run with the article's parameters, e.g.
/// `?section=charges&view=run&strategy=keyed&seed=7&speed=1x`. For a run with its own
/// parameters use [`Query::for_run`] and [`Query::to_query`].
pub fn to_query(strategy: StrategyName, seed: u64, speed: Speed) -> String {
    Query::<()>::for_run(&Scenario::article(strategy, seed), speed).to_query()
}

/// Percent-encodes a value for a query string, keeping the characters that need no
/// escape there (our own values: names, numbers, `1/20`).
pub(crate) fn encode(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Splits a query string (`?a=1&b=x+y`) into decoded pairs the way a browser's
/// `URLSearchParams` does: `+` is a space, `%XX` a byte, a malformed `%` stays as it
/// is, bytes that are not UTF-8 become `�`, and empty pieces between `&`s are skipped.
/// The command line and the tests read queries with it; the page has the browser's.
pub fn pairs_of(query: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query
        .split('&')
        .filter(|piece| !piece.is_empty())
        .map(|piece| {
            let (k, v) = piece.split_once('=').unwrap_or((piece, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// `application/x-www-form-urlencoded` decoding of one name or value.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let hex = |b: u8| char::from(b).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', hi, lo]) => hex(*hi).zip(hex(*lo)).map(|(h, l)| (h * 16 + l) as u8),
            _ => None,
        };
        match (escaped, bytes[i]) {
            (Some(b), _) => {
                out.push(b);
                i += 3;
            }
            (None, b'+') => {
                out.push(b' ');
                i += 1;
            }
            (None, b) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

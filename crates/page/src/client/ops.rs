//! A foreign run's calls ([`Op`]) as the sandbox hands them to the page: flat numbers,
//! [`WIDTH`] per call, so a run of ten thousand customers crosses as one typed array.
//! The page replays them through its own run of the core (`sim::foreign`), so what it
//! shows is what the provider did with those calls, whatever else the sandbox said.
//!
//! Each call is `[kind, at_us, a, b, c]`: a send is `1, at, customer, key number (0 for
//! none), body print`; a completion `2, at, request`; an answer heard `3, at, request,
//! status`; a request given up on `4, at, request`; a customer settled `5, at, customer`.

use sim::foreign::Op;
use sim::provider::{BodyPrint, Status};

/// Numbers per call.
pub const WIDTH: usize = 5;

/// The largest integer an `f64` holds exactly.
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// The calls, flat.
pub fn to_wire(ops: &[Op]) -> Vec<f64> {
    let mut out = Vec::with_capacity(ops.len() * WIDTH);
    for op in ops {
        let row: [f64; WIDTH] = match *op {
            Op::Send {
                at_us,
                customer,
                key,
                print,
            } => [
                1.0,
                at_us as f64,
                customer.into(),
                key.unwrap_or(0).into(),
                print.bits().into(),
            ],
            Op::Complete { at_us, request } => [2.0, at_us as f64, request.into(), 0.0, 0.0],
            Op::Delivered {
                at_us,
                request,
                status,
            } => [3.0, at_us as f64, request.into(), status.code().into(), 0.0],
            Op::Abandoned { at_us, request } => [4.0, at_us as f64, request.into(), 0.0, 0.0],
            Op::Settled { at_us, customer } => [5.0, at_us as f64, customer.into(), 0.0, 0.0],
        };
        out.extend_from_slice(&row);
    }
    out
}

/// Why flat numbers are not a run's calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError(pub String);

/// The calls the flat numbers carry: at most `max` of them.
pub fn from_wire(wire: &[f64], max: usize) -> Result<Vec<Op>, WireError> {
    if !wire.len().is_multiple_of(WIDTH) {
        return Err(WireError(format!(
            "{} numbers are not whole calls of {WIDTH}.",
            wire.len()
        )));
    }
    let calls = wire.len() / WIDTH;
    if calls > max {
        return Err(WireError(format!(
            "{calls} calls are more than a run of these customers can make ({max})."
        )));
    }
    wire.chunks_exact(WIDTH)
        .enumerate()
        .map(|(i, row)| op_of(row).ok_or_else(|| WireError(format!("call {i} is not one."))))
        .collect()
}

fn whole(x: f64) -> Option<u64> {
    ((0.0..=MAX_EXACT).contains(&x) && x.fract() == 0.0).then_some(x as u64)
}

fn small(x: f64) -> Option<u32> {
    u32::try_from(whole(x)?).ok()
}

fn op_of(row: &[f64]) -> Option<Op> {
    let at_us = whole(row[1])?;
    Some(match whole(row[0])? {
        1 => Op::Send {
            at_us,
            customer: small(row[2])?,
            key: Some(small(row[3])?).filter(|&k| k > 0),
            print: BodyPrint::from_bits(small(row[4])?),
        },
        2 => Op::Complete {
            at_us,
            request: small(row[2])?,
        },
        3 => Op::Delivered {
            at_us,
            request: small(row[2])?,
            status: Status::ALL
                .into_iter()
                .find(|s| f64::from(s.code()) == row[3])?,
        },
        4 => Op::Abandoned {
            at_us,
            request: small(row[2])?,
        },
        5 => Op::Settled {
            at_us,
            customer: small(row[2])?,
        },
        _ => return None,
    })
}

/// The key texts sent, by number, as the sandbox hands them over: one text, all of them
/// one after another, and each one's length in UTF-8 bytes. Two values cross instead of
/// one string per key (ten thousand of them in a large run), which the page's thread
/// would otherwise take one by one.
pub fn keys_to_wire<S: AsRef<str>>(keys: &[S]) -> (String, Vec<u32>) {
    let text: String = keys.iter().map(AsRef::as_ref).collect();
    let lengths = keys
        .iter()
        .map(|k| u32::try_from(k.as_ref().len()).unwrap_or(u32::MAX))
        .collect();
    (text, lengths)
}

/// The key texts that [`keys_to_wire`] carried, or why the text and the lengths do not
/// make them (a length past the text's end or inside a character, or text left over).
pub fn keys_from_wire(text: &str, lengths: &[u32]) -> Result<Vec<String>, WireError> {
    let mut rest = text;
    let mut keys = Vec::with_capacity(lengths.len());
    for (i, &len) in lengths.iter().enumerate() {
        let (key, after) = usize::try_from(len)
            .ok()
            .and_then(|len| rest.split_at_checked(len))
            .ok_or_else(|| WireError(format!("key {} is not in the keys' text.", i + 1)))?;
        keys.push(key.to_string());
        rest = after;
    }
    if !rest.is_empty() {
        return Err(WireError(format!(
            "the keys' text has {} bytes no key takes.",
            rest.len()
        )));
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_call_goes_there_and_back_and_a_bad_one_is_refused() {
        let ops = vec![
            Op::Send {
                at_us: 12,
                customer: 3,
                key: Some(7),
                print: BodyPrint::of_charge(3, None),
            },
            Op::Send {
                at_us: 12,
                customer: 4,
                key: None,
                print: BodyPrint::of_charge(4, Some(500)),
            },
            Op::Complete {
                at_us: 15_000,
                request: 0,
            },
            Op::Delivered {
                at_us: 15_000,
                request: 0,
                status: Status::TooManyRequests,
            },
            Op::Abandoned {
                at_us: 9_000_000_000,
                request: 1,
            },
            Op::Settled {
                at_us: 9_000_000_000,
                customer: 4,
            },
        ];
        let wire = to_wire(&ops);
        assert_eq!(wire.len(), ops.len() * WIDTH);
        assert_eq!(from_wire(&wire, 6), Ok(ops.clone()));
        assert!(from_wire(&wire, 5).is_err());
        assert!(from_wire(&wire[1..], 6).is_err());
        // Row 3 is the answer heard: a kind, instant, request or status that is none.
        for (place, bad) in [
            (0, 9.0),
            (1, -1.0),
            (1, 0.5),
            (2, f64::NAN),
            (2, 5e9),
            (3, 299.0),
        ] {
            let mut w = wire.clone();
            w[WIDTH * 3 + place] = bad;
            assert!(from_wire(&w, 6).is_err(), "{place} {bad}");
        }
    }

    #[test]
    fn key_texts_go_there_and_back_and_a_bad_split_is_refused() {
        let keys = ["order-1", "", "ключ-é", "x"];
        let (text, lengths) = keys_to_wire(&keys);
        assert_eq!(lengths, [7, 0, 11, 1]);
        assert_eq!(keys_from_wire(&text, &lengths).unwrap(), keys);
        assert!(
            keys_from_wire(&text, &[7, 0, 10, 2]).is_err(),
            "inside a character"
        );
        assert!(
            keys_from_wire(&text, &[7, 0, 11, 2]).is_err(),
            "past the end"
        );
        assert!(
            keys_from_wire(&text, &[7, 0, 11]).is_err(),
            "text left over"
        );
        assert_eq!(keys_from_wire("", &[]).unwrap(), Vec::<String>::new());
    }
}

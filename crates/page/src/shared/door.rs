//! The provider's door over HTTP: which bodies a charge may come as, how one is read, and
//! what an answer's body says. `ratelab serve` reads real requests with it, and the
//! sandbox, where a reader's own code calls `fetch` on the simulated clock, reads that
//! code's requests with it too, so a client meets the same door in both.

use crate::shared::words::shown;
use serde::Deserialize;
use sim::provider::Status;

/// Why a body's type is refused (415).
pub const NOT_JSON_TYPE: &str = "a charge's body is JSON: send it with Content-Type: application/json (a body sent as text/plain, or with no type, is read as JSON too)";

/// True if a body of this `Content-Type` (none: not given) may be read as JSON: a type
/// that says JSON (`application/json`, any `+json`), plain text (what a bare `fetch`
/// sends a string as), or none. Many real APIs read such a body as JSON.
pub fn may_be_json(content_type: Option<&str>) -> bool {
    let Some(value) = content_type else {
        return true;
    };
    let essence = value.split(';').next().unwrap_or("").trim();
    let (kind, sub) = essence.split_once('/').unwrap_or(("", ""));
    let json = kind.eq_ignore_ascii_case("application")
        && (sub.eq_ignore_ascii_case("json")
            || sub
                .len()
                .checked_sub(5)
                .and_then(|at| sub.get(at..))
                .is_some_and(|end| end.eq_ignore_ascii_case("+json")));
    let plain = kind.eq_ignore_ascii_case("text") && sub.eq_ignore_ascii_case("plain");
    json || plain
}

/// A charge request's body, once read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChargeBody {
    /// The customer, as given (not yet checked against the customers there are).
    pub id: u64,
    /// The amount in cents, if given.
    pub amount: Option<u64>,
}

/// The fields of a charge body that are read, each at most once.
#[derive(Deserialize)]
struct ChargeFields {
    id: Option<serde_json::Value>,
    amount: Option<serde_json::Value>,
}

/// A charge's body, as the sentences show it: customer 1, 1,000 cents.
pub const EXAMPLE: &str = "{\"id\": 1, \"amount\": 1000}";

/// Reads `{"id": customer, "amount": cents}`: the id is required, the amount may be
/// left out but must be a whole number of cents when given, and neither may be given
/// twice (`{"id": 3, "id": 4}` names two customers). The error is the 400's sentence.
pub fn read_charge(body: &[u8]) -> Result<ChargeBody, String> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        if body.iter().all(u8::is_ascii_whitespace) {
            format!("the body is empty; send a charge as {EXAMPLE}")
        } else {
            format!("the body is not JSON ({e}); send a charge as {EXAMPLE}")
        }
    })?;
    if !value.is_object() {
        return Err(format!(
            "the body must be a JSON object like {EXAMPLE}, not {}",
            shown(&value.to_string())
        ));
    }
    // The value above keeps only the last of a repeated field; reading the fields
    // themselves refuses a repeat.
    let fields: ChargeFields = serde_json::from_slice(body).map_err(|e| {
        let said = e.to_string();
        match said.split('`').nth(1) {
            Some(field) if said.starts_with("duplicate field") => {
                format!("the body gives {field} twice; give each field once")
            }
            _ => format!("the body is not a charge ({said})"),
        }
    })?;
    let id = match fields.id.as_ref() {
        None => return Err("the body has no id: which customer?".to_string()),
        Some(v) => v.as_u64().ok_or_else(|| {
            format!(
                "id must be a whole number from 1, not {}",
                shown(&v.to_string())
            )
        })?,
    };
    let amount = match fields.amount.as_ref() {
        None => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| {
            format!(
                "amount must be a whole number of cents, not {}",
                shown(&v.to_string())
            )
        })?),
    };
    Ok(ChargeBody { id, amount })
}

/// What a charge's answer says beside its status (`"result"`): `charged` for money
/// moved, `already charged` for a 200 replayed from the key store.
pub fn result_word(status: Status, charged: bool) -> &'static str {
    match status {
        Status::Ok if charged => "charged",
        Status::Ok => "already charged",
        Status::Declined => "card declined",
        Status::InProgress => "in progress",
        Status::KeyReused => "key reused with another body",
        Status::TooManyRequests => "rate limited",
        Status::ServerError => "server error",
        Status::Overloaded => "overloaded",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_json_when_its_type_says_so_says_plain_text_or_says_nothing() {
        for ok in [
            None,
            Some("application/json"),
            Some("Application/JSON; charset=utf-8"),
            Some("application/problem+json"),
            Some("text/plain;charset=UTF-8"),
        ] {
            assert!(may_be_json(ok), "{ok:?}");
        }
        for refused in [
            Some("text/html"),
            Some("application/x-www-form-urlencoded"),
            Some(""),
            Some("json"),
        ] {
            assert!(!may_be_json(refused), "{refused:?}");
        }
    }

    #[test]
    fn a_charge_body_is_read_or_refused_with_its_sentence() {
        assert_eq!(
            read_charge(b"{\"id\": 7, \"amount\": 1000}"),
            Ok(ChargeBody {
                id: 7,
                amount: Some(1000)
            })
        );
        assert_eq!(
            read_charge(b"{\"id\": 7}"),
            Ok(ChargeBody {
                id: 7,
                amount: None
            })
        );
        for (body, said) in [
            (&b"  "[..], "the body is empty"),
            (b"id=7", "the body is not JSON"),
            (b"[7]", "must be a JSON object"),
            (b"{\"id\": 3, \"id\": 4}", "gives id twice"),
            (b"{\"amount\": 1}", "has no id"),
            (b"{\"id\": -1}", "id must be a whole number from 1, not -1"),
            (
                b"{\"id\": 1, \"amount\": 9.5}",
                "amount must be a whole number of cents",
            ),
        ] {
            let e = read_charge(body).unwrap_err();
            assert!(e.contains(said), "{e}");
        }
        assert_eq!(result_word(Status::Ok, false), "already charged");
    }
}

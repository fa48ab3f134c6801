//! A run, written out for other tools: the whole run as JSON, every request as CSV.
//!
//! Written by hand rather than with serde_json, which the browser build does not carry:
//! the formats are small, and the escaping rules (JSON strings, RFC 4180 fields) are
//! implemented and tested here.

use crate::{ParamKind, ParamValue, Query, Speed, PARAMS};
use sim::provider::Status;
use sim::record::{Admission, ClientView, RequestRecord};
use sim::stats::StatField;
use sim::world::Simulation;
use std::fmt::Write;

/// The run as JSON: its scenario (each parameter under its URL name, in URL units, and
/// the URL query that reproduces the run), the stats (the field names of [`Stats`]), and
/// one entry per customer with its fate, charges and attempts. Attempts are counted from
/// the record, so they are `null` if the run keeps none.
pub fn run_json(sim: &Simulation) -> String {
    let scenario = sim.scenario();
    let query = Query::<()>::for_run(scenario, Speed::default()).to_query();
    let mut out = String::from("{\n  \"scenario\": {\n");
    let mut fields = vec![
        ("query".to_string(), json_string(&query)),
        (
            "strategy".to_string(),
            json_string(scenario.strategy.as_str()),
        ),
        ("seed".to_string(), scenario.seed.to_string()),
    ];
    for spec in PARAMS {
        let text = spec.read(scenario);
        let value = match (spec.kind(), spec.value(scenario)) {
            (ParamKind::Count | ParamKind::Micros, ParamValue::Whole(_)) => text,
            _ => json_string(&text),
        };
        fields.push((spec.key.to_string(), value));
    }
    push_members(&mut out, &fields, "    ");
    out.push_str("  },\n  \"stats\": {\n");
    let stats = sim.stats();
    let stat_fields: Vec<(String, String)> = StatField::ALL
        .into_iter()
        .map(|f| (f.to_string(), stats.get(f).to_string()))
        .collect();
    push_members(&mut out, &stat_fields, "    ");
    let _ = writeln!(out, "  }},\n  \"finished\": {},", sim.is_finished());
    let attempts = sim.record().map(|record| {
        let mut n = vec![0u32; scenario.customers as usize];
        for r in record {
            n[r.customer as usize - 1] += 1;
        }
        n
    });
    out.push_str("  \"customers\": [");
    for customer in 1..=scenario.customers {
        let tried = attempts
            .as_ref()
            .map_or("null".to_string(), |n| n[customer as usize - 1].to_string());
        let _ = write!(
            out,
            "{}\n    {{\"id\": {customer}, \"fate\": {}, \"charges\": {}, \"attempts\": {tried}}}",
            if customer == 1 { "" } else { "," },
            json_string(sim.fate(customer).as_str()),
            sim.charges_of(customer),
        );
    }
    out.push_str("\n  ]\n}\n");
    out
}

/// `"key": value` lines, comma-separated, each value already JSON.
fn push_members(out: &mut String, members: &[(String, String)], indent: &str) {
    for (i, (key, value)) in members.iter().enumerate() {
        let comma = if i + 1 < members.len() { "," } else { "" };
        let _ = writeln!(out, "{indent}{}: {value}{comma}", json_string(key));
    }
}

/// A JSON string literal: quotes, backslashes and control characters escaped.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The CSV header of [`requests_csv`].
pub const REQUESTS_CSV_HEADER: [&str; 12] = [
    "request",
    "customer",
    "attempt",
    "key",
    "sentAtUs",
    "admission",
    "slow",
    "doneAtUs",
    "status",
    "charged",
    "client",
    "clientAtUs",
];

/// Every request as CSV (RFC 4180: CRLF line ends, fields quoted where needed): a header
/// row, then one row per request in the order sent. `key`, `status` and `clientAtUs`
/// are empty when there is none yet; `admission` is `admitted`, `refused-429` or
/// `refused-503`; `client` is `waiting`, `answered` or `timed-out`.
pub fn requests_csv(record: &[RequestRecord]) -> String {
    let mut out = String::new();
    push_row(&mut out, REQUESTS_CSV_HEADER.iter().map(|h| h.to_string()));
    for r in record {
        let (admission, slow) = match r.admission {
            Admission::Refused(status) => (format!("refused-{}", status.code()), false),
            Admission::Admitted { slow, .. } => ("admitted".to_string(), slow),
        };
        let (client, client_at_us) = match r.client {
            ClientView::Waiting => ("waiting", None),
            ClientView::Answered { at_us, .. } => ("answered", Some(at_us)),
            ClientView::TimedOut { at_us } => ("timed-out", Some(at_us)),
        };
        push_row(
            &mut out,
            [
                r.request.to_string(),
                r.customer.to_string(),
                r.attempt.to_string(),
                r.key.map(|k| k.to_string()).unwrap_or_default(),
                r.sent_at_us.to_string(),
                admission,
                slow.to_string(),
                r.done_at_us.to_string(),
                r.status
                    .map(Status::code)
                    .map(|c| c.to_string())
                    .unwrap_or_default(),
                r.charged.to_string(),
                client.to_string(),
                client_at_us.map(|t| t.to_string()).unwrap_or_default(),
            ]
            .into_iter(),
        );
    }
    out
}

fn push_row(out: &mut String, fields: impl Iterator<Item = String>) {
    let cells: Vec<String> = fields.map(|f| csv_field(&f)).collect();
    out.push_str(&cells.join(","));
    out.push_str("\r\n");
}

/// One CSV field: quoted, with quotes doubled, if it holds a comma, quote or line break.
pub fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_and_fields_are_escaped() {
        assert_eq!(
            json_string("a\"b\\c\nd\u{1}é"),
            "\"a\\\"b\\\\c\\nd\\u0001é\""
        );
        let parsed: String = serde_json::from_str(&json_string("<\u{7f}\t\"\u{202e}")).unwrap();
        assert_eq!(parsed, "<\u{7f}\t\"\u{202e}");
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\"\r\n"), "\"say \"\"hi\"\"\r\n\"");
    }
}

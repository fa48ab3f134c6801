//! The exports, read back with independent parsers (serde_json, and a small RFC 4180
//! reader here) and checked against the run's own stats.

use page::run::export::{requests_csv, run_json, REQUESTS_CSV_HEADER};
use page::{pairs_of, parse, set_param};
use serde_json::Value;
use sim::{Scenario, Simulation, StatField, StrategyName};

/// Splits RFC 4180 text into rows of fields: CRLF between rows, `"…"` quoting with `""`
/// for a quote inside.
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {
                chars.next();
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(
        field.is_empty() && row.is_empty(),
        "the last row ends with CRLF"
    );
    rows
}

fn scenarios() -> Vec<Scenario> {
    let mut custom = Scenario::article(StrategyName::TimeoutNoKey, 11);
    for (k, v) in [
        ("customers", "300"),
        ("timeoutMs", "400"),
        ("slowRate", "1/5"),
        ("maxInflight", "4"),
        ("rateLimit", "40"),
    ] {
        set_param(&mut custom, k, v).unwrap();
    }
    let mut all = vec![custom];
    all.extend(StrategyName::ALL.map(|s| Scenario::article(s, 3)));
    all
}

fn count(rows: &[Vec<String>], column: &str, value: &str) -> u64 {
    let i = REQUESTS_CSV_HEADER
        .iter()
        .position(|h| *h == column)
        .unwrap();
    rows.iter().filter(|r| r[i] == value).count() as u64
}

#[test]
fn the_json_holds_the_scenario_the_stats_and_every_customer() {
    for scenario in scenarios() {
        let mut sim = Simulation::new(&scenario).unwrap();
        let stats = sim.run_to_end();
        let v: Value = serde_json::from_str(&run_json(&sim)).unwrap();
        let s = &v["scenario"];
        assert_eq!(s["strategy"], scenario.strategy.as_str());
        assert_eq!(s["seed"], scenario.seed);
        assert_eq!(s["customers"], scenario.customers);
        assert_eq!(
            s["timeoutMs"].as_u64(),
            Some(scenario.client.timeout_us / 1000)
        );
        let back = parse(&pairs_of(s["query"].as_str().unwrap()));
        assert!(back.base.problems.is_empty(), "{:?}", back.base.problems);
        assert_eq!(back.base.scenario, scenario, "the query reproduces the run");
        for field in StatField::ALL {
            assert_eq!(
                v["stats"][field.as_str()].as_u64(),
                Some(stats.get(field)),
                "{field}"
            );
        }
        let customers = v["customers"].as_array().unwrap();
        assert_eq!(customers.len(), scenario.customers as usize);
        let n = |c: &Value, k: &str| c[k].as_u64().unwrap();
        let charges: u64 = customers.iter().map(|c| n(c, "charges")).sum();
        let attempts: u64 = customers.iter().map(|c| n(c, "attempts")).sum();
        let charged = customers.iter().filter(|c| n(c, "charges") > 0).count() as u64;
        let extra: u64 = customers
            .iter()
            .map(|c| n(c, "charges").saturating_sub(1))
            .sum();
        assert_eq!(
            (charges, attempts, charged, extra),
            (
                stats.charges,
                stats.requests,
                stats.customers_charged,
                stats.duplicates
            )
        );
        let twice = customers
            .iter()
            .filter(|c| c["fate"] == "charged-twice")
            .count() as u64;
        assert_eq!(
            twice,
            customers.iter().filter(|c| n(c, "charges") >= 2).count() as u64
        );
        assert_eq!(customers[0]["id"], 1);
    }
}

#[test]
fn the_csv_has_one_row_per_request_that_adds_up_to_the_stats() {
    for scenario in scenarios() {
        let mut sim = Simulation::new(&scenario).unwrap();
        let stats = sim.run_to_end();
        let rows = read_csv(&requests_csv(sim.record().unwrap()));
        assert_eq!(rows[0], REQUESTS_CSV_HEADER);
        let rows = &rows[1..];
        assert_eq!(rows.len() as u64, stats.requests);
        assert!(rows.iter().all(|r| r.len() == REQUESTS_CSV_HEADER.len()));
        assert_eq!(count(rows, "charged", "true"), stats.charges);
        assert_eq!(count(rows, "admission", "refused-429"), stats.rate_limited);
        assert_eq!(count(rows, "admission", "refused-503"), stats.overloaded);
        assert_eq!(count(rows, "slow", "true"), stats.slow);
        assert_eq!(count(rows, "status", "500"), stats.server_errors);
        assert_eq!(count(rows, "status", "409"), stats.in_progress_conflicts);
        assert_eq!(
            count(rows, "client", "waiting"),
            0,
            "a finished run waits for nothing"
        );
        assert_eq!(
            count(rows, "client", "answered") + count(rows, "client", "timed-out"),
            stats.requests
        );
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r[0], i.to_string(), "in the order sent");
        }
    }
}

#[test]
fn a_run_cut_short_exports_what_is_known_so_far() {
    let mut sim = Simulation::new(&Scenario::article(StrategyName::Keyed, 1)).unwrap();
    sim.run_until(2_000_000);
    let v: Value = serde_json::from_str(&run_json(&sim)).unwrap();
    assert_eq!(v["finished"], false);
    let fates = v["customers"].as_array().unwrap();
    assert!(fates.iter().any(|c| c["fate"] == "pending"));
    let rows = read_csv(&requests_csv(sim.record().unwrap()));
    let key = REQUESTS_CSV_HEADER
        .iter()
        .position(|h| *h == "clientAtUs")
        .unwrap();
    assert!(rows[1..]
        .iter()
        .any(|r| r[10] == "waiting" && r[key].is_empty()));
    // Without a record there is nothing to count attempts from.
    let mut quiet = Scenario::article(StrategyName::Keyed, 1);
    quiet.customers = 5;
    quiet.record = false;
    let mut sim = Simulation::new(&quiet).unwrap();
    sim.run_to_end();
    let v: Value = serde_json::from_str(&run_json(&sim)).unwrap();
    assert!(v["customers"][0]["attempts"].is_null());
}

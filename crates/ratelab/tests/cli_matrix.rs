//! `ratelab charges --matrix`: every strategy against every incident, the same cells as
//! the core's `MatrixRun`, in its schedule's order.

mod support;

use sim::incident::Incident;
use sim::matrix::{schedule, MatrixRun, RUNS};
use sim::{Scenario, StrategyName};
use support::{assert_each_refused, json, ratelab};

#[test]
fn the_matrix_json_holds_the_cores_fifty_cells_in_order() {
    let v = json(&[
        "charges",
        "--matrix",
        "--seed",
        "2",
        "--customers",
        "200",
        "--json",
    ]);
    assert_eq!(v["seed"], 2);
    assert_eq!(v["customers"], 200);
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), RUNS);
    assert_eq!(RUNS, 50, "ten strategies × five incidents");
    let base = Scenario {
        seed: 2,
        customers: 200,
        ..Scenario::default()
    };
    let core = MatrixRun::new(&base).unwrap().run_to_end();
    for ((cell, (strategy, incident)), want) in cells.iter().zip(schedule()).zip(&core) {
        let why = format!("{strategy} × {incident}");
        assert_eq!(cell["strategy"], strategy.as_str(), "{why}");
        assert_eq!(cell["incident"], incident.as_str(), "{why}");
        assert_eq!(cell["charged"], want.stats.customers_charged, "{why}");
        assert_eq!(cell["duplicates"], want.stats.duplicates, "{why}");
        assert_eq!(cell["recoveryMs"], want.stats.recovery_ms, "{why}");
        let rpc = want
            .stats
            .requests_per_charge_hundredths()
            .map(|h| h as f64 / 100.0);
        assert_eq!(cell["requestsPerCharge"].as_f64(), rpc, "{why}");
        let harms: Vec<&str> = want.harms().into_iter().map(|f| f.as_str()).collect();
        assert_eq!(cell["harm"], !harms.is_empty(), "{why}");
        assert_eq!(cell["harms"], serde_json::json!(harms), "{why}");
        // Added later, beside the fields above: when the client finished, and every stat.
        assert_eq!(cell["elapsedMs"], want.stats.elapsed_ms, "{why}");
        assert_eq!(
            cell["stats"],
            serde_json::to_value(&want.stats).unwrap(),
            "{why}"
        );
    }
    assert_eq!(v["incidentStartMs"], 4_000);
    assert_eq!(v["incidentLengthMs"], 3_000);
    // What the matrix is for: under `down` the pool piles on where timeout-no-key
    // double-charges; the header-reading rungs send far less.
    let find = |s: StrategyName, i: Incident| {
        cells
            .iter()
            .find(|c| c["strategy"] == s.as_str() && c["incident"] == i.as_str())
            .unwrap()
    };
    assert!(find(StrategyName::TimeoutNoKey, Incident::None)["duplicates"].as_u64() > Some(0));
    assert_eq!(find(StrategyName::Headers, Incident::Down)["duplicates"], 0);
}

#[test]
fn the_matrix_table_has_a_row_per_strategy_and_a_column_per_incident() {
    let (code, out, err) = ratelab(&["charges", "--matrix", "--seed", "3", "--customers", "100"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("seed: 3"), "{out}");
    let header = lines[2];
    for i in Incident::ALL {
        assert!(header.contains(i.as_str()), "{header}");
    }
    for (line, s) in lines[3..].iter().zip(StrategyName::ALL) {
        assert!(line.starts_with(s.as_str()), "{line}");
        assert_eq!(
            line.matches(" / ").count(),
            3 * Incident::ALL.len(),
            "{line}"
        );
    }
    assert_eq!(lines.len(), 3 + StrategyName::ALL.len());
}

#[test]
fn the_matrix_refuses_what_it_sets_itself_and_bad_numbers() {
    assert_each_refused(&[
        (
            &["charges", "--matrix", "--strategy", "pool"],
            "cannot be used with",
        ),
        (&["charges", "--matrix", "--all"], "cannot be used with"),
        (
            &["charges", "--matrix", "--incident", "down"],
            "cannot be used with",
        ),
        (
            &["charges", "--matrix", "--seeds", "1..=3"],
            "cannot be used with",
        ),
        (
            &["charges", "--matrix", "--customers", "0"],
            "Customers (customers)",
        ),
    ]);
}

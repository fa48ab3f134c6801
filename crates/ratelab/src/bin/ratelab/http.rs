//! `ratelab charges --http URL`: the strategies run for real against `ratelab serve`,
//! printed as a simulated run is.

use crate::charges::print_runs;
use ratelab::client::Remote;
use sim::{Scenario, Stats, StrategyName};

/// Runs each strategy in turn against the server at `url` (the client resets the server
/// before each, with the scenario's seed) and prints the panel, the table or the JSON.
pub fn runs(
    url: &str,
    base: &Scenario,
    strategies: &[StrategyName],
    many: bool,
    json: bool,
    params: String,
) -> Result<String, String> {
    let remote = Remote::new(url)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("could not start the async runtime: {e}"))?;
    let mut done: Vec<(StrategyName, Stats)> = Vec::new();
    let mut notes = Vec::new();
    for &strategy in strategies {
        let scenario = Scenario {
            strategy,
            ..base.clone()
        };
        if !json {
            eprintln!(
                "running {strategy} against {url} ({} customers, real time)…",
                base.customers
            );
        }
        let run = runtime.block_on(remote.run(&scenario))?;
        if run.transport_errors > 0 {
            notes.push(format!(
                "{strategy}: {} attempt(s) got no HTTP answer (connection refused or reset) and counted as failed",
                run.transport_errors
            ));
        }
        done.push((strategy, run.stats));
    }
    if json {
        // The JSON is the simulated run's, field for field; the notes go to stderr.
        for n in &notes {
            eprintln!("{n}");
        }
        return Ok(print_runs(base, &done, many, json, ""));
    }
    let header = format!("over HTTP: {url} (real time; the provider's counters from its /stats)\n");
    let mut out = print_runs(base, &done, many, json, &format!("{header}{params}"));
    for n in &notes {
        out.push_str(&format!("\n{n}"));
    }
    Ok(out)
}

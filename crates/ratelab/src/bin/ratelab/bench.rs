//! `ratelab bench`: how fast the core runs. Numbers for docs/sizes-and-speeds.md, not a pass/fail test.

use crate::args::Args;
use sim::{Scenario, Simulation, StrategyName};
use std::time::Instant;

/// Times the six strategies and one large batch; `--quick` runs fewer and a smaller one.
pub fn main(args: &Args) -> Result<String, String> {
    let (repeats, big) = if args.has("quick") {
        (5, 100_000)
    } else {
        (50, 1_000_000)
    };
    let mut out = format!("machine: {}\n\n", cpu_model());
    out.push_str(&format!(
        "1,000 customers, recording on (median of {repeats} runs)\n"
    ));
    out.push_str(&format!(
        "{:<16}{:>12}{:>12}\n",
        "strategy", "time", "events"
    ));
    for strategy in StrategyName::ALL {
        let scenario = Scenario::article(strategy, 1);
        let (secs, events) = median_run(&scenario, repeats);
        out.push_str(&format!(
            "{:<16}{:>9.2} ms{:>12}\n",
            strategy.as_str(),
            secs * 1e3,
            events
        ));
    }
    let scenario = Scenario {
        customers: big,
        record: false,
        ..Scenario::article(StrategyName::Keyed, 1)
    };
    let (secs, events) = median_run(&scenario, 3);
    out.push_str(&format!(
        "\n{big} customers, keyed, recording off (median of 3 runs)\n\
         time {:.3} s, {events} events, {:.1} M events/s\n",
        secs,
        events as f64 / secs / 1e6
    ));
    Ok(out)
}

/// The median wall time of `repeats` runs, and the events one run handles.
fn median_run(scenario: &Scenario, repeats: usize) -> (f64, u64) {
    let mut times = Vec::with_capacity(repeats);
    let mut events = 0;
    for _ in 0..repeats {
        let start = Instant::now();
        let mut sim = Simulation::new(scenario).expect("the article's scenario is valid");
        sim.run_to_end();
        times.push(start.elapsed().as_secs_f64());
        events = sim.events_handled();
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], events)
}

fn cpu_model() -> String {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    format!("{model}, {cpus} logical CPUs")
}

//! `ratelab`: the simulation core on the command line. It parses arguments, calls the
//! core, and prints; every number it prints is the same one the browser app shows.

mod args;
mod bench;
mod charges;
mod limits;

use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "\
ratelab: the rate-limit-lab simulation on the command line

USAGE:
  ratelab charges --strategy <name> [--seed N] [--customers N] [--json]
  ratelab charges --all [--seed N] [--customers N] [--json]
  ratelab charges (--strategy <name> | --all) --seeds 1..=200 [--json]
  ratelab charges --strategy <name> [--seed N] --customer <id|scene> [--json]
  ratelab charges --query '<page URL query>' [--json | --export json|csv]
  ratelab charges --strategy <name> [--maxInflight N] [--timeoutMs MS] [...] [--export json|csv]
  ratelab limits <experiment|all> [--seed N] [--json]
  ratelab limits headers [--json]
  ratelab bench [--quick]

STRATEGIES:
  naive, paced, retry, timeout-no-key, keyed, pool

PARAMETERS (as flags, or inside --query; the page's URL names and units):
  customers, maxInflight, rateLimit, rateWindowMs, errorRate, slowRate, slowMs,
  latencyMs, jitterMs, declineEvery, pacer, attempts, backoffMs, jitter, timeoutMs,
  workers

EXPERIMENTS (limits):
  burst, units, clients, neighbour, memory, herd

Defaults are the article's: seed 1, 1000 customers.";

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let result = match argv.first().map(String::as_str) {
        Some("charges") => charges::main(&argv[1..]),
        Some("limits") => limits::main(&argv[1..]),
        Some("bench") => bench::main(&argv[1..]),
        Some("help" | "--help" | "-h") => Ok(USAGE.to_string()),
        Some(other) => Err(format!("unknown command '{other}'\n\n{USAGE}")),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(out) => {
            // A closed pipe (`ratelab … | head`) is not an error worth a panic. An output
            // that ends its own last line (the CSV export, with CRLF) is printed as is.
            let _ = if out.ends_with('\n') {
                write!(std::io::stdout(), "{out}")
            } else {
                writeln!(std::io::stdout(), "{out}")
            };
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

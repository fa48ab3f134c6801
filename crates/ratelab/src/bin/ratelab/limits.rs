//! `ratelab limits`: the limiter lab's experiments, as tables or as JSON.

use crate::args::{Args, Lab};
use page::limits::settings::{self, LabSettings, KNOBS};
use serde::Serialize;
use sim::lab::{self, ExperimentName, LabResult};
use std::collections::BTreeMap;

/// One experiment's result with what produced it, as printed by `--json`. The result's
/// own fields sit at the top level; `cells` holds the same flat cells the page shows.
#[derive(Serialize)]
struct Report<'a> {
    experiment: &'static str,
    seed: u64,
    #[serde(flatten)]
    result: page::limits::lab::JsonResult<'a>,
    cells: BTreeMap<String, String>,
}

/// Runs one experiment, all six, or prints the headers.
pub fn main(args: &Args) -> Result<String, String> {
    let which = args
        .get::<Lab>("experiment")
        .ok_or("which experiment? give one, all, or headers, right after 'limits'")?;
    if which == Lab::Headers {
        return Ok(headers(args.has("json")));
    }
    let seed = args.get::<u64>("seed").unwrap_or(1);
    let experiments = match which {
        Lab::One(name) => vec![name],
        Lab::All | Lab::Headers => ExperimentName::ALL.to_vec(),
    };
    let lab = read_settings(args, which)?;
    let results: Vec<LabResult> = experiments
        .iter()
        .map(|&n| settings::run(n, seed, &lab).map_err(|why| format!("{n}: {why}")))
        .collect::<Result<_, _>>()?;
    if args.has("json") {
        let reports: Vec<Report> = results
            .iter()
            .map(|result| Report {
                experiment: result.name().as_str(),
                seed,
                result: page::limits::lab::JsonResult(result),
                cells: page::limits::lab::cells(result).into_iter().collect(),
            })
            .collect();
        return Ok(match (which, reports.as_slice()) {
            (Lab::One(_), [one]) => to_json(one),
            (_, many) => to_json(&many),
        });
    }
    let tables: Vec<String> = results.iter().map(page::limits::lab::text).collect();
    Ok(format!("seed: {seed}\n\n{}", tables.join("\n\n\n")))
}

/// The settings the flags give (each read as the page reads its URL key). A flag of
/// another experiment than the one run is refused, not ignored.
fn read_settings(args: &Args, which: Lab) -> Result<LabSettings, String> {
    let mut lab = LabSettings::default();
    for k in &KNOBS {
        let Some(text) = args.raw(k.key).filter(|_| args.given(k.key)) else {
            continue;
        };
        if let Lab::One(name) = which {
            if name != k.experiment {
                return Err(format!(
                    "--{} is a setting of the {} experiment, not of {name}",
                    k.key, k.experiment
                ));
            }
        }
        lab.read(k.id, text)?;
    }
    Ok(lab)
}

fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("results always serialise")
}

/// The headers a 200 and a 429 from the article's token bucket carry.
fn headers(json: bool) -> String {
    let samples = lab::sample_responses();
    if json {
        return to_json(&samples);
    }
    let blocks: Vec<String> = samples
        .iter()
        .map(|r| {
            let reason = if r.status == 200 {
                "OK"
            } else {
                "Too Many Requests"
            };
            let lines: Vec<String> = r.headers.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            format!("HTTP/1.1 {} {reason}\n{}", r.status, lines.join("\n"))
        })
        .collect();
    blocks.join("\n\n")
}

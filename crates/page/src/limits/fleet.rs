//! The fleet in words: what each mode is and which engine it is shaped like, the
//! measured figures as cells, tables and sentences, the CLI's table, and the errors.
//! Every figure is a mean per seed, written with integers only (tenths, hundredths).

use super::charts::{table_html, Cell, Row};
use super::lab::Cells;
use super::settings::{cannot_run, LabSettings};
use super::view::cells_html;
use crate::shared::format::count;
use crate::shared::limiter::label;
use crate::shared::words::Words;
use maud::{html, Markup};
use sim::fleet::measure::{FleetResult, MeasureError, ModeRow, Tally, MAX_BURST, MAX_SEEDS};
use sim::fleet::setup::{Balancer, FleetError, FleetMode, MAX_INSTANCES, MAX_RTT_US};
use sim::lab::ExperimentName;
use std::fmt;

/// A mode as a reader calls it.
pub const fn mode_label(m: FleetMode) -> &'static str {
    match m {
        FleetMode::Local => "local, whole limit",
        FleetMode::Share => "local, 1/N share",
        FleetMode::ReadThenWrite => "store, read-then-write",
        FleetMode::Atomic => "store, atomic script",
        FleetMode::Cache => "store + over-limit cache",
        FleetMode::Owner => "owner by hash",
    }
}

/// What a mode does, in one sentence.
pub const fn mode_rule(m: FleetMode) -> &'static str {
    match m {
        FleetMode::Local => {
            "Each instance keeps the whole limit to itself, so the fleet as a whole allows N times the published limit."
        }
        FleetMode::Share => {
            "Each instance keeps 1/N of the limit: right only while the balancer spreads each caller evenly."
        }
        FleetMode::ReadThenWrite => {
            "One store: an instance reads the caller's state, decides, and writes the state back a round trip later; two instances that read before either writes both admit."
        }
        FleetMode::Atomic => {
            "One store that decides inside itself in one step, as a script does: no instance can read a state another is about to change."
        }
        FleetMode::Cache => {
            "The atomic store, with each instance remembering the callers it has seen refused and refusing them itself until their limit reopens: fewer calls, the same answers."
        }
        FleetMode::Owner => {
            "No store: each caller's limit lives on one instance, the one its name hashes to, and the others forward its requests there, one hop away."
        }
    }
}

/// The engines people deploy that a mode is shaped like (docs/fleet.md says more).
pub const fn mode_engine(m: FleetMode) -> &'static str {
    match m {
        FleetMode::Local => "Any limiter kept in each process's memory, such as an nginx limit_req zone per server.",
        FleetMode::Share => "The same, configured at the limit divided by the number of servers.",
        FleetMode::ReadThenWrite => {
            "The classic bug: GET, compare, SET (or INCR and EXPIRE sent as two commands), as in many hand-written Redis limiters."
        }
        FleetMode::Atomic => {
            "redis-cell's CL.THROTTLE (GCRA as one command); Stripe's and GitHub's limiters in Redis, decided by Lua scripts."
        }
        FleetMode::Cache => "envoyproxy/ratelimit: counters in Redis, and a local cache of keys already over their limit.",
        FleetMode::Owner => "Gubernator: each key owned by one peer by consistent hashing, the other peers forwarding to it.",
    }
}

/// A balancer as a reader calls it.
pub const fn balancer_label(b: Balancer) -> &'static str {
    match b {
        Balancer::RoundRobin => "round robin",
        Balancer::Random => "random",
        Balancer::Hash => "hash of the caller",
    }
}

/// A mode's name in cell keys: `local`, `share`, `readThenWrite`, …
fn key(m: FleetMode) -> &'static str {
    match m {
        FleetMode::Local => "local",
        FleetMode::Share => "share",
        FleetMode::ReadThenWrite => "readThenWrite",
        FleetMode::Atomic => "atomic",
        FleetMode::Cache => "cache",
        FleetMode::Owner => "owner",
    }
}

/// `sum / seeds` with one decimal, rounded half up: "44.0".
pub fn per_seed(sum: u64, seeds: u32) -> String {
    let seeds = u64::from(seeds.max(1));
    let tenths = (sum * 10 + seeds / 2) / seeds;
    format!("{}.{}", count(tenths / 10), tenths % 10)
}

/// `num / den` with two decimals, rounded half up: "0.75"; "0.00" when `den` is 0.
pub fn ratio(num: u64, den: u64) -> String {
    let hundredths = (num * 100 + den / 2).checked_div(den).unwrap_or(0);
    format!("{}.{:02}", count(hundredths / 100), hundredths % 100)
}

/// A row's calls per request, both schedules together.
fn calls_per_request(m: &ModeRow) -> String {
    ratio(
        m.burst.calls + m.neighbour.calls,
        m.burst.sent + m.neighbour.sent,
    )
}

/// "+33.0", or "+33.0 −2.1" when some were refused under the limit too; the sign says
/// which way the fleet missed.
fn miss(t: Tally, seeds: u32) -> String {
    let over = format!("+{}", per_seed(t.over, seeds));
    if t.under == 0 {
        over
    } else {
        format!("{over} −{}", per_seed(t.under, seeds))
    }
}

/// Both schedules' figures added up.
fn both(m: &ModeRow) -> Tally {
    let (b, n) = (m.burst, m.neighbour);
    Tally {
        sent: b.sent + n.sent,
        admitted: b.admitted + n.admitted,
        one_process: b.one_process + n.one_process,
        over: b.over + n.over,
        under: b.under + n.under,
        calls: b.calls + n.calls,
        worst_over: b.worst_over.max(n.worst_over),
    }
}

/// The word for a refused combination, in a cell.
fn refused_key(e: &FleetError) -> &'static str {
    match e {
        FleetError::ShareBelowOne { .. } => "shareBelowOne",
        FleetError::CacheOfInflight => "cacheOfInflight",
        FleetError::Instances { .. } | FleetError::Rtt { .. } | FleetError::Limiter(_) => "setup",
    }
}

/// The fleet's cells: the setup, one process's figures, every mode's figures at the
/// fleet's size (`fleet.localBurstAdmitted`, …), the growth (`fleet.n8LocalMiss`, …) and
/// every limiter in every mode (`fleet.gcraOwnerMiss`, …). Figures are per seed.
pub fn cells(r: &FleetResult) -> Vec<(String, String)> {
    let mut c = Cells::new(ExperimentName::Fleet);
    c.put("instances", r.instances);
    c.put("balancer", r.balancer.as_str());
    c.put("mode", r.mode.as_str());
    c.put("rttUs", r.rtt_us);
    c.put("limiter", r.limiter.as_str());
    c.put("burst", r.burst);
    c.put("seeds", r.seeds);
    c.put("limit", r.limit);
    let one = &r.modes[0];
    c.put("burstOneProcess", per_seed(one.burst.one_process, r.seeds));
    c.put(
        "neighbourOneProcess",
        per_seed(one.neighbour.one_process, r.seeds),
    );
    for m in &r.modes {
        let k = key(m.mode);
        if let Some(e) = &m.refused {
            c.put_of(k, "Refused", refused_key(e));
            continue;
        }
        for (which, t) in [("Burst", m.burst), ("Neighbour", m.neighbour)] {
            c.put_of(
                k,
                &format!("{which}Admitted"),
                per_seed(t.admitted, r.seeds),
            );
            c.put_of(k, &format!("{which}Over"), per_seed(t.over, r.seeds));
            c.put_of(k, &format!("{which}Under"), per_seed(t.under, r.seeds));
            c.put_of(k, &format!("{which}WorstOver"), t.worst_over);
        }
        c.put_of(k, "Calls", calls_per_request(m));
    }
    for g in &r.growth {
        for m in &g.modes {
            let who = format!(
                "n{}{}",
                g.instances,
                crate::shared::format::capitalised(key(m.mode))
            );
            match &m.refused {
                Some(e) => c.put_of(&who, "Miss", refused_key(e)),
                None => {
                    c.put_of(&who, "Miss", miss(both(m), r.seeds));
                    c.put_of(&who, "Calls", calls_per_request(m));
                }
            }
        }
    }
    for l in &r.limiters {
        for m in &l.modes {
            let who = format!(
                "{}{}",
                l.limiter.as_str(),
                crate::shared::format::capitalised(key(m.mode))
            );
            match &m.refused {
                Some(e) => c.put_of(&who, "Miss", refused_key(e)),
                None => c.put_of(&who, "Miss", miss(both(m), r.seeds)),
            }
        }
    }
    c.done()
}

/// "4 instances", "1 instance".
fn instances(n: u32) -> String {
    crate::shared::format::counted(n.into(), "instance", "instances")
}

/// The setup in one line.
fn setup_line(r: &FleetResult) -> String {
    format!(
        "{} behind a {} balancer, each caller limited to {} per second by a {}, a round trip of {} µs",
        instances(r.instances),
        balancer_label(r.balancer),
        r.limit,
        label(r.limiter),
        count(r.rtt_us),
    )
}

/// "4.0×": how many times one process's admissions the fleet admitted.
fn times(t: Tally) -> String {
    format!(
        "{}×",
        ratio(t.admitted, t.one_process.max(1))
            .trim_end_matches('0')
            .trim_end_matches('.')
    )
}

/// The lead: what was run, and the three figures a reader came for (the local limits,
/// the atomic store, and the mode picked).
pub fn lead(r: &FleetResult) -> String {
    let local = r.mode(FleetMode::Local);
    let atomic = r.mode(FleetMode::Atomic);
    let one = per_seed(local.burst.one_process, r.seeds);
    let mut out = format!(
        "{}. The boundary burst sends two volleys of {} from one caller; the noisy neighbour, {} from one caller and 3 from each of two others. Over {} seeds, on the burst one process admits {} per seed; ",
        setup_line(r),
        r.burst,
        r.burst,
        r.seeds,
        one,
    );
    if local.refused.is_none() {
        out.push_str(&format!(
            "instances each holding the whole limit admit {} ({} as many), ",
            per_seed(local.burst.admitted, r.seeds),
            times(local.burst),
        ));
    }
    out.push_str(&format!(
        "and the atomic store admits {}, {} over and {} under.",
        per_seed(atomic.burst.admitted, r.seeds),
        per_seed(atomic.burst.over, r.seeds),
        per_seed(atomic.burst.under, r.seeds),
    ));
    out
}

/// The picked mode: what it is, what it is shaped like, and what it did here.
pub fn picked(r: &FleetResult) -> String {
    let m = r.mode(r.mode);
    let figures = match &m.refused {
        Some(e) => format!("Here it cannot run: {}.", refusal(e)),
        None => {
            let b = both(m);
            format!(
                "Here, per seed over both schedules, it admitted {} beyond what one process gave each caller and refused {} that one process admitted, with {} calls off the instance per request.",
                per_seed(b.over, r.seeds),
                per_seed(b.under, r.seeds),
                calls_per_request(m),
            )
        }
    };
    format!("{}: {} {}", mode_label(r.mode), mode_rule(r.mode), figures)
}

fn num(v: String) -> Cell {
    (v, true, false)
}

fn harm(v: String, bad: bool) -> Cell {
    (v, true, bad)
}

/// The table of every mode at the fleet's size.
fn modes_rows(r: &FleetResult) -> Vec<Row> {
    r.modes
        .iter()
        .map(|m| {
            let cells = match m.refused {
                Some(ref e) => vec![(format!("refused: {}", refusal(e)), false, false)],
                None => vec![
                    num(per_seed(m.burst.admitted, r.seeds)),
                    harm(per_seed(m.burst.over, r.seeds), m.burst.over > 0),
                    harm(per_seed(m.burst.under, r.seeds), m.burst.under > 0),
                    num(per_seed(m.neighbour.admitted, r.seeds)),
                    harm(per_seed(m.neighbour.over, r.seeds), m.neighbour.over > 0),
                    harm(per_seed(m.neighbour.under, r.seeds), m.neighbour.under > 0),
                    num(calls_per_request(m)),
                ],
            };
            (mode_label(m.mode).to_string(), cells, m.mode == r.mode)
        })
        .collect()
}

/// Growth with N: a cell per size and mode, "+over −under".
fn growth_rows(r: &FleetResult, calls: bool) -> Vec<Row> {
    r.growth
        .iter()
        .map(|g| {
            let cells = g
                .modes
                .iter()
                .map(|m| match (&m.refused, calls) {
                    (Some(_), _) => ("refused".to_string(), true, false),
                    (None, false) => {
                        let b = both(m);
                        harm(miss(b, r.seeds), b.over + b.under > 0)
                    }
                    (None, true) => num(calls_per_request(m)),
                })
                .collect();
            (instances(g.instances), cells, g.instances == r.instances)
        })
        .collect()
}

/// Every limiter in every mode at the fleet's size.
fn limiter_rows(r: &FleetResult) -> Vec<Row> {
    r.limiters
        .iter()
        .map(|l| {
            let cells = l
                .modes
                .iter()
                .map(|m| match &m.refused {
                    Some(_) => ("refused".to_string(), true, false),
                    None => {
                        let b = both(m);
                        harm(miss(b, r.seeds), b.over + b.under > 0)
                    }
                })
                .collect();
            (label(l.limiter).to_string(), cells, l.limiter == r.limiter)
        })
        .collect()
}

const MODES_HEAD: [&str; 8] = [
    "mode",
    "burst: admitted",
    "over",
    "under",
    "neighbour: admitted",
    "over",
    "under",
    "calls per request",
];

/// The head of a table with a column per mode.
fn per_mode_head(first: &'static str) -> Vec<&'static str> {
    std::iter::once(first)
        .chain(FleetMode::ALL.iter().map(|&m| mode_label(m)))
        .collect()
}

/// Everything the fleet shows below its knobs.
pub fn body(r: &FleetResult) -> Markup {
    let scroll = |caption: &str, head: &[&str], rows: &[Row]| {
        html! { div.rll-table-scroll { (table_html(caption, head, rows)) } }
    };
    let one_burst = per_seed(r.modes[0].burst.one_process, r.seeds);
    let one_neighbour = per_seed(r.modes[0].neighbour.one_process, r.seeds);
    html! {
        p data-testid="fleet-lead" { (lead(r)) }
        p data-testid="fleet-picked" { (picked(r)) }
        p.rll-caption { "Shaped like: " (mode_engine(r.mode)) }
        (scroll(
            &format!(
                "every mode with {}, per seed (one process: {} on the burst, {} on the neighbour)",
                instances(r.instances), one_burst, one_neighbour
            ),
            &MODES_HEAD,
            &modes_rows(r),
        ))
        (scroll(
            "as the fleet grows: admitted over (+) and under (−) what one process gave each caller, per seed, both schedules",
            &per_mode_head("instances"),
            &growth_rows(r, false),
        ))
        (scroll(
            "as the fleet grows: calls off the instance (store calls, hops) per request",
            &per_mode_head("instances"),
            &growth_rows(r, true),
        ))
        (scroll(
            &format!("every limiter with {}: admitted over (+) and under (−), per seed", instances(r.instances)),
            &per_mode_head("limiter"),
            &limiter_rows(r),
        ))
        p.rll-caption {
            "Refused combinations: a 1/N share needs at least one request per instance, and the over-limit cache cannot stand in front of the concurrency limit, which reopens when a request finishes, something no instance knows in advance."
        }
    }
}

/// The fleet as the limits page shows it, for `seed` and the lab's settings as their
/// [`LabSettings::values`]: its body and its cells' markup, or the page's sentence for
/// values that are not the lab's or settings the core refused. The page's module hands
/// these numbers to a module of its own, which runs this and nothing else, so the page
/// carries none of the fleet's engine or words until a reader picks it.
pub fn draw_on_page(seed: u64, values: &[u64]) -> Result<[String; 2], String> {
    let settings = LabSettings::from_values(values).ok_or(NOT_THE_LABS)?;
    let r = sim::fleet::measure::run(&settings.fleet(), seed)
        .map_err(|_| cannot_run(ExperimentName::Fleet, seed))?;
    Ok([body(&r).into_string(), cells_html(&cells(&r)).into_string()])
}

/// The name of the fleet's own module, whose `draw` runs [`draw_on_page`].
pub const FLEET_MODULE: &str = "rate-limit-lab-fleet";

/// What the page says while the fleet's module is on its way.
pub const FLEET_ARRIVING: &str = "The fleet's figures are on their way: they are a module of their own, downloaded the first time the fleet is picked.";

/// What the page says if the fleet's module could not be loaded or answered nonsense.
pub fn fleet_unloaded(why: &str) -> String {
    format!("The fleet's module could not load ({why}). Reloading the page may help.")
}

/// What [`draw_on_page`] says of numbers that are not one value per knob, each in range.
pub const NOT_THE_LABS: &str = "The fleet was handed numbers that are not the lab's settings.";

/// The CLI's table.
pub fn text(r: &FleetResult) -> String {
    let mut out = format!(
        "fleet: {}\nburst: two volleys of {} from one caller; neighbour: acme sends {}, bakery and clinic 3 each\nover {} seeds from seed {}, per seed; one process admits {} (burst) and {} (neighbour)\n\n{:<26}{:>10}{:>8}{:>8}{:>12}{:>8}{:>8}{:>8}\n",
        setup_line(r),
        r.burst,
        r.burst,
        r.seeds,
        r.first_seed,
        per_seed(r.modes[0].burst.one_process, r.seeds),
        per_seed(r.modes[0].neighbour.one_process, r.seeds),
        "mode",
        "burst ok",
        "over",
        "under",
        "nbr ok",
        "over",
        "under",
        "calls",
    );
    for m in &r.modes {
        out.push_str(&format!("{:<26}", mode_label(m.mode)));
        match &m.refused {
            Some(e) => out.push_str(&format!("refused: {}", e.sentence())),
            None => out.push_str(&format!(
                "{:>10}{:>8}{:>8}{:>12}{:>8}{:>8}{:>8}",
                per_seed(m.burst.admitted, r.seeds),
                per_seed(m.burst.over, r.seeds),
                per_seed(m.burst.under, r.seeds),
                per_seed(m.neighbour.admitted, r.seeds),
                per_seed(m.neighbour.over, r.seeds),
                per_seed(m.neighbour.under, r.seeds),
                calls_per_request(m),
            )),
        }
        out.push('\n');
    }
    let grid = |out: &mut String, title: &str, rows: Vec<Row>| {
        out.push_str(&format!("\n{title}\n{:<24}", ""));
        for m in FleetMode::ALL {
            out.push_str(&format!("{:>17}", m.as_str()));
        }
        out.push('\n');
        for (name, cells, _) in rows {
            out.push_str(&format!("{name:<24}"));
            for (t, _, _) in cells {
                out.push_str(&format!("{t:>17}"));
            }
            out.push('\n');
        }
    };
    grid(
        &mut out,
        "as the fleet grows: over (+) and under (-) one process, per seed, both schedules",
        growth_rows(r, false),
    );
    grid(
        &mut out,
        "as the fleet grows: calls off the instance per request",
        growth_rows(r, true),
    );
    grid(
        &mut out,
        &format!(
            "every limiter with {}: over (+) and under (-)",
            instances(r.instances)
        ),
        limiter_rows(r),
    );
    out.push('\n');
    out.push_str(&picked(r));
    out.replace('−', "-")
}

/// Why a combination is refused, as the page says it: the two refusals a reader can meet
/// by moving the knobs, written without the rest of [`FleetError`]'s words (which a page
/// whose knobs stay in range never needs).
pub fn refusal(e: &FleetError) -> String {
    match *e {
        FleetError::ShareBelowOne { limit, instances } => format!(
            "a 1/N share of {limit} requests over {instances} instances leaves some instance less than one request (at most {limit} instances share it)"
        ),
        FleetError::CacheOfInflight => "a cache of callers over their limit cannot stand in front of a concurrency limit, which lets a caller in again when a request finishes, something no instance knows in advance".into(),
        FleetError::Instances { .. } | FleetError::Rtt { .. } | FleetError::Limiter(_) => {
            "these numbers cannot run (`ratelab limits fleet` with them says why)".into()
        }
    }
}

impl Words for FleetError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FleetError::Instances { instances } => write!(
                f,
                "a fleet has 1 to {MAX_INSTANCES} instances, not {instances}"
            ),
            FleetError::Rtt { rtt_us } => write!(
                f,
                "a round trip of {} µs is longer than the {} µs the lab allows",
                count(rtt_us),
                count(MAX_RTT_US)
            ),
            FleetError::ShareBelowOne { .. } | FleetError::CacheOfInflight => {
                f.write_str(&refusal(self))
            }
            FleetError::Limiter(why) => why.words(f),
        }
    }
}

impl Words for MeasureError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MeasureError::Fleet(why) => why.words(f),
            MeasureError::Burst { burst } => {
                write!(f, "a burst has 1 to {MAX_BURST} requests, not {burst}")
            }
            MeasureError::Seeds { seeds } => {
                write!(f, "the fleet runs 1 to {MAX_SEEDS} seeds, not {seeds}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::settings::{knob, KNOBS};
    use sim::fleet::measure::{run, FleetParams};

    #[test]
    fn the_fleets_own_module_draws_what_the_lab_runs_and_refuses_numbers_not_the_labs() {
        let mut settings = LabSettings::default();
        settings
            .read(knob("fleetInstances").unwrap().id, "7")
            .unwrap();
        settings
            .read(knob("fleetMode").unwrap().id, "read-then-write")
            .unwrap();
        let r = run(&settings.fleet(), 5).unwrap();
        assert_eq!(r.instances, 7);
        let [shown_body, shown_cells] = draw_on_page(5, settings.values()).unwrap();
        assert_eq!(shown_body, body(&r).into_string());
        assert_eq!(shown_cells, cells_html(&cells(&r)).into_string());
        assert!(
            shown_cells.contains(r#"data-result="fleet.instances">7<"#),
            "{shown_cells}"
        );
        // Too few values, too many, and one out of its knob's range.
        let values = settings.values().to_vec();
        assert_eq!(draw_on_page(5, &values[1..]), Err(NOT_THE_LABS.to_owned()));
        assert_eq!(
            draw_on_page(5, &[values.clone(), vec![1]].concat()),
            Err(NOT_THE_LABS.to_owned())
        );
        let instances = knob("fleetInstances").unwrap().id as usize;
        let mut wide = values.clone();
        wide[instances] = 17;
        assert_eq!(draw_on_page(5, &wide), Err(NOT_THE_LABS.to_owned()));
        wide[instances] = 16;
        assert!(draw_on_page(5, &wide).is_ok());
        assert_eq!(LabSettings::from_values(&values), Some(settings));
        assert!(KNOBS.iter().all(|k| k.admits(k.default)));
    }

    #[test]
    fn the_figures_read_as_the_core_measured_them() {
        let r = run(&FleetParams::default(), 1).unwrap();
        let cells = cells(&r);
        let get = |k: &str| {
            cells
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
                .unwrap_or_else(|| panic!("{k}"))
        };
        assert_eq!(get("fleet.burstOneProcess"), "11.0");
        assert_eq!(get("fleet.localBurstAdmitted"), "44.0");
        assert_eq!(get("fleet.atomicBurstOver"), "0.0");
        assert_eq!(get("fleet.atomicCalls"), "1.00");
        assert_eq!(get("fleet.n16ShareMiss"), "shareBelowOne");
        assert_eq!(get("fleet.inflightCacheMiss"), "cacheOfInflight");
        assert_eq!(get("fleet.n1LocalMiss"), "+0.0");
        let lead = lead(&r);
        assert!(lead.contains("admit 44.0 (4×"), "{lead}");
        assert!(
            lead.contains("the atomic store admits 11.0, 0.0 over and 0.0 under."),
            "{lead}"
        );
        let t = text(&r);
        assert!(
            t.starts_with("fleet: 4 instances behind a round robin balancer"),
            "{t}"
        );
        assert!(!t.ends_with('\n'));
        let html = body(&r).into_string();
        assert!(
            html.contains("<tr class=\"rll-chosen\"><th scope=\"row\">store, atomic script</th>"),
            "{html}"
        );
        assert!(html.contains("refused: a 1/N share") || !html.contains("refused: "));
    }

    #[test]
    fn the_address_carries_the_fleet_and_its_command_reproduces_it() {
        use crate::site::words::{cli_line, CLI_PREFIX};
        use crate::{pairs_of, parse};
        let q = parse(&pairs_of(
            "section=limits&experiment=fleet&seed=5&fleetInstances=8&fleetMode=owner&fleetRttUs=200&fleetBalancer=hash",
        ));
        assert!(q.base.problems.is_empty(), "{:?}", q.base.problems);
        let p = q.own.lab.settings.fleet();
        assert_eq!(
            (p.instances, p.mode, p.rtt_us, p.balancer),
            (8, FleetMode::Owner, 200, Balancer::Hash)
        );
        assert_eq!(
            cli_line(&q).replace(CLI_PREFIX, "ratelab"),
            "ratelab limits fleet --seed 5 --fleetInstances 8 --fleetBalancer hash --fleetMode owner --fleetRttUs 200"
        );
        // Out of range or unknown: a sentence naming the key, and the default, never a clamp.
        let q = parse(&pairs_of(
            "section=limits&experiment=fleet&fleetInstances=17&fleetRttUs=0&fleetLimiter=leaky",
        ));
        let said = q.base.problems.join(" ");
        assert!(
            said.contains("Instances (fleetInstances): 17 is outside 1–16 instances. Using the default, 4 instances."),
            "{said}"
        );
        assert!(
            said.contains("(fleetRttUs): 0 is outside 1–1000000 µs."),
            "{said}"
        );
        assert!(
            said.contains("(fleetLimiter): 'leaky' is not one of fixed, sliding"),
            "{said}"
        );
        assert_eq!(q.own.lab.settings.fleet(), FleetParams::default());
    }

    #[test]
    fn numbers_are_integers_written_out() {
        assert_eq!(per_seed(440, 10), "44.0");
        assert_eq!(per_seed(5, 10), "0.5");
        assert_eq!(per_seed(12_345, 1), "12,345.0");
        assert_eq!(ratio(3, 4), "0.75");
        assert_eq!(ratio(1, 0), "0.00");
        assert_eq!(
            miss(
                Tally {
                    over: 20,
                    under: 3,
                    ..Tally::default()
                },
                10
            ),
            "+2.0 −0.3"
        );
    }

    #[test]
    fn refusals_are_sentences() {
        assert_eq!(
            FleetError::ShareBelowOne { limit: 10, instances: 12 }.sentence(),
            "a 1/N share of 10 requests over 12 instances leaves some instance less than one request (at most 10 instances share it)"
        );
        assert_eq!(
            MeasureError::Burst { burst: 0 }.sentence(),
            "a burst has 1 to 200 requests, not 0"
        );
        assert!(FleetError::CacheOfInflight
            .sentence()
            .contains("concurrency limit"));
    }
}

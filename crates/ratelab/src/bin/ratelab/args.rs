//! The command line's grammar, built with clap at run time: the subcommands, their flags,
//! and one `--<key> <value>` flag for each parameter of [`PARAMS`], so the flags and their
//! help follow the table. Values are read with the page layer's readers, so a bad value
//! gets the sentence the page gives it; clap's own mistakes (an unknown flag, a missing
//! value) get clap's sentence. Both exit with code 2.

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};
use page::limits::settings::{Range, KNOBS};
use page::shared::words::Words;
use page::{self, ParamKind, ParamSpec, PARAMS};
use ratelab::doors::{Bounds, MAX_HEAD_BYTES};
use ratelab::keys::KEY_BYTES_MAX;
use ratelab::server::{CALLER_BYTES_MAX, MAX_KEY_BYTES};
use sim::incident::Incident;
use sim::lab::ExperimentName;
use sim::story::Scene;
use sim::{StatField, StrategyName};

/// What `--strategy` names: one strategy, or `all` (the same as `--all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Every strategy.
    All,
    /// One strategy.
    One(StrategyName),
}

/// What `ratelab limits` runs: one experiment, all six, or the headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lab {
    /// Every experiment, in order.
    All,
    /// The headers a limiter sends.
    Headers,
    /// One experiment.
    One(ExperimentName),
}

/// The flags given to one subcommand, read by the names the grammar gives them.
pub struct Args<'a>(&'a ArgMatches);

impl<'a> Args<'a> {
    /// The flags of one subcommand.
    pub fn new(matches: &'a ArgMatches) -> Self {
        Self(matches)
    }

    /// True if the flag was typed on the command line.
    pub fn given(&self, id: &str) -> bool {
        self.0.value_source(id) == Some(ValueSource::CommandLine)
    }

    /// The first of the lab's parameters that `pick` picks and that was typed on the
    /// command line, if any: what a subcommand refuses to be given.
    pub fn first_given(&self, pick: impl Fn(&ParamSpec) -> bool) -> Option<&'static ParamSpec> {
        PARAMS.iter().find(|p| pick(p) && self.given(p.key))
    }

    /// True if the switch was given (false for a switch the command does not have:
    /// `scenario_from_flags` asks every command for `--outage`).
    pub fn has(&self, id: &str) -> bool {
        matches!(self.0.try_get_one::<bool>(id), Ok(Some(true)))
    }

    /// The text of a flag that is read later (a parameter, a customer, a query).
    pub fn raw(&self, id: &str) -> Option<&str> {
        self.0.get_one::<String>(id).map(String::as_str)
    }

    /// The value of a flag that clap has already read (a seed, a seed range, a pick).
    pub fn get<T: Clone + Send + Sync + 'static>(&self, id: &str) -> Option<T> {
        self.0.get_one::<T>(id).cloned()
    }

    /// Every word given to an argument that takes many (the command `judge` runs).
    pub fn all(&self, id: &str) -> Vec<String> {
        self.0
            .get_many::<String>(id)
            .map(|words| words.cloned().collect())
            .unwrap_or_default()
    }
}

const ABOUT: &str = "ratelab: the rate-limit-lab simulation on the command line. Every number \
                     it prints is the one the browser app shows for the same run.";

const CHARGES_USAGE: &str = "\
ratelab charges --strategy <name> [--seed N] [PARAMETERS] [--json | --export json|csv]
       ratelab charges --all [--seed N] [PARAMETERS] [--json]
       ratelab charges (--strategy <name> | --all) --seeds A..=B [PARAMETERS] [--json]
       ratelab charges --matrix [--seed N] [PARAMETERS] [--json]
       ratelab charges [--strategy <name> | --all] --sweep-param key=from..=to:steps [--seeds 1..=N] [--stat <field>] [PARAMETERS] [--json]
       ratelab charges --strategy <name> [--seed N] --customer <id|scene> [PARAMETERS] [--json]
       ratelab charges --query '<page URL query>' [--json | --export json|csv]
       ratelab charges --http http://127.0.0.1:55541 (--strategy <name> | --all) [--seed N] [--customers N] [CLIENT PARAMETERS] [--json]";

const SERVE_USAGE: &str =
    "ratelab serve [--port 55541] [--host 127.0.0.1] [--dist dist] [--seed N] [--limit 10] [--window-ms 1000] [--store redis://HOST:PORT [--store-mode atomic|read-then-write] [--store-fail closed|open]] [BOUNDS] [PROVIDER PARAMETERS | --query '<page URL query>']";

const JUDGE_USAGE: &str =
    "ratelab judge [--seed N] [--customers N] [--limit-s 300] [PROVIDER PARAMETERS] [--json] -- <command> [args…]";

const LIMITS_USAGE: &str = "\
ratelab limits <experiment|all> [--seed N] [SETTINGS] [--json]
       ratelab limits headers [--json]";

const BENCH_USAGE: &str = "ratelab bench [--quick]";

const HEADERS_USAGE: &str = "ratelab headers read [--now <epoch-seconds>] [--json] < block.txt";

/// The whole command line: `charges`, `serve`, `judge`, `limits`, `headers`, `bench`,
/// and clap's `help`.
pub fn command() -> Command {
    Command::new("ratelab")
        .bin_name("ratelab")
        .about(ABOUT)
        .override_usage(format!(
            "{CHARGES_USAGE}
       {SERVE_USAGE}
       {JUDGE_USAGE}
       {LIMITS_USAGE}
       {HEADERS_USAGE}
       {BENCH_USAGE}"
        ))
        .after_help(format!("{}\n\n{}", names_text(), params_text()))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(charges())
        .subcommand(serve())
        .subcommand(judge())
        .subcommand(limits())
        .subcommand(headers())
        .subcommand(bench())
}

/// `ratelab headers read`: a response's header block on stdin, read as a client should.
fn headers() -> Command {
    Command::new("headers")
        .about("Read a response's rate-limit headers as a careful client does")
        .override_usage(HEADERS_USAGE)
        .subcommand_required(true)
        .subcommand(
            Command::new("read")
                .about(
                    "Read a header block from standard input (one 'Name: value' per line, an \
                     optional status line first): the wait, the header it came from, and every \
                     header ignored with its reason",
                )
                .override_usage(HEADERS_USAGE)
                .arg(
                    valued("now", "epoch-seconds").value_parser(now).help(
                        "Now, in whole seconds since 1970; this computer's clock if not given",
                    ),
                )
                .arg(json()),
        )
}

/// `--now`: whole epoch seconds, with the page's sentence when not.
fn now(text: &str) -> Result<u64, String> {
    page::headers::reader::parse_now(text).map_err(|e| e.to_string())
}

/// `ratelab charges`: what to run, how to print it, and every parameter.
fn charges() -> Command {
    const RUN: &str = "What to run";
    const OUTPUT: &str = "Output";
    let cmd = Command::new("charges")
        .about("The charges: one strategy's run, all ten side by side, every strategy against every incident, a sweep of seeds, or one customer's story")
        .override_usage(CHARGES_USAGE)
        .after_help(names_text())
        .arg(
            valued("strategy", "name")
                .value_parser(pick)
                .help("A strategy, or all")
                .help_heading(RUN),
        )
        .arg(
            switch("all")
                .conflicts_with("strategy")
                .help("All ten strategies side by side")
                .help_heading(RUN),
        )
        .arg(
            switch("matrix")
                .conflicts_with_all([
                    "strategy",
                    "all",
                    "seeds",
                    "sweep-param",
                    "customer",
                    "query",
                    "until-ms",
                    "http",
                    "export",
                    "incident",
                ])
                .help(format!(
                    "Every strategy against every incident ({}) on one seed: customers charged, duplicates, requests per charge, recovery",
                    Incident::ALL.map(Incident::as_str).join(", ")
                ))
                .help_heading(RUN),
        )
        .arg(
            switch("outage")
                .conflicts_with_all(["query", "matrix"])
                .help("Start from the outage under steady traffic, the case the form's links open (docs/traffic.md): one worker, a queue, a 3 s outage from 10 s, customers arriving at 80% of the provider's capacity; the parameter flags change it")
                .help_heading(RUN),
        )
        .arg(seed().help_heading(RUN))
        .arg(
            valued("seeds", "A..=B")
                .value_parser(page::input::seeds::parse_seed_range)
                .conflicts_with("seed")
                .help("A sweep of seeds, e.g. 1..=200: each stat's distribution")
                .help_heading(RUN),
        )
        .arg(
            valued("sweep-param", "key=from..=to:steps")
                .value_parser(page::sweep::param_sweep::parse_sweep_flag)
                .conflicts_with_all(["seed", "customer"])
                .help("Sweep one parameter, e.g. timeoutMs=200..=3000:15 (its unit): one stat's median, min and max per value, over seeds 1..=N")
                .help_heading(RUN),
        )
        .arg(
            valued("stat", "field")
                .value_parser(stat)
                .requires("sweep-param")
                .help("The stat a parameter sweep follows (a --json field name); duplicates if not given")
                .help_heading(RUN),
        )
        .arg(
            valued("customer", "id|scene")
                .conflicts_with("seeds")
                .help("One customer's story: an id, or the first customer showing a scene")
                .help_heading(RUN),
        )
        .arg(
            valued("query", "page URL query")
                .help("Run exactly what the page runs for this URL query (instead of the flags)")
                .help_heading(RUN),
        )
        .arg(
            valued("until-ms", "T")
                .value_parser(until_ms)
                .conflicts_with_all(["all", "seeds", "customer", "export"])
                .help("One strategy's stats as they stood at simulated time T ms (the page's playhead)")
                .help_heading(OUTPUT),
        )
        .arg(
            valued("http", "URL")
                .conflicts_with_all(["seeds", "sweep-param", "customer", "until-ms", "export"])
                .help("Run for real, over HTTP, against `ratelab serve` at URL (e.g. http://127.0.0.1:55541): the same client code on a real clock")
                .help_heading(RUN),
        )
        .arg(json().help_heading(OUTPUT))
        .arg(
            valued("export", "json|csv")
                .value_parser(["json", "csv"])
                .conflicts_with("json")
                .help("One run's record: the run as JSON, or one CSV row per request")
                .help_heading(OUTPUT),
        );
    with_params(cmd)
}

/// One `--<key> <value>` flag for each parameter of the table.
fn with_params(mut cmd: Command) -> Command {
    for p in PARAMS {
        let value = match p.kind() {
            ParamKind::Count => "N",
            ParamKind::Micros => "MS",
            ParamKind::Odds => "P",
            ParamKind::Switch => "on|off",
            ParamKind::Choice => "NAME",
        };
        cmd = cmd.arg(
            valued(p.key, value)
                .help(format!(
                    "{}: {}; the article's {}",
                    p.label,
                    p.range_text(),
                    p.default_text()
                ))
                .long_help(format!(
                    "{}: {}; the article's {}.\n{}",
                    p.label,
                    p.range_text(),
                    p.default_with_unit(),
                    p.help()
                ))
                .help_heading("Parameters (the page's URL names and units)"),
        );
    }
    cmd
}

/// `ratelab serve`: the provider and the limiters as a real local HTTP service.
fn serve() -> Command {
    const WHERE: &str = "Where it listens";
    const LIMITERS: &str = "The limiter endpoints (/fixed, /sliding, /bucket, /counter, /queue, /nodelay, /gcra, /inflight, /global)";
    const STORE: &str = "Where the limiters' state lives (STORE)";
    let cmd = Command::new("serve")
        .about("The provider (/charge, /stats, /reset, /report) and the limiters (/fixed, /sliding, /bucket, /counter, /queue, /nodelay, /gcra, /inflight, /global) as a real local HTTP server; Ctrl-C stops it and prints the counters")
        .override_usage(SERVE_USAGE)
        .arg(
            valued("port", "N")
                .value_parser(port)
                .help("The port; 55541 (the second article's) if not given, 0 for any free one")
                .help_heading(WHERE),
        )
        .arg(
            valued("host", "IP")
                .value_parser(host)
                .help("The address to bind; 127.0.0.1 (this machine only) if not given")
                .help_heading(WHERE),
        )
        .arg(seed().help("The seed of the provider's dice, 0 to 18446744073709551615; 1 if not given (/reset?seed=N changes it)"))
        .arg(
            valued("query", "page URL query")
                .help("The provider's parameters from a page URL's query (instead of the flags)"),
        )
        .arg(
            valued("limit", "N")
                .value_parser(limiter_limit)
                .help("Requests each limiter allows per window: 1 to 1000000; 10 if not given")
                .help_heading(LIMITERS),
        )
        .arg(
            valued("window-ms", "MS")
                .value_parser(window_ms)
                .help("The limiters' window in ms: 1 to 3600000; 1000 if not given")
                .help_heading(LIMITERS),
        )
        .arg(
            valued("dist", "DIR")
                .help("Also serve the built app from DIR (trunk build --release writes dist/), on the same port: the page, its .gz files to browsers that take gzip, and CORS for a blog on another origin")
                .help_heading(WHERE),
        )
        .arg(
            valued("store", "memory|redis://HOST:PORT")
                .value_parser(ratelab::store::parse_store)
                .help("Where the limiters keep their state: memory (this process, the default), or a Redis at redis://HOST:PORT[/DB], which every server given the same address shares, so several servers hold one limit together. Every key carries a TTL")
                .help_heading(STORE),
        )
        .arg(
            valued("store-mode", "atomic|read-then-write")
                .value_parser(ratelab::store::parse_mode)
                .help("With --store redis: atomic (the default) decides in one Lua script, loaded once and called by its hash, that no other server can come between; read-then-write GETs the state, decides here and SETs it, two calls another server can come between, so together they can admit more than the limit (the race, for real)")
                .help_heading(STORE),
        )
        .arg(
            valued("store-fail", "closed|open")
                .value_parser(ratelab::store::parse_fail)
                .help(format!("With --store redis, when Redis cannot decide (down, silent for {} ms, full, or answering nonsense): closed (the default) answers 503 with the reason and Retry-After: 1; open admits the request without a limit, with a ratelab-store warning header. Either way one log line says the store is gone, and one that it is back", ratelab::store::redis::CALL_TIMEOUT.as_millis()))
                .help_heading(STORE),
        );
    let d = Bounds::default();
    let bounds = [
        (
            "header-timeout-s",
            format!("Seconds from a request's first byte until its header is whole, else the connection is closed: 1 to 3600; {} if not given", d.header_timeout.as_secs()),
        ),
        (
            "idle-timeout-s",
            format!("Seconds a connection may wait for its next request with no byte either way: 1 to 3600; {} if not given", d.idle_timeout.as_secs()),
        ),
        (
            "body-timeout-s",
            format!("Seconds from a charge's header until its whole body has arrived, else 408: 1 to 3600; {} if not given", d.body_timeout.as_secs()),
        ),
        (
            "max-connections",
            format!("Connections open at once; at the cap a new one closes the longest-idle one, or waits while all are busy: 1 to 100000; {} if not given. Each holds at most a {} KB header buffer", d.max_connections, MAX_HEAD_BYTES / 1024),
        ),
        (
            "max-keys",
            format!("Idempotency keys held at once, kept for admitted requests only; a new key beyond it gets 503: 1 to 10000000; {} if not given. Each costs at most {} B (its text, up to {} B, and its entries), {} MB at the default", d.max_keys, KEY_BYTES_MAX, MAX_KEY_BYTES, d.max_keys * KEY_BYTES_MAX / 1_000_000),
        ),
        (
            "key-ttl-s",
            format!("Seconds a key is kept after its request was admitted: 1 to 31536000; {} (a day, as the implementations the IETF idempotency-key draft lists keep them) if not given", d.key_ttl.as_secs()),
        ),
        (
            "max-callers",
            format!("Callers each per-caller limiter (/fixed, /sliding, /bucket, /counter, /queue, /nodelay, /gcra, /inflight) remembers at once; a caller is forgotten once its window has passed, and a new one beyond the cap gets 503: 1 to 10000000; {} if not given. Each costs at most {} B (its x-api-key, up to {} B, and its state), plus up to 16 B per request in its window on /sliding (and per request in flight on /inflight)", d.max_callers, CALLER_BYTES_MAX, MAX_KEY_BYTES),
        ),
    ];
    let mut cmd = cmd;
    for (id, help) in bounds {
        let parser = match id {
            "header-timeout-s" | "idle-timeout-s" | "body-timeout-s" => bound_seconds,
            "key-ttl-s" => key_ttl_seconds,
            "max-connections" => max_connections,
            _ => max_entries,
        };
        cmd = cmd.arg(
            valued(id, "N")
                .value_parser(move |text: &str| parser(id, text))
                .help(help)
                .help_heading("What a client can make the server hold (BOUNDS)"),
        );
    }
    with_params(cmd)
}

/// `ratelab judge`: a fresh provider, a command run against it, and its report card.
fn judge() -> Command {
    let cmd = Command::new("judge")
        .about(format!(
            "Judge your own client: start a fresh provider on a free port, run the command with {}=http://127.0.0.1:PORT, {}=N and {}=S in its environment, and print the report card of what it did to its customers beside the best the built-in strategies that passed did. Exit code 1 if a customer was charged twice or lost a charge, 0 if not, 2 for bad arguments or a command that cannot start",
            ratelab::report::ENV_URL,
            ratelab::report::ENV_CUSTOMERS,
            ratelab::report::ENV_SEED
        ))
        .override_usage(JUDGE_USAGE)
        .arg(seed().help("The seed of the provider's dice, 0 to 18446744073709551615; 1 if not given"))
        .arg(
            valued("limit-s", "S")
                .value_parser(limit_seconds)
                .help("Stop the command (and everything it started) after S seconds: 1 to 3600; 300 if not given"),
        )
        .arg(json().help("Print the card as JSON: the fields of GET /report, and the command's end"))
        .arg(
            Arg::new("command")
                .value_name("command")
                .num_args(1..)
                .last(true)
                .allow_hyphen_values(true)
                .help("The command to judge, after --, with its arguments; its standard output goes to judge's standard error"),
        );
    with_params(cmd)
}

/// Reads `--limit-s`.
fn limit_seconds(text: &str) -> Result<u64, String> {
    page::parse_count(text, 1, 3_600).map_err(|e| format!("--limit-s: {e}"))
}

/// Reads a timeout in whole seconds.
fn bound_seconds(id: &str, text: &str) -> Result<u64, String> {
    page::parse_count(text, 1, 3_600).map_err(|e| format!("--{id}: {e}"))
}

/// Reads `--key-ttl-s`: up to a year.
fn key_ttl_seconds(id: &str, text: &str) -> Result<u64, String> {
    page::parse_count(text, 1, 31_536_000).map_err(|e| format!("--{id}: {e}"))
}

/// Reads `--max-connections`.
fn max_connections(id: &str, text: &str) -> Result<u64, String> {
    page::parse_count(text, 1, 100_000).map_err(|e| format!("--{id}: {e}"))
}

/// Reads `--max-keys` and `--max-callers`.
fn max_entries(id: &str, text: &str) -> Result<u64, String> {
    page::parse_count(text, 1, 10_000_000).map_err(|e| format!("--{id}: {e}"))
}

/// Reads `--port`.
fn port(text: &str) -> Result<u16, String> {
    text.parse().map_err(|_| {
        format!(
            "--port takes a port number from 0 to 65535, not {}",
            page::shown(text)
        )
    })
}

/// Reads `--host`: an IP address (names are not looked up).
fn host(text: &str) -> Result<std::net::IpAddr, String> {
    text.parse().map_err(|_| {
        format!(
            "--host takes an IP address such as 127.0.0.1 or 0.0.0.0, not {}",
            page::shown(text)
        )
    })
}

/// Reads `--limit`.
fn limiter_limit(text: &str) -> Result<u32, String> {
    page::parse_count(text, 1, 1_000_000)
        .map(|n| u32::try_from(n).expect("at most a million"))
        .map_err(|e| format!("--limit: {e}"))
}

/// Reads `--window-ms`.
fn window_ms(text: &str) -> Result<u64, String> {
    page::parse_count(text, 1, 3_600_000).map_err(|e| format!("--window-ms: {e}"))
}

/// `ratelab limits`: the limiter lab's experiments, or the headers.
fn limits() -> Command {
    let names: Vec<&str> = ExperimentName::NAMES.to_vec();
    let mut cmd = Command::new("limits")
        .about("The limiter lab's experiments, or the headers a limiter sends")
        .override_usage(LIMITS_USAGE)
        .arg(
            Arg::new("experiment")
                .value_name("experiment|all|headers")
                .required(true)
                .value_parser(lab)
                .help(format!("One of {}; all; or headers", names.join(", "))),
        )
        .arg(seed())
        .arg(json());
    for k in &KNOBS {
        cmd = cmd.arg(
            valued(
                k.key,
                if matches!(k.range, Range::Choice(_)) {
                    "NAME"
                } else {
                    "N"
                },
            )
            .help(format!(
                "{} ({}): {}; the article's {}",
                k.label,
                k.experiment,
                k.range_text(),
                k.shown(k.default)
            ))
            .help_heading("Settings (the limits page's URL names and units)"),
        );
    }
    cmd
}

/// `ratelab bench`: how fast the core runs.
fn bench() -> Command {
    Command::new("bench")
        .about("How fast the core runs on this machine")
        .override_usage(BENCH_USAGE)
        .arg(switch("quick").help("Fewer runs and a smaller batch"))
}

/// A flag that takes a value. The value is the next word whatever it looks like (`-3`
/// included), so a bad one gets its sentence rather than clap's guess at a flag.
fn valued(id: &'static str, value_name: &'static str) -> Arg {
    Arg::new(id)
        .long(id)
        .value_name(value_name)
        .action(ArgAction::Set)
        .allow_hyphen_values(true)
}

/// A flag that takes no value.
fn switch(id: &'static str) -> Arg {
    Arg::new(id).long(id).action(ArgAction::SetTrue)
}

fn seed() -> Arg {
    valued("seed", "N")
        .value_parser(page::parse_seed)
        .help("The seed, 0 to 18446744073709551615; 1 if not given")
}

/// `--until-ms`: a whole number of simulated milliseconds.
fn until_ms(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        format!("--until-ms takes a whole number of simulated milliseconds, not {text:?}")
    })
}

fn json() -> Arg {
    switch("json").help("Print JSON: the same field names as the page")
}

/// Reads `--strategy`: a strategy's name (the page's sentence if none matches) or `all`.
fn pick(text: &str) -> Result<Pick, String> {
    match text {
        "all" => Ok(Pick::All),
        name => name
            .parse::<StrategyName>()
            .map(Pick::One)
            .map_err(|e| e.sentence()),
    }
}

/// Reads `--stat`: a stats field's JSON name.
fn stat(text: &str) -> Result<StatField, String> {
    text.parse::<StatField>().map_err(|e| e.sentence())
}

/// Reads the experiment of `ratelab limits`.
fn lab(text: &str) -> Result<Lab, String> {
    match text {
        "all" => Ok(Lab::All),
        "headers" => Ok(Lab::Headers),
        name => name
            .parse::<ExperimentName>()
            .map(Lab::One)
            .map_err(|e| e.sentence()),
    }
}

/// The names the flags take: strategies, experiments and scenes.
fn names_text() -> String {
    format!(
        "Strategies: {}\nScenes (--customer): {}\nExperiments (limits): {}",
        StrategyName::NAMES.join(", "),
        Scene::NAMES.join(", "),
        ExperimentName::NAMES.join(", ")
    )
}

/// Every parameter with its range, from the table: flags of `charges`, or keys of a query.
fn params_text() -> String {
    let width = PARAMS.iter().map(|p| p.key.len()).max().unwrap_or(0);
    let mut out = String::from(
        "Parameters (flags of `charges`, or keys inside --query; the page's URL names and units):",
    );
    for p in PARAMS {
        out.push_str(&format!(
            "\n  {:<width$}  {}; the article's {}",
            p.key,
            p.range_text(),
            p.default_text()
        ));
    }
    out.push_str("\n\nDefaults are the article's, with seed 1. Bad arguments get a sentence and exit code 2.");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_is_consistent() {
        command().debug_assert();
    }

    #[test]
    fn every_parameter_has_a_flag() {
        let charges = charges();
        for p in PARAMS {
            let arg = charges.get_arguments().find(|a| a.get_id() == p.key);
            assert_eq!(arg.and_then(Arg::get_long), Some(p.key));
        }
    }
}

//! `ratelab serve` and `ratelab charges --http` on the command line: clear refusals of
//! bad arguments, and a server that starts, says where it is, and stops cleanly on SIGTERM.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use support::assert_each_refused;

/// `ratelab serve` on a port of the system's choosing, with `args`, until [`Served::stop`].
struct Served {
    child: std::process::Child,
    /// Its standard output, kept open: the server prints its counters there as it stops.
    out: BufReader<std::process::ChildStdout>,
    /// The first line it printed.
    first: String,
    /// The address it printed.
    url: String,
}

impl Served {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ratelab"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ratelab serve starts");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        out.read_line(&mut first).expect("a first line");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("an address in {first}"))
            .to_string();
        Self {
            child,
            out,
            first,
            url,
        }
    }

    /// SIGTERM, and a clean exit; returns what it printed after its first line.
    fn stop(mut self) -> String {
        let killed = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(killed.success());
        let status = self.child.wait().expect("the server exits");
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.out, &mut rest).expect("the rest of stdout");
        assert!(status.success(), "{status:?}: {rest}");
        rest
    }
}

#[test]
fn bad_serve_and_http_arguments_get_a_sentence() {
    assert_each_refused(&[
        (&["serve", "--port", "http"], "--port takes a port number"),
        (&["serve", "--port", "70000"], "--port takes a port number"),
        (
            &["serve", "--host", "localhost"],
            "--host takes an IP address",
        ),
        (&["serve", "--limit", "0"], "--limit"),
        (&["serve", "--window-ms", "x"], "--window-ms"),
        (&["serve", "--pacer", "50"], "--pacer is the client's"),
        (
            &["serve", "--traffic", "steady"],
            "--traffic: the server answers whatever arrives",
        ),
        (
            &["serve", "--query", "traffic=ramp"],
            "traffic=ramp: the server answers whatever arrives",
        ),
        (
            &["serve", "--charge", "next-month"],
            "--charge: the server answers whatever arrives",
        ),
        (
            &["serve", "--query", "charge=next-month"],
            "charge=next-month: the server answers whatever arrives",
        ),
        (
            &["serve", "--keyTtlS", "60", "--key-ttl-s", "60"],
            "--key-ttl-s and keyTtlS both say how long a key is kept",
        ),
        (
            &["serve", "--keyTtlS", "0"],
            "keyTtlS=0 keeps keys for as long as the simulation runs",
        ),
        (
            &["serve", "--keyScope", "customer"],
            "--keyScope is the client's",
        ),
        (
            &[
                "charges",
                "--http",
                "http://127.0.0.1:1",
                "--strategy",
                "naive",
                "--rate",
                "50",
            ],
            "--rate: a run over HTTP sends its customers as one batch",
        ),
        (&["serve", "--rateLimit", "0"], "rate"),
        (
            &["serve", "--query", "rateLimit=50", "--maxInflight", "3"],
            "inside it instead",
        ),
        (
            &[
                "charges",
                "--http",
                "ftp://127.0.0.1:1",
                "--strategy",
                "naive",
            ],
            "plain http://",
        ),
        (
            &[
                "charges",
                "--http",
                "127.0.0.1:55541",
                "--strategy",
                "naive",
            ],
            "--http expects an address",
        ),
        (
            &[
                "charges",
                "--http",
                "http://127.0.0.1:1/charge",
                "--strategy",
                "naive",
            ],
            "not a path",
        ),
        (
            &[
                "charges",
                "--http",
                "http://127.0.0.1:1",
                "--strategy",
                "naive",
                "--rateLimit",
                "50",
            ],
            "--rateLimit is the provider's",
        ),
        (
            &[
                "charges",
                "--http",
                "http://127.0.0.1:1",
                "--strategy",
                "naive",
                "--seeds",
                "1..=3",
            ],
            "cannot be used with",
        ),
        (
            &[
                "charges",
                "--http",
                "http://127.0.0.1:1",
                "--strategy",
                "naive",
            ],
            "could not reach",
        ),
    ]);
}

#[test]
fn serve_prints_its_address_and_stops_cleanly_on_sigterm() {
    let served = Served::start(&["--seed", "4"]);
    let first = served.first.clone();
    assert!(
        first.starts_with("ratelab serve: listening on http://127.0.0.1:"),
        "{first}"
    );
    assert!(first.contains("seed: 4"), "{first}");
    let rest = served.stop();
    assert!(rest.contains("/global"), "{rest}");
    assert!(rest.contains("stopped; the provider's counters:"), "{rest}");
    assert!(rest.contains("\"requests\": 0"), "{rest}");
}

#[test]
fn the_pages_http_commands_are_accepted_by_the_command_line() {
    use page::site::words::{http_cli_line, CLI_PREFIX, HTTP_BASE};
    use page::{pairs_of, parse};
    for query in [
        "?strategy=keyed&seed=3",
        "?strategy=pool&seed=2&maxInflight=20&errorRate=1/5&workers=3&customers=200",
        "?view=compare&seed=9&timeoutMs=2500&rateLimit=50&slowMs=900",
    ] {
        let lines = http_cli_line(&parse(&pairs_of(query)).base).expect("a charges page");
        let words = |line: &str| -> Vec<String> {
            line.replace(CLI_PREFIX, "")
                .split_whitespace()
                .map(str::to_string)
                .collect()
        };
        // Every word is accepted; the client then finds no server on port 1.
        let client: Vec<String> = words(&lines.client)
            .into_iter()
            .map(|w| {
                if w == HTTP_BASE {
                    "http://127.0.0.1:1".into()
                } else {
                    w
                }
            })
            .collect();
        let client: Vec<&str> = client.iter().map(String::as_str).collect();
        let (code, _, err) = support::ratelab(&client);
        assert_eq!(code, 2, "{query}: {err}");
        assert!(err.contains("could not reach"), "{query}: {err}");
        // Every word is accepted; the server then cannot bind an address not its own.
        let mut serve = words(&lines.serve);
        serve.extend(["--host".into(), "203.0.113.1".into()]);
        let serve: Vec<&str> = serve.iter().map(String::as_str).collect();
        let (code, _, err) = support::ratelab(&serve);
        assert_eq!(code, 2, "{query}: {err}");
        assert!(err.contains("could not listen on"), "{query}: {err}");
    }
}

#[test]
fn a_next_rung_runs_over_http_from_the_command_line_and_obeys_the_servers_headers() {
    // The server admits 60 a second against the pacer's 90. In the model, `headers`
    // meets exactly one 429 on every seed: it reads that answer's Retry-After and pauses
    // every worker until the window has room.
    let server = Served::start(&["--rateLimit", "60"]);
    let url = server.url.clone();
    let (code, json, err) = support::ratelab(&[
        "charges",
        "--http",
        &url,
        "--strategy",
        "headers",
        "--customers",
        "100",
        "--json",
    ]);
    server.stop();
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("the run's JSON");
    assert_eq!(v["strategy"], "headers", "{json}");
    assert_eq!(v["duplicates"], 0, "{json}");
    assert_eq!(v["customersCharged"], 99, "every valid customer: {json}");
    // One 429, and up to five more for what a stalled machine can squeeze into one
    // window (the agreement test's allowance, at 100 customers). A client that did not
    // read the headers meets 2 to 16 in the model, 9 for real on seed 1.
    let limited = v["rateLimited"].as_u64().expect("a count");
    assert!((1..=6).contains(&limited), "{json}");
}

#[test]
fn an_incident_over_http_is_measured_by_the_server_and_printed_by_the_command_line() {
    use sim::incident::{Incident, IncidentPlan};
    use sim::sweep::Sweep;
    use sim::{Scenario, StatField, StrategyName};
    // Down from 300 ms for 600 ms; `keyed`, 100 customers. The pacer's turns are
    // 11.1 ms apart and each request that meets the incident is one turn, so the model
    // counts the same requests on every seed.
    let (start_ms, length_ms) = (300u64, 600u64);
    let incident = ["--incident", "down", "--incidentStartMs", "300"];
    let server = Served::start(&[incident.as_slice(), &["--incidentMs", "600"]].concat());
    let url = server.url.clone();
    let run = |json: bool| {
        let mut args = vec![
            "charges",
            "--http",
            &url,
            "--strategy",
            "keyed",
            "--customers",
            "100",
        ];
        if json {
            args.push("--json");
        }
        support::ratelab(&args)
    };
    let (code, json, err) = run(true);
    let (table_code, table, table_err) = run(false);
    server.stop();
    assert_eq!(code, 0, "{err}");
    assert_eq!(table_code, 0, "{table_err}");

    let sweep = Sweep::run(
        &Scenario {
            customers: 100,
            record: false,
            provider: sim::provider::ProviderConfig {
                incident: IncidentPlan {
                    kind: Incident::Down,
                    start_us: start_ms * 1_000,
                    length_us: length_ms * 1_000,
                },
                ..Default::default()
            },
            ..Scenario::article(StrategyName::Keyed, 1)
        },
        1..=40,
    )
    .expect("a valid scenario");
    let sim = |f| sweep.distribution(f).expect("at least one seed");
    let v: serde_json::Value = serde_json::from_str(&json).expect("the run's JSON");
    let real = |f: StatField| v[f.as_str()].as_u64().expect("a count");
    let r = sim(StatField::IncidentRequests);
    // The server's clock starts when it handles the reset, a hair before the client's:
    // one request more or fewer at each edge; and a stall straddling an edge may move up
    // to 5 more (the agreement test's allowance at 100 customers).
    let band = r.min.saturating_sub(2 + 5)..=r.max + 2 + 5;
    let requests = real(StatField::IncidentRequests);
    assert!(
        band.contains(&requests),
        "incidentRequests {requests}, model {}..={}: {json}",
        r.min,
        r.max
    );
    // Paced at 90 a second, any 100 ms of the incident holds 9 or 10 turns in the model;
    // late timers spread them by a millisecond, a stall bunches them.
    let p = sim(StatField::IncidentPeakRate);
    let peak = real(StatField::IncidentPeakRate);
    assert!(
        peak >= p.min.saturating_sub(10) && peak > 0,
        "incidentPeakRate {peak}, model {}..={}: {json}",
        p.min,
        p.max
    );
    // The model's pacer brings the charges back at once; allow a 100 ms stall.
    let rec = sim(StatField::RecoveryMs);
    let recovery = real(StatField::RecoveryMs);
    assert!(
        recovery <= rec.max + 100,
        "recoveryMs {recovery}, model {}..={}: {json}",
        rec.min,
        rec.max
    );
    // The panel prints the server's figures too (its own run: the same band).
    let shown: u64 = table
        .lines()
        .find_map(|l| l.trim().strip_prefix("incidentRequests:"))
        .and_then(|n| n.trim().trim_end_matches(',').parse().ok())
        .unwrap_or_else(|| panic!("incidentRequests in the panel: {table}"));
    assert!(
        band.contains(&shown),
        "the panel's incidentRequests {shown}, model {}..={}: {table}",
        r.min,
        r.max
    );
}

//! `ratelab serve` and `ratelab charges --http` on the command line: clear refusals of
//! bad arguments, and a server that starts, says where it is, and stops cleanly on SIGTERM.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use support::assert_each_refused;

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
    let mut child = Command::new(env!("CARGO_BIN_EXE_ratelab"))
        .args(["serve", "--port", "0", "--seed", "4"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ratelab serve starts");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    out.read_line(&mut first).expect("a first line");
    assert!(
        first.starts_with("ratelab serve: listening on http://127.0.0.1:"),
        "{first}"
    );
    assert!(first.contains("seed: 4"), "{first}");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = child.wait().expect("the server exits");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).expect("the rest of stdout");
    assert!(status.success(), "{status:?}: {rest}");
    assert!(rest.contains("/global"), "{rest}");
    assert!(rest.contains("stopped; the provider's counters:"), "{rest}");
    assert!(rest.contains("\"requests\": 0"), "{rest}");
}

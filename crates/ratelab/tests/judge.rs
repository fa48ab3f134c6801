//! `ratelab judge -- <command>`: a fresh provider, the command run against it with the
//! address in its environment, and the card on standard output with exit code 1 when a
//! customer was charged twice or lost a charge; bad arguments, no command or one that
//! cannot start get a sentence and code 2, and a command that hangs is stopped, with
//! what it started, at the limit.

mod support;

use std::process::Command;
use std::time::{Duration, Instant};
use support::{assert_each_refused, ratelab};

#[test]
fn bad_arguments_and_commands_get_a_sentence_and_code_2() {
    assert_each_refused(&[
        (&["judge"], "give the command to judge after --"),
        (&["judge", "--"], "give the command to judge after --"),
        (
            &["judge", "--json", "--"],
            "give the command to judge after --",
        ),
        (
            &["judge", "--", "ratelab-no-such-command-here"],
            "could not start ratelab-no-such-command-here",
        ),
        (
            &["judge", "--pacer", "10", "--", "true"],
            "--pacer is the client's",
        ),
        (
            &["judge", "--traffic", "steady", "--", "true"],
            "--traffic: the command sends its customers as it likes",
        ),
        (
            &["judge", "--charge", "next-month", "--", "true"],
            "--charge: the command sends its customers as it likes",
        ),
        (
            &["judge", "--limit-s", "0", "--", "true"],
            "0 is outside 1–3600",
        ),
        (
            &["judge", "--limit-s", "3601", "--", "true"],
            "outside 1–3600",
        ),
        (
            &["judge", "--limit-s", "soon", "--", "true"],
            "not a whole number",
        ),
        (
            &["judge", "--customers", "2000000", "--", "true"],
            "the server takes customers 1 to 1000000",
        ),
        (&["judge", "--keyTtlS", "0", "--", "true"], "keyTtlS=0"),
        (
            &["judge", "--maxInflight", "0", "--", "true"],
            "maxInflight",
        ),
        (
            &["judge", "--seed", "x", "--", "true"],
            "is not a whole number",
        ),
        // Without `--`, the command's words are not judge's flags.
        (&["judge", "true"], "unexpected argument"),
    ]);
}

/// `ratelab judge --json … -- sh -c SCRIPT`: its exit code, its card and its stderr.
fn judge_sh(flags: &[&str], script: &str) -> (i32, serde_json::Value, String) {
    let mut args = vec!["judge", "--json"];
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--", "sh", "-c", script]);
    let (code, out, err) = ratelab(&args);
    let card = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, card, err)
}

#[test]
fn a_command_that_hangs_is_stopped_at_the_limit_with_what_it_started() {
    let dir = std::env::temp_dir().join(format!("ratelab-judge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("pid");
    let script = format!(
        "sleep 100 & echo $! > '{}'; echo started; wait",
        pid_file.display()
    );
    let began = Instant::now();
    let (code, card, err) = judge_sh(&["--limit-s", "1", "--customers", "3"], &script);
    let took = began.elapsed();
    // Nothing was charged: three charges lost.
    assert_eq!(code, 1, "{card}");
    assert_eq!(card["card"]["chargesLost"], 3, "{card}");
    assert_eq!(card["command"]["stoppedAtLimit"], true, "{card}");
    assert_eq!(card["command"]["exitCode"], serde_json::Value::Null);
    assert_eq!(card["command"]["limitS"], 1);
    let notes = card["notes"].to_string();
    assert!(notes.contains("was still running after 1 s"), "{notes}");
    // The command's standard output went to judge's standard error.
    assert!(err.contains("started"), "{err}");
    // SIGTERM ends `sh` and its `sleep` at once; the limit and the grace bound it.
    assert!(took < Duration::from_secs(30), "{took:?}");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let stat = format!("/proc/{}/stat", pid.trim());
    // The background sleep was stopped too (or is a zombie about to be reaped).
    let gone = (0..200).any(|_| {
        let alive = std::fs::read_to_string(&stat)
            .is_ok_and(|s| s.split_whitespace().nth(2).is_none_or(|st| st != "Z"));
        if alive {
            std::thread::sleep(Duration::from_millis(10));
        }
        !alive
    });
    assert!(gone, "the command's child {pid} is still running");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A client from this project: `ratelab charges --http` with one strategy, against the
/// address judge gives.
fn our_client(strategy: &str) -> String {
    format!(
        "exec '{}' charges --http \"$RATELAB_URL\" --strategy {strategy} --customers \"$RATELAB_CUSTOMERS\" --seed \"$RATELAB_SEED\"",
        env!("CARGO_BIN_EXE_ratelab")
    )
}

#[test]
fn a_careful_client_passes_and_a_naive_one_fails() {
    // pool: six workers, keyed, paced at 90 a second; 100 customers take about 1.5 s.
    let (code, card, err) = judge_sh(&["--customers", "100", "--seed", "3"], &our_client("pool"));
    assert_eq!(code, 0, "{card}\n{err}");
    assert_eq!(card["seed"], 3);
    assert_eq!(card["card"]["customers"], 100);
    assert_eq!(card["card"]["chargedTwice"], 0, "{card}");
    assert_eq!(card["card"]["chargesLost"], 0, "{card}");
    assert_eq!(card["card"]["unfinished"], 0, "{card}");
    assert_eq!(card["fails"], false);
    assert_eq!(card["command"]["exitCode"], 0);
    // 99 valid cards (customer 97's is declined), each charged once.
    assert_eq!(card["card"]["charges"], 99, "{card}");
    assert_eq!(card["best"]["chargedTwice"], 0, "{card}");
    // The client's own panel went to standard error.
    assert!(err.contains("strategy: pool"), "{err}");

    // naive: everything at once, each sent once: refused in the hundreds (429 above 100
    // a second, 503 above 10 in flight), most charges lost.
    let (code, card, _) = judge_sh(&["--customers", "300"], &our_client("naive"));
    assert_eq!(code, 1, "{card}");
    assert!(
        card["card"]["chargesLost"].as_u64().unwrap() > 200,
        "{card}"
    );
    assert_eq!(card["fails"], true);
    assert_eq!(card["command"]["exitCode"], 0);
}

#[test]
fn the_text_card_names_the_verdict_and_the_commands_end() {
    let (code, out, _) = ratelab(&["judge", "--customers", "2", "--", "sh", "-c", "exit 7"]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Report card: 2 customers, seed 1", "{out}");
    assert_eq!(lines[1], "Failed: 2 charges lost.", "{out}");
    assert!(out.contains("The command exited with status 7."), "{out}");
    // The same run's card is in `ratelab help`'s list of commands too.
    let help = Command::new(env!("CARGO_BIN_EXE_ratelab"))
        .arg("help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("ratelab judge"));
}

//! `ratelab headers read`: every case of the header reader's table through the command
//! line, and bad input refused with a sentence and exit code 2.

// The header reader's table of cases, shared with the page layer's own tests.
#[path = "../../page/tests/header_cases/mod.rs"]
mod header_cases;

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `ratelab headers read` with `args`, `stdin` piped in: code, stdout, stderr.
fn read(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ratelab"))
        .args(["headers", "read"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ratelab runs");
    // ratelab may stop reading early (a block too big): a broken pipe is expected then.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn every_case_of_the_table_reads_the_same_on_the_command_line() {
    for case in header_cases::cases() {
        let now = case.now_s.to_string();
        let (code, out, err) = read(&["--now", &now, "--json"], case.block.as_bytes());
        assert_eq!(code, 0, "line {} ({}): {err}", case.line, case.rule);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        match &case.expected {
            None => {
                assert!(v["waitS"].is_null(), "line {}: {v}", case.line);
                assert!(v["from"].is_null(), "line {}: {v}", case.line);
            }
            Some((us, header)) => {
                let s = v["waitS"].as_f64().unwrap();
                assert_eq!((s * 1e6).round() as u64, *us, "line {}: {v}", case.line);
                assert_eq!(v["from"], header.as_str(), "line {}", case.line);
            }
        }
        assert_eq!(v["capped"], case.capped, "line {}", case.line);
        for i in v["ignored"].as_array().unwrap() {
            let (h, why) = (i["header"].as_str().unwrap(), i["why"].as_str().unwrap());
            assert!(
                why.starts_with(h) && why.ends_with('.'),
                "line {}: {why}",
                case.line
            );
        }
    }
}

#[test]
fn the_text_output_names_the_wait_and_each_ignored_header() {
    let block = b"HTTP/1.1 429 Too Many Requests\nRetry-After: 1.5\nRateLimit: \"a,b\";r=0;t=7\n";
    let (code, out, _) = read(&["--now", "1788086459"], block);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "wait: 7 s (from RateLimit)\n\
         ignored: Retry-After '1.5' has a decimal point: delta-seconds are whole seconds.\n\
         naive: reads Retry-After: 1.5\n\
         naive (browser): waits 1.5 s.\n\
         naive (node): waits 1.5 s.\n\
         naive (python): sleeps 1.5 s.\n\
         naive (go): strconv.Atoi fails: invalid syntax.\n"
    );
    let (code, out, _) = read(&["--now", "1788086459"], b"Retry-After: 99999999999\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("capped: the header asked for longer than 86400 s"),
        "{out}"
    );
}

#[test]
fn without_now_the_clock_is_now_so_a_live_header_reads_true_times() {
    let clock_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // GitHub's reset, 20 s from now, and an HTTP-date 20 minutes from now.
    let reset = format!(
        "x-ratelimit-remaining: 0\nx-ratelimit-reset: {}\n",
        clock_s + 20
    );
    let (code, out, _) = read(&["--json"], reset.as_bytes());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let wait_s = v["waitS"].as_f64().unwrap();
    assert!((15.0..=20.0).contains(&wait_s), "{v}");
    let date = format!(
        "Retry-After: {}\n",
        sim::headers::http_date(clock_s + 1_200)
    );
    let (code, out, _) = read(&["--json"], date.as_bytes());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        (1_195.0..=1_200.0).contains(&v["waitS"].as_f64().unwrap()),
        "{v}"
    );
    assert_eq!(v["capped"], false, "{v}");
}

#[test]
fn a_twenty_digit_retry_after_reads_as_each_runtime_computes_it() {
    let (code, out, _) = read(
        &["--now", "1788086459", "--json"],
        b"Retry-After: 99999999999999999999\n",
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let naive = &v["naive"];
    assert_eq!(naive["header"], "Retry-After", "{v}");
    assert_eq!(naive["browserMs"], 0, "{v}");
    let langs = &naive["languages"];
    assert!(
        langs["browser"]
            .as_str()
            .unwrap()
            .starts_with("1.0 × 10^23 ms does not fit"),
        "{v}"
    );
    assert!(
        langs["python"].as_str().unwrap().contains("OverflowError"),
        "{v}"
    );
    assert!(
        langs["go"].as_str().unwrap().contains("value out of range"),
        "{v}"
    );
    assert!(!out.contains("584"), "no saturated count: {out}");
}

#[test]
fn bad_input_is_a_sentence_and_exit_code_2() {
    let ten_mb_line = [b"Retry-After: ".as_slice(), &vec![b'9'; 10 * 1024 * 1024]].concat();
    let cases: [(&[&str], &[u8], &str); 7] = [
        (&["--now", "1"], b"Retry-After 5\n", "Line 1 has no colon"),
        (
            &["--now", "1"],
            b"Retry-After: \xff\xfe\x00\n",
            "not UTF-8 text",
        ),
        (
            &["--now", "1"],
            b"Retry-After: 5\x07\n",
            "Line 1 has a control character",
        ),
        (&["--now", "1"], &ten_mb_line, "larger than 64 KiB"),
        (
            &["--now", "1"],
            b"a: 1\n folded\n",
            "folded header lines are obsolete",
        ),
        (
            &["--now", "soon"],
            b"Retry-After: 5\n",
            "'soon' is not a time",
        ),
        (&["--now", "-1"], b"Retry-After: 5\n", "'-1' is not a time"),
    ];
    for (args, stdin, phrase) in cases {
        let (code, out, err) = read(args, stdin);
        assert_eq!(code, 2, "{phrase}: stdout {out}");
        assert!(err.contains(phrase), "expected '{phrase}' in: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Nothing at all is an empty block: no wait.
    let (code, out, _) = read(&["--now", "1", "--json"], b"");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["waitS"].is_null() && v["ignored"].as_array().unwrap().is_empty());
}

//! What the command-line tests share: running the built `ratelab`.

use std::process::Command;

/// Runs `ratelab` with `args`: its exit code, stdout and stderr.
pub fn ratelab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ratelab"))
        .args(args)
        .output()
        .expect("ratelab runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Runs `ratelab` with `args`, expects success, and parses its output as JSON. Not every
/// test file that shares this module asks for JSON.
#[allow(dead_code)]
pub fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = ratelab(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// Checks that each argument list fails with exit code 2, no panic, and an error that
/// contains its phrase.
#[allow(dead_code)]
pub fn assert_each_refused(cases: &[(&[&str], &str)]) {
    for (args, expected) in cases {
        let (code, out, err) = ratelab(args);
        assert_eq!(code, 2, "{args:?} should fail; stdout: {out}");
        assert!(
            err.contains(expected),
            "{args:?}: expected '{expected}' in: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    }
}

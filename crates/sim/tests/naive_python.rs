//! The Python row of the naive reading against CPython itself: each value goes through
//! `time.sleep(float(value))` in a real interpreter (an alarm cuts a real sleep short),
//! and what it did must be what `naive_readings` says. Needs `python3` on the PATH; where
//! there is none the test says so and checks nothing else.

use sim::headers::{naive_readings, PythonSleep};
use std::process::Command;

/// Values on both sides of every rule: grammar, NaN, sign, the 2⁶³ ns limit.
const VALUES: &[&str] = &[
    "120",
    "0",
    "-0",
    "1.5",
    "1_000",
    " 1e3 ",
    "",
    "0x10",
    "Sun, 30 Aug 2026 10:42:59 GMT",
    "NaN",
    "-nan",
    "inf",
    "-Infinity",
    "-1",
    "-1e20",
    "1788086579",
    "9000000000",
    "1e10",
    "9223372037",
    "99999999999999999999",
];

/// What CPython did with `value`: "sleeps", or the exception's name.
const PROBE: &str = r#"
import signal, sys, time
class Cut(Exception): pass
def cut(*_): raise Cut()
signal.signal(signal.SIGALRM, cut)
for v in sys.argv[1:]:
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        time.sleep(float(v)); r = "sleeps"
    except Cut: r = "sleeps"
    except Exception as e: r = type(e).__name__
    finally: signal.setitimer(signal.ITIMER_REAL, 0)
    print(r)
"#;

#[test]
fn every_python_reading_is_what_cpython_does() {
    let Ok(out) = Command::new("python3")
        .arg("-c")
        .arg(PROBE)
        .args(VALUES)
        .output()
    else {
        eprintln!("no python3 here: the Python readings were not run against CPython");
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let did = String::from_utf8(out.stdout).unwrap();
    let did: Vec<&str> = did.lines().collect();
    assert_eq!(did.len(), VALUES.len(), "{did:?}");
    for (value, did) in VALUES.iter().zip(did) {
        let expected = match naive_readings(value).python {
            PythonSleep::Sleeps { .. } => "sleeps",
            PythonSleep::NotAFloat | PythonSleep::NaN | PythonSleep::Negative => "ValueError",
            PythonSleep::Overflow => "OverflowError",
            PythonSleep::NotModelled => continue,
        };
        assert_eq!(did, expected, "time.sleep(float({value:?}))");
    }
}

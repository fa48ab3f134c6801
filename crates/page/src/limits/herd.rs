//! The thundering herd in words: its cells, its table with the histogram, the sentence
//! naming which jitter did the least work and which finished first, and its errors.

use super::lab::{round_ms, Cells};
use crate::shared::format::count;
use crate::shared::words::Words;
use sim::lab::herd::{HerdError, HerdResult, Jitter, CAP_FACTOR, MAX_CLIENTS};
use sim::lab::ExperimentName;
use sim::time::{secs, US_PER_MS};
use std::fmt;

/// The name of a jitter in cell keys: `none`, `full`, `equal`, `decorrelated`.
fn key(j: Jitter) -> &'static str {
    j.as_str()
}

/// What each jitter sleeps, in our words: the formula beside its name.
pub fn formula(j: Jitter) -> &'static str {
    match j {
        Jitter::None => "sleep = v",
        Jitter::Full => "sleep = random(0, v)",
        Jitter::Equal => "sleep = v/2 + random(0, v/2)",
        Jitter::Decorrelated => "sleep = min(cap, random(base, 3 × previous sleep))",
    }
}

/// Per jitter `<name>PeakPerMs`, `<name>SpreadMs`, `<name>FirstMs`, `<name>LastMs`,
/// `<name>PeakPerBin`, `<name>Requests`, `<name>FinishMs` (e.g. `herd.fullRequests`),
/// then `herd.jitter`, `herd.clients`, `herd.retryAfterS`, `herd.binMs`,
/// `herd.leastWork` and `herd.firstDone`.
pub fn cells(r: &HerdResult) -> Vec<(String, String)> {
    let mut c = Cells::new(ExperimentName::Herd);
    for case in &r.cases {
        let name = key(case.jitter);
        c.put_of(name, "PeakPerMs", case.peak_per_ms);
        c.put_of(name, "SpreadMs", round_ms(case.spread_us()));
        c.put_of(name, "FirstMs", case.first_us / US_PER_MS);
        c.put_of(name, "LastMs", case.last_us / US_PER_MS);
        c.put_of(name, "PeakPerBin", case.peak_per_bin);
        c.put_of(name, "Requests", case.requests);
        c.put_of(name, "FinishMs", round_ms(case.finish_us));
    }
    c.put("jitter", r.jitter.as_str());
    c.put("clients", r.clients);
    c.put("retryAfterS", r.retry_after_us / secs(1));
    c.put("binMs", round_ms(r.bin_us));
    c.put("leastWork", names(&r.least_work));
    c.put("firstDone", names(&r.first_done));
    c.done()
}

/// "full", or "full and equal" when tied.
fn names(js: &[Jitter]) -> String {
    let words: Vec<&str> = js.iter().map(|j| j.as_str()).collect();
    match words.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The verdict, as measured: which jitter sent the fewest requests and which got its
/// last client in first.
pub fn verdict(r: &HerdResult) -> String {
    let least = r.case(r.least_work[0]);
    let first = r.case(r.first_done[0]);
    let tied = |js: &[Jitter]| if js.len() > 1 { " (tied)" } else { "" };
    format!(
        "As measured here, with {} clients: {} jitter does the least work ({} requests{}, against {} \
         with none), and {} jitter gets the last client in first ({}{}, against {} with none).",
        count(r.clients.into()),
        names(&r.least_work),
        count(least.requests),
        tied(&r.least_work),
        count(r.case(Jitter::None).requests),
        names(&r.first_done),
        seconds(first.finish_us),
        tied(&r.first_done),
        seconds(r.case(Jitter::None).finish_us),
    )
}

/// A duration in seconds with one decimal, rounded: "12.3 s".
pub fn seconds(us: u64) -> String {
    let tenths = (us + 50_000) / 100_000;
    format!("{}.{} s", count(tenths / 10), tenths % 10)
}

/// The table and the histogram.
pub fn text(r: &HerdResult) -> String {
    let mut out = format!(
        "herd: {} clients are refused at the same instant and all read a {} s Retry-After\n\
         each retries against a bucket of {} per {} ms until it gets in, sleeping the \
         Retry-After it was given plus a backoff;\n\
         v = min(cap, base × 2^refusals), base {} s, cap {} s\n\n{:<14}{:<52}{:>10}{:>10}{:>12}{:>12}{:>12}\n",
        count(r.clients.into()),
        r.retry_after_us / secs(1),
        r.limit,
        round_ms(r.window_us),
        r.retry_after_us / secs(1),
        CAP_FACTOR * r.retry_after_us / secs(1),
        "jitter",
        "backoff slept",
        "peak/ms",
        "spread",
        "requests",
        "last in",
        "1st wave"
    );
    for c in &r.cases {
        out.push_str(&format!(
            "{:<14}{:<52}{:>10}{:>7} ms{:>12}{:>12}{:>9} ms\n",
            c.jitter.as_str(),
            formula(c.jitter),
            c.peak_per_ms,
            count(round_ms(c.spread_us())),
            count(c.requests),
            seconds(c.finish_us),
            count(c.first_us / US_PER_MS),
        ));
    }
    out.push_str(&format!("\n{}\n", verdict(r)));
    out.push_str(&format!(
        "\nfirst returns per {} ms bin (from the refusal)\n{:>8}{:>12}{:>14}\n",
        round_ms(r.bin_us),
        "ms",
        "none",
        r.jitter.as_str()
    ));
    for b in r.bins.iter().filter(|b| b.none > 0 || b.chosen > 0) {
        out.push_str(&format!(
            "{:>8}{:>12}{:>14}  {}\n",
            b.start_ms,
            b.none,
            b.chosen,
            "#".repeat(b.chosen.min(60) as usize)
        ));
    }
    out.trim_end().to_string()
}

impl Words for HerdError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HerdError::Clients => write!(f, "give 1 to {} clients", count(MAX_CLIENTS.into())),
            HerdError::RetryAfter(why) => why.words(f),
            // The test below holds the core's bound to this sentence's hour.
            HerdError::WaitOutOfRange => {
                f.write_str("the herd needs a Retry-After of 1 s to 1 hour")
            }
            HerdError::NoWait => {
                f.write_str("a refusal's headers gave the header reader no wait to obey")
            }
            HerdError::Bin => f.write_str(
                "a histogram bin must be 1 ms wide at least, and no wider than the wait",
            ),
            HerdError::Limiter(why) => why.words(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab::herd::{run, HerdParams, MAX_RETRY_AFTER_US};

    #[test]
    fn cells_and_table_carry_every_jitter() {
        let r = run(&HerdParams::default(), 1).unwrap();
        let cells = cells(&r);
        assert_eq!(cells[0], ("herd.nonePeakPerMs".into(), "100".into()));
        assert!(cells.contains(&("herd.jitter".into(), "full".into())));
        let least = cells.iter().find(|(k, _)| k == "herd.leastWork").unwrap();
        assert_eq!(least.1, names(&r.least_work));
        let t = text(&r);
        let none = t.lines().find(|l| l.starts_with("none ")).unwrap();
        assert_eq!(none.split_whitespace().nth(4), Some("100"), "{t}");
        assert!(
            t.contains("\nfirst returns per 50 ms bin (from the refusal)\n"),
            "{t}"
        );
        assert!(t.contains(&verdict(&r)), "{t}");
    }

    #[test]
    fn the_verdict_names_what_was_measured() {
        let r = run(&HerdParams::default(), 2).unwrap();
        let v = verdict(&r);
        let least = r.case(r.least_work[0]);
        assert!(
            v.contains(&format!(
                "{} jitter does the least work",
                names(&r.least_work)
            )),
            "{v}"
        );
        assert!(
            v.contains(&format!("({} requests", count(least.requests))),
            "{v}"
        );
        assert_eq!(
            names(&[Jitter::Full, Jitter::Equal, Jitter::None]),
            "full, equal and none"
        );
        assert_eq!(seconds(12_349_999), "12.3 s");
        assert_eq!(seconds(12_350_000), "12.4 s");
    }

    #[test]
    fn bad_parameters_are_sentences() {
        let p = HerdParams {
            clients: 0,
            ..HerdParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().sentence(),
            "give 1 to 1,000 clients"
        );
        let p = HerdParams {
            retry_after: "-1".into(),
            ..HerdParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().sentence(),
            "Retry-After: '-1' is negative: a wait cannot point into the past",
            "the header reader's own sentence"
        );
        assert_eq!(MAX_RETRY_AFTER_US, secs(3_600));
        assert_eq!(
            HerdError::WaitOutOfRange.sentence(),
            "the herd needs a Retry-After of 1 s to 1 hour"
        );
        assert_eq!(
            HerdError::Bin.sentence(),
            "a histogram bin must be 1 ms wide at least, and no wider than the wait"
        );
    }
}

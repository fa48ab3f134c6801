//! The noisy neighbour in words: its cells, its table and its errors.

use super::lab::{round_ms, Cells};
use crate::shared::format::{capitalised, count};
use crate::shared::words::Words;
use sim::lab::neighbour::{
    NeighbourError, NeighbourResult, MAX_CALLERS, MAX_GAP_US, MAX_REQUESTS_PER_CALLER,
};
use sim::lab::ExperimentName;
use std::fmt;

/// `neighbour.globalAcmeOk`, `neighbour.globalAcmeRateLimited`, … for every caller under
/// the global bucket, then `neighbour.perKeyAcmeOk`, …, then `neighbour.spanMs`.
pub fn cells(r: &NeighbourResult) -> Vec<(String, String)> {
    let mut c = Cells::new(ExperimentName::Neighbour);
    for (label, case) in [("global", &r.global), ("perKey", &r.per_key)] {
        for t in &case.tallies {
            let who_label = format!("{label}{}", capitalised(&t.caller));
            c.put_of(&who_label, "Ok", t.ok);
            c.put_of(&who_label, "RateLimited", t.rate_limited);
        }
    }
    for l in &r.limiters {
        let name = l.limiter.as_str();
        c.put_of(name, "GlobalNoisyOk", l.global_noisy_ok);
        c.put_of(name, "GlobalQuietOk", l.global_quiet_ok);
        c.put_of(name, "PerKeyNoisyOk", l.per_key_noisy_ok);
        c.put_of(name, "PerKeyQuietOk", l.per_key_quiet_ok);
    }
    c.put("spanMs", round_ms(r.span_us));
    c.done()
}

/// The table.
pub fn text(r: &NeighbourResult) -> String {
    let mut out = format!(
        "neighbour: {} requests within {} ms, limit {} per {} ms\n\n{:<10}",
        r.global.marks.len(),
        round_ms(r.span_us),
        r.limit,
        round_ms(r.window_us),
        "scope"
    );
    for t in &r.global.tallies {
        out.push_str(&format!("{:>18}", t.caller));
    }
    out.push('\n');
    for (label, case) in [("global", &r.global), ("per-key", &r.per_key)] {
        out.push_str(&format!("{label:<10}"));
        for t in &case.tallies {
            out.push_str(&format!(
                "{:>18}",
                format!("{} ok / {} 429", t.ok, t.rate_limited)
            ));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "\nevery limiter, ok of {} noisy and {} quiet requests\n{:<12}{:>14}{:>14}{:>14}{:>14}\n",
        r.noisy_sent,
        r.quiet_sent,
        "limiter",
        "global noisy",
        "global quiet",
        "per-key noisy",
        "per-key quiet"
    ));
    for l in &r.limiters {
        out.push_str(&format!(
            "{:<12}{:>14}{:>14}{:>14}{:>14}\n",
            l.limiter.as_str(),
            l.global_noisy_ok,
            l.global_quiet_ok,
            l.per_key_noisy_ok,
            l.per_key_quiet_ok
        ));
    }
    out.trim_end().to_string()
}

impl Words for NeighbourError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NeighbourError::CallerCount => write!(f, "give 1 to {MAX_CALLERS} callers"),
            NeighbourError::CallerName { name } => write!(
                f,
                "caller '{name}' must be a word in lower-case letters (it names result cells)"
            ),
            NeighbourError::CallerRequests { name } => write!(
                f,
                "caller '{name}' must send 1 to {} requests",
                count(MAX_REQUESTS_PER_CALLER.into())
            ),
            NeighbourError::DuplicateCaller => f.write_str("every caller needs its own name"),
            NeighbourError::Gap => write!(
                f,
                "the gap between arrivals must be a range within 0–{} µs",
                count(MAX_GAP_US)
            ),
            NeighbourError::Limiter(why) => why.words(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab::neighbour::{run, NeighbourParams};

    #[test]
    fn cells_name_the_callers_in_camel_case() {
        let p = NeighbourParams {
            callers: vec![
                ("bakery".into(), 3),
                ("clinic".into(), 3),
                ("acme".into(), 40),
            ],
            ..NeighbourParams::default()
        };
        let r = run(&p, 1).unwrap();
        let cells = cells(&r);
        assert!(cells.contains(&("neighbour.globalAcmeOk".into(), "4".into())));
        assert!(cells.contains(&("neighbour.perKeyClinicOk".into(), "3".into())));
        let t = text(&r);
        assert!(t.contains("\nglobal          3 ok / 0 429"), "{t}");
    }

    #[test]
    fn every_limiter_has_its_row_and_cells() {
        let r = run(&NeighbourParams::default(), 1).unwrap();
        let t = text(&r);
        assert!(t.contains("ok of 40 noisy and 6 quiet requests"), "{t}");
        for l in &r.limiters {
            let row = format!(
                "\n{:<12}{:>14}{:>14}",
                l.limiter.as_str(),
                l.global_noisy_ok,
                l.global_quiet_ok
            );
            assert!(t.contains(&row), "{row} in {t}");
        }
        let cells = cells(&r);
        assert!(cells.contains(&("neighbour.gcraGlobalQuietOk".into(), "0".into())));
        assert!(cells.contains(&("neighbour.inflightPerKeyQuietOk".into(), "6".into())));
        assert_eq!(cells.last().unwrap().0, "neighbour.spanMs");
    }

    #[test]
    fn bad_callers_are_sentences() {
        let p = NeighbourParams {
            callers: vec![("Acme".to_string(), 3)],
            ..NeighbourParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().sentence(),
            "caller 'Acme' must be a word in lower-case letters (it names result cells)"
        );
        let sentences = [
            (NeighbourError::CallerCount, "give 1 to 100 callers"),
            (
                NeighbourError::CallerRequests {
                    name: "acme".into(),
                },
                "caller 'acme' must send 1 to 10,000 requests",
            ),
            (
                NeighbourError::DuplicateCaller,
                "every caller needs its own name",
            ),
            (
                NeighbourError::Gap,
                "the gap between arrivals must be a range within 0–1,000,000 µs",
            ),
        ];
        for (e, sentence) in sentences {
            assert_eq!(e.sentence(), sentence);
        }
    }
}

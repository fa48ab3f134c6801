//! Blind, obedient and proactive clients in words: their cells, their table and the
//! experiment's errors.

use super::lab::{round_ms, Cells};
use crate::shared::format::count;
use crate::shared::words::Words;
use sim::lab::clients::{
    ClientsError, ClientsResult, MAX_BLIND_PAUSE_US, MAX_CALLS, MAX_ROUND_TRIP_US,
};
use sim::lab::ExperimentName;
use sim::time::US_PER_S;
use std::fmt;

/// `clients.blindSent`, `clients.blindRateLimited`, `clients.blindWallMs`, the same for
/// obedient and proactive, then `clients.trafficRatio`, `clients.calls`,
/// `clients.limit`, `clients.blindPauseMs` and `clients.roundTripUs`.
pub fn cells(r: &ClientsResult) -> Vec<(String, String)> {
    let mut c = Cells::new(ExperimentName::Clients);
    for run in &r.runs {
        let name = run.strategy.as_str();
        c.put_of(name, "Sent", run.sent);
        c.put_of(name, "RateLimited", run.rate_limited);
        c.put_of(name, "WallMs", round_ms(run.wall_us));
    }
    c.put("trafficRatio", r.traffic_ratio);
    c.put("calls", r.calls);
    c.put("limit", r.limit);
    c.put("blindPauseMs", round_ms(r.blind_pause_us));
    c.put("roundTripUs", r.round_trip_us);
    c.done()
}

/// The table.
pub fn text(r: &ClientsResult) -> String {
    let mut out = format!(
        "clients: {} calls against a bucket of {} refilled at {} per {} ms\n\
         round trip: {} µs, each way {} µs ± {} µs; the blind client retries {}\n\n\
         {:<12}{:>10}{:>10}{:>12}\n",
        r.calls,
        r.capacity,
        r.limit,
        round_ms(r.window_us),
        r.round_trip_us,
        r.round_trip_us / 2,
        r.round_trip_jitter_us / 2,
        blind_retry(r.blind_pause_us),
        "client",
        "sent",
        "429s",
        "wall"
    );
    for run in &r.runs {
        out.push_str(&format!(
            "{:<12}{:>10}{:>10}{:>9} ms\n",
            run.strategy.as_str(),
            count(run.sent),
            count(run.rate_limited),
            count(round_ms(run.wall_us))
        ));
    }
    out.push_str(&format!(
        "\nthe blind client sent {}x the obedient one's traffic",
        count(r.traffic_ratio)
    ));
    out
}

/// How the blind client retries: "at once" or "after 1 ms".
pub fn blind_retry(pause_us: u64) -> String {
    if pause_us == 0 {
        "at once".into()
    } else {
        format!(
            "after {}",
            crate::shared::format::duration_ms(round_ms(pause_us))
        )
    }
}

impl Words for ClientsError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientsError::Calls => write!(
                f,
                "the worker must have 1 to {} calls to make",
                count(MAX_CALLS.into())
            ),
            ClientsError::RoundTrip => write!(
                f,
                "the round trip must be at most {} s and at least as long as its jitter",
                count(MAX_ROUND_TRIP_US / US_PER_S)
            ),
            ClientsError::TimerTick => f.write_str("the timer tick must be 1 µs to 1 s"),
            ClientsError::BlindPause => write!(
                f,
                "the blind client's pause must be at most {} ms",
                MAX_BLIND_PAUSE_US / 1_000
            ),
            ClientsError::RequestCap { strategy, sent } => write!(
                f,
                "the {strategy} client sent {} requests without finishing; raise the limit or \
                 the request cap",
                count(*sent)
            ),
            ClientsError::Limiter(why) => why.words(f),
            ClientsError::NoWait => {
                f.write_str("a 429 carried no header the reader could take a wait from")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab::clients::{run, ClientsParams};

    #[test]
    fn cells_and_table_carry_every_client() {
        let r = run(&ClientsParams::default(), 1).unwrap();
        let cells = cells(&r);
        assert!(cells.contains(&("clients.obedientSent".into(), "43".into())));
        assert_eq!(
            cells.last(),
            Some(&("clients.roundTripUs".to_string(), "50".to_string()))
        );
        let t = text(&r);
        let obedient = t.lines().find(|l| l.starts_with("obedient")).unwrap();
        assert_eq!(obedient.split_whitespace().nth(1), Some("43"), "{t}");
        assert!(t.ends_with("x the obedient one's traffic"), "{t}");
    }

    #[test]
    fn a_run_that_cannot_finish_is_called_off_with_a_sentence() {
        let p = ClientsParams {
            max_requests: 1_000,
            ..ClientsParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().sentence(),
            "the blind client sent 1,000 requests without finishing; raise the limit or the \
             request cap"
        );
        let p = ClientsParams {
            round_trip_jitter_us: 60,
            ..ClientsParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().sentence(),
            "the round trip must be at most 10 s and at least as long as its jitter"
        );
        assert_eq!(
            ClientsError::Calls.sentence(),
            "the worker must have 1 to 100,000 calls to make"
        );
        assert_eq!(
            ClientsError::TimerTick.sentence(),
            "the timer tick must be 1 µs to 1 s"
        );
    }
}

//! Blind, obedient and proactive clients in words: the sentences of the experiment's
//! errors.

use crate::page::format::count;
use crate::sim::lab::clients::{ClientsError, MAX_CALLS, MAX_ROUND_TRIP_US};
use crate::sim::time::US_PER_S;
use std::fmt;

impl fmt::Display for ClientsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
            ClientsError::RequestCap { strategy, sent } => write!(
                f,
                "the {strategy} client sent {} requests without finishing; raise the limit or \
                 the request cap",
                count(*sent)
            ),
            ClientsError::Limiter(why) | ClientsError::Header(why) => f.write_str(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::lab::clients::{run, ClientsParams};

    #[test]
    fn a_run_that_cannot_finish_is_called_off_with_a_sentence() {
        let p = ClientsParams {
            max_requests: 1_000,
            ..ClientsParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().to_string(),
            "the blind client sent 1,000 requests without finishing; raise the limit or the \
             request cap"
        );
        let p = ClientsParams {
            round_trip_jitter_us: 60,
            ..ClientsParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().to_string(),
            "the round trip must be at most 10 s and at least as long as its jitter"
        );
        assert_eq!(
            ClientsError::Calls.to_string(),
            "the worker must have 1 to 100,000 calls to make"
        );
        assert_eq!(
            ClientsError::TimerTick.to_string(),
            "the timer tick must be 1 µs to 1 s"
        );
    }
}

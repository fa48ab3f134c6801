//! The thundering herd in words: the sentences of its errors.

use crate::page::format::count;
use crate::sim::lab::herd::{HerdError, MAX_CLIENTS};
use std::fmt;

impl fmt::Display for HerdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HerdError::Clients => write!(f, "give 1 to {} clients", count(MAX_CLIENTS.into())),
            HerdError::RetryAfter(why) => f.write_str(why),
            // The test below holds the core's bound to this sentence's hour.
            HerdError::WaitOutOfRange => {
                f.write_str("the herd needs a Retry-After of 1 s to 1 hour")
            }
            HerdError::Bin => f.write_str(
                "a histogram bin must be 1 ms wide at least, and no wider than the wait",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::lab::herd::{run, HerdParams, MAX_RETRY_AFTER_US};
    use crate::sim::time::secs;

    #[test]
    fn bad_parameters_are_sentences() {
        let p = HerdParams {
            clients: 0,
            ..HerdParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().to_string(),
            "give 1 to 1,000,000 clients"
        );
        assert_eq!(MAX_RETRY_AFTER_US, secs(3_600));
        assert_eq!(
            HerdError::WaitOutOfRange.to_string(),
            "the herd needs a Retry-After of 1 s to 1 hour"
        );
        assert_eq!(
            HerdError::Bin.to_string(),
            "a histogram bin must be 1 ms wide at least, and no wider than the wait"
        );
    }
}

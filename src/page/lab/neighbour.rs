//! The noisy neighbour in words: the sentences of its errors.

use crate::page::format::count;
use crate::sim::lab::neighbour::{
    NeighbourError, MAX_CALLERS, MAX_GAP_US, MAX_REQUESTS_PER_CALLER,
};
use std::fmt;

impl fmt::Display for NeighbourError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
            NeighbourError::Limiter(why) => f.write_str(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::lab::neighbour::{run, NeighbourParams};

    #[test]
    fn bad_callers_are_sentences() {
        let p = NeighbourParams {
            callers: vec![("Acme".to_string(), 3)],
            ..NeighbourParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().to_string(),
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
            assert_eq!(e.to_string(), sentence);
        }
    }
}

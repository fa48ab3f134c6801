//! The memory experiment in words: the sentences of its errors.

use crate::page::format::count;
use crate::sim::lab::memory::{MemoryError, MAX_CALLERS};
use crate::sim::limiter::MAX_LIMIT;
use std::fmt;

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::Callers => write!(f, "give 1 to {} callers", count(MAX_CALLERS.into())),
            MemoryError::PerWindow => write!(
                f,
                "a caller makes 1 to {} requests per window",
                count(MAX_LIMIT.into())
            ),
            MemoryError::Window => f.write_str("the window must be at least 1 µs per request"),
            MemoryError::Limiter(why) => f.write_str(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::lab::memory::{run, MemoryParams};

    #[test]
    fn bad_parameters_are_sentences() {
        let p = MemoryParams {
            callers: 0,
            ..MemoryParams::default()
        };
        assert_eq!(
            run(&p).unwrap_err().to_string(),
            "give 1 to 10,000,000 callers"
        );
        assert_eq!(
            MemoryError::PerWindow.to_string(),
            format!(
                "a caller makes 1 to {} requests per window",
                count(MAX_LIMIT.into())
            )
        );
        assert_eq!(
            MemoryError::Window.to_string(),
            "the window must be at least 1 µs per request"
        );
    }
}

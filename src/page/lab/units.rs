//! The units experiment in words: the sentences of its errors.

use crate::sim::headers::{EPOCH_CUTOFF_S, MAX_WAIT_S};
use crate::sim::lab::units::UnitsError;
use std::fmt;

impl fmt::Display for UnitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitsError::NowTooEarly => write!(
                f,
                "now must be a Unix time after {EPOCH_CUTOFF_S} s (2001), or a timestamp could \
                 not be told from a wait"
            ),
            UnitsError::WaitOutOfRange { wait_s } => {
                write!(
                    f,
                    "the wait must be 1 to {MAX_WAIT_S} seconds, got {wait_s}"
                )
            }
            UnitsError::Header(why) => f.write_str(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::lab::units::{run, UnitsParams};

    #[test]
    fn bad_parameters_are_sentences() {
        let e = run(&UnitsParams {
            now_epoch_s: 5,
            wait_s: 120,
        })
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "now must be a Unix time after 1000000000 s (2001), or a timestamp could not be \
             told from a wait"
        );
        let e = UnitsError::WaitOutOfRange { wait_s: 0 };
        assert_eq!(
            e.to_string(),
            format!("the wait must be 1 to {MAX_WAIT_S} seconds, got 0")
        );
    }
}

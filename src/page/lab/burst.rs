//! The boundary burst in words: the sentences of its errors.

use crate::page::format::count;
use crate::sim::lab::burst::{BurstError, MAX_PER_VOLLEY};
use std::fmt;

impl fmt::Display for BurstError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BurstError::Limiter(why) => f.write_str(why),
            BurstError::BoundaryOffWindow => {
                f.write_str("the boundary must be a multiple of the window")
            }
            BurstError::FirstVolleyMisplaced => {
                f.write_str("the first volley must start after 0 and finish before the boundary")
            }
            BurstError::VolleySize => write!(
                f,
                "a volley must have 1 to {} requests",
                count(MAX_PER_VOLLEY.into())
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::lab::burst::{run, BurstParams};
    use crate::sim::time::ms;

    #[test]
    fn bad_parameters_are_sentences() {
        let p = BurstParams {
            boundary_us: ms(2_500),
            ..BurstParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().to_string(),
            "the boundary must be a multiple of the window"
        );
        let p = BurstParams {
            spread_us: ms(200),
            ..BurstParams::default()
        };
        assert_eq!(
            run(&p, 1).unwrap_err().to_string(),
            "the first volley must start after 0 and finish before the boundary"
        );
        assert_eq!(
            BurstError::VolleySize.to_string(),
            "a volley must have 1 to 10,000 requests"
        );
        assert_eq!(BurstError::Limiter("why".into()).to_string(), "why");
    }
}

//! The sentence for a name that matches nothing, the same wherever a name is looked up:
//! the URL, the command line and the panels.

use super::shown;
use crate::sim::names::UnknownName;
use std::fmt;

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "There is no {} called '{}'; use one of {}.",
            self.what,
            shown(&self.given),
            self.names.join(", ")
        )
    }
}

impl From<UnknownName> for String {
    fn from(e: UnknownName) -> Self {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::StrategyName;

    #[test]
    fn an_unknown_name_lists_the_names_there_are() {
        let e = "yolo\u{202e}".parse::<StrategyName>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "There is no strategy called 'yolo\u{FFFD}'; use one of naive, paced, retry, \
             timeout-no-key, keyed, pool, headers, budget, breaker, adaptive."
        );
    }
}

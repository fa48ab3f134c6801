//! The sentence for a name that matches nothing, the same wherever a name is looked up:
//! the URL, the command line and the panels.

use crate::shared::words::shown;
use crate::shared::words::Words;
use sim::names::UnknownName;
use std::fmt;

impl Words for UnknownName {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "There is no {} called '{}'; use one of {}.",
            self.what,
            shown(&self.given),
            self.names.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::shared::words::Words;
    use sim::StrategyName;

    #[test]
    fn an_unknown_name_lists_the_names_there_are() {
        let e = "yolo\u{202e}".parse::<StrategyName>().unwrap_err();
        assert_eq!(
            e.sentence(),
            "There is no strategy called 'yolo\u{FFFD}'; use one of naive, paced, retry, \
             timeout-no-key, keyed, pool, headers, budget, breaker, adaptive."
        );
    }

    #[test]
    fn an_unknown_limiter_lists_all_eight() {
        use sim::limiter::LimiterKind;
        for name in ["counter", "queue", "nodelay", "gcra", "inflight"] {
            assert!(name.parse::<LimiterKind>().is_ok(), "{name}");
        }
        let e = "leaky".parse::<LimiterKind>().unwrap_err();
        assert_eq!(
            e.sentence(),
            "There is no limiter called 'leaky'; use one of fixed, sliding, bucket, counter, \
             queue, nodelay, gcra, inflight."
        );
    }
}

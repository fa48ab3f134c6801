//! The names every page's words use: the lab's own, and each strategy's. (Each page's
//! `<title>` is [`crate::site::titles`]'.)

use sim::StrategyName;

/// The lab's name, last in every title.
pub const SITE: &str = "rate-limit-lab";

/// A strategy's name for readers, e.g. "Timeout, no key".
pub const fn strategy_label(s: StrategyName) -> &'static str {
    match s {
        StrategyName::Naive => "Naive",
        StrategyName::Paced => "Paced",
        StrategyName::Retry => "Retry",
        StrategyName::TimeoutNoKey => "Timeout, no key",
        StrategyName::Keyed => "Keyed",
        StrategyName::Pool => "Worker pool",
        StrategyName::Headers => "Obeys headers",
        StrategyName::Budget => "Retry budget",
        StrategyName::Breaker => "Circuit breaker",
        StrategyName::Adaptive => "Adaptive",
    }
}

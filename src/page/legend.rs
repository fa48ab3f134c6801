//! The words of the legends: what each customer's fate and each timeline mark is called.

use crate::sim::timeline::MarkKind;
use crate::sim::world::Fate;

/// A customer's fate, as the grid's legend names it.
pub const fn fate_label(fate: Fate) -> &'static str {
    match fate {
        Fate::Pending => "not done yet",
        Fate::Charged => "charged once",
        Fate::ChargedMoreThanOnce => "charged twice or more",
        Fate::Declined => "declined",
        Fate::GaveUp => "gave up",
        Fate::GaveUpButCharged => "gave up, but charged",
    }
}

/// A timeline mark, as the legend names it.
pub const fn mark_label(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Ok => "200 charged",
        MarkKind::Declined => "400 declined",
        MarkKind::Conflict => "409 in progress",
        MarkKind::TooMany => "429 too many",
        MarkKind::ServerError => "500 failed",
        MarkKind::Overloaded => "503 overloaded",
        MarkKind::TimedOut => "client timed out",
        MarkKind::Waiting => "waiting",
    }
}

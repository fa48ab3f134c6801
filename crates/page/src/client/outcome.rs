//! What the sandbox says about a reader's code, and the sentences the page says it in.
//! The sandbox's scripts (`assets/sandbox/`) name what happened and its numbers, never
//! a sentence: a [`Said`] is one such report, read here into a [`Failure`] (the run did
//! not happen), a [`Stop`] (it was cut short at a cap, and what it did until then
//! counts) or a [`CodeError`] (the code threw, and the run went on), each displayed
//! with the line it happened on.

use crate::shared::format::{count, counted};
use std::fmt;

/// One report from the sandbox, as it crossed: a kind and whichever of the fields it has.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Said {
    /// What happened (`syntax`, `watchdog`, `events-run`, …).
    pub kind: String,
    /// The browser's own message, or a sentence of the core's.
    pub message: Option<String>,
    /// The line in the reader's code, from 1.
    pub line: Option<f64>,
    /// The column, from 1.
    pub column: Option<f64>,
    /// The number the kind is about: a limit, in milliseconds or in events.
    pub n: Option<f64>,
}

/// A place in the reader's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1, if known.
    pub column: Option<u32>,
}

impl Said {
    fn place(&self) -> Option<Place> {
        let whole = |x: f64| (x >= 1.0 && x <= f64::from(u32::MAX)).then_some(x as u32);
        Some(Place {
            line: whole(self.line?)?,
            column: self.column.and_then(whole),
        })
    }

    fn number(&self) -> u64 {
        self.n
            .filter(|n| n.is_finite() && *n >= 0.0)
            .map_or(0, |n| n as u64)
    }

    fn message(&self) -> String {
        let m = self.message.as_deref().unwrap_or("").trim();
        // The browser's prefix for an error nobody caught says nothing here.
        m.strip_prefix("Uncaught ").unwrap_or(m).to_string()
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "line {}, column {c}", self.line),
            None => write!(f, "line {}", self.line),
        }
    }
}

/// Why a run did not happen: nothing of it is shown.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The code does not parse.
    Syntax {
        /// The browser's message.
        message: String,
        /// Where.
        at: Option<Place>,
    },
    /// An `import`: the sandbox has nothing to import.
    Import {
        /// Where.
        at: Option<Place>,
    },
    /// `export default`: the sandbox calls a function named `charge`.
    DefaultExport {
        /// Where.
        at: Option<Place>,
    },
    /// The code defines no `charge`.
    NoCharge,
    /// The code held the sandbox's thread past the watchdog.
    Watchdog {
        /// The watchdog's limit.
        ms: u64,
    },
    /// The run took longer on the wall clock than the sandbox gives one.
    WallLimit {
        /// The limit.
        ms: u64,
    },
    /// The run could not start or go on, in the core's words.
    Refused(String),
}

impl Failure {
    /// The failure a report names (an unknown kind is said as the message it carries).
    pub fn of(said: &Said) -> Failure {
        let at = said.place();
        match said.kind.as_str() {
            "syntax" => Failure::Syntax {
                message: said.message(),
                at,
            },
            "import" => Failure::Import { at },
            "default-export" => Failure::DefaultExport { at },
            "no-charge" => Failure::NoCharge,
            "watchdog" => Failure::Watchdog { ms: said.number() },
            "wall-limit" => Failure::WallLimit { ms: said.number() },
            _ => Failure::Refused(said.message()),
        }
    }

    /// Where in the code, if the failure has a place: the editor marks it.
    pub fn place(&self) -> Option<Place> {
        match self {
            Failure::Syntax { at, .. } | Failure::Import { at } | Failure::DefaultExport { at } => {
                *at
            }
            _ => None,
        }
    }
}

/// "on line 3, column 7: " or nothing.
fn at_text(at: &Option<Place>) -> String {
    at.map_or(String::new(), |p| format!(" on {p}"))
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Syntax { message, at } => write!(
                f,
                "The code does not parse{}: {message}. Nothing ran.",
                at_text(at)
            ),
            Failure::Import { at } => write!(
                f,
                "An import{}: the sandbox has no modules to import, so keep the client in one file.",
                at_text(at)
            ),
            Failure::DefaultExport { at } => write!(
                f,
                "A default export{}: export the client as a named function, export async function charge(id, {{ baseUrl }}).",
                at_text(at)
            ),
            Failure::NoCharge => f.write_str(
                "The code defines no function charge(id, { baseUrl }): the sandbox calls it once for each customer.",
            ),
            Failure::Watchdog { ms } => write!(
                f,
                "The code held the sandbox for {} without giving the clock back (a loop that never awaits?), so it was stopped. Nothing of the run is shown.",
                crate::shared::format::duration_ms(*ms)
            ),
            Failure::WallLimit { ms } => write!(
                f,
                "The run took {} on the wall clock, the most the sandbox gives one, so it was stopped.",
                crate::shared::format::duration_ms(*ms)
            ),
            Failure::Refused(why) => f.write_str(why),
        }
    }
}

/// Why a run was cut short: what it did until then is shown and judged.
#[derive(Clone, Debug, PartialEq)]
pub enum Stop {
    /// Too many timers and answers waiting at once.
    EventsWaiting {
        /// The cap.
        max: u64,
    },
    /// Too many events in all.
    EventsRun {
        /// The cap.
        max: u64,
    },
    /// A day of simulated time.
    Day,
    /// A call the run refused, in the core's words.
    Refused(String),
}

impl Stop {
    /// The stop a report names.
    pub fn of(said: &Said) -> Stop {
        match said.kind.as_str() {
            "events-waiting" => Stop::EventsWaiting { max: said.number() },
            "events-run" => Stop::EventsRun { max: said.number() },
            "day" => Stop::Day,
            _ => Stop::Refused(said.message()),
        }
    }
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::EventsWaiting { max } => write!(
                f,
                "The client had {} timers and answers waiting at once, the most a run keeps, so it was stopped there.",
                count(*max)
            ),
            Stop::EventsRun { max } => write!(
                f,
                "The run handled {} events (timers, answers, arrivals), the most one takes, so it was stopped there.",
                count(*max)
            ),
            Stop::Day => f.write_str(
                "The run reached a day of simulated time, the longest one lasts, so it was stopped there.",
            ),
            Stop::Refused(why) => f.write_str(why),
        }?;
        f.write_str(" What the client did until then is shown.")
    }
}

sim::named_enum! {
    /// What the code threw from, as the sandbox names it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum ErrorKind as "error kind" {
        /// A timer's callback threw.
        Exception = "exception",
        /// A customer's `charge()` rejected (or threw).
        ChargeRejected = "charge rejected",
        /// A promise rejected and nothing handled it.
        UnhandledRejection = "unhandled rejection",
    }
}

/// Something the code threw while the run went on.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeError {
    /// From where.
    pub kind: ErrorKind,
    /// Its message.
    pub message: String,
    /// Where in the code.
    pub at: Option<Place>,
    /// When, on the simulated clock.
    pub t_us: u64,
}

impl CodeError {
    /// The error a report names, thrown at `t_us` (an unknown kind reads as an exception).
    pub fn of(said: &Said, t_us: u64) -> CodeError {
        CodeError {
            kind: said.kind.parse().unwrap_or(ErrorKind::Exception),
            message: said.message(),
            at: said.place(),
            t_us,
        }
    }
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::Exception => "A timer's callback threw",
            ErrorKind::ChargeRejected => "charge() rejected",
            ErrorKind::UnhandledRejection => "A promise rejected and nothing caught it",
        };
        write!(
            f,
            "{what}{} at {}: {}",
            at_text(&self.at),
            log_clock(self.t_us),
            self.message
        )
    }
}

/// What is said of customers the code never finished.
pub fn unfinished_sentence(n: u64) -> Option<String> {
    (n > 0).then(|| {
        format!(
            "{} never finished: their charge() was still pending when nothing was left to happen (a promise that never settles?). Each counts as a charge lost.",
            crate::shared::format::capitalised(&counted(n, "customer", "customers"))
        )
    })
}

/// The simulated instant of a log line, to the microsecond: "0.285500 s".
pub fn log_clock(us: u64) -> String {
    format!("{}.{:06} s", us / 1_000_000, us % 1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(kind: &str, message: Option<&str>, line: Option<f64>, n: Option<f64>) -> Said {
        Said {
            kind: kind.into(),
            message: message.map(Into::into),
            line,
            column: line.map(|_| 13.0),
            n,
        }
    }

    #[test]
    fn each_report_gets_its_sentence_and_its_place() {
        let syntax = Failure::of(&said(
            "syntax",
            Some("Uncaught SyntaxError: Unexpected token ';'"),
            Some(2.0),
            None,
        ));
        assert_eq!(
            syntax.to_string(),
            "The code does not parse on line 2, column 13: SyntaxError: Unexpected token ';'. Nothing ran."
        );
        assert_eq!(
            syntax.place(),
            Some(Place {
                line: 2,
                column: Some(13)
            })
        );
        assert!(Failure::of(&said("watchdog", None, None, Some(3000.0)))
            .to_string()
            .contains("held the sandbox for 3.0 s"));
        assert!(Failure::of(&said("no-charge", None, None, None))
            .to_string()
            .contains("defines no function charge"));
        assert_eq!(
            Failure::of(&said("whatever", Some("the core said so."), None, None)).to_string(),
            "the core said so."
        );
        // A line that is no line is no place.
        assert_eq!(
            Failure::of(&said("import", None, Some(0.0), None)).place(),
            None
        );
        assert!(Stop::of(&said("events-run", None, None, Some(1e7)))
            .to_string()
            .starts_with("The run handled 10,000,000 events"));
        let e = CodeError::of(
            &said("charge rejected", Some("card lost"), Some(3.0), None),
            1_500,
        );
        assert_eq!(
            e.to_string(),
            "charge() rejected on line 3, column 13 at 0.001500 s: card lost"
        );
        assert_eq!(unfinished_sentence(0), None);
        assert!(unfinished_sentence(1)
            .unwrap()
            .starts_with("1 customer never finished"));
    }
}

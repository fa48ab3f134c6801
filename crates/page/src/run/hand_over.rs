//! A run passed from the run page's first module to its whole one.
//!
//! `run.html` starts with a module that holds the page down to its stage and no further
//! (`rate-limit-lab-stage`), so that its buttons answer sooner; the whole page's module
//! follows it down the line and takes the page over. A run the reader started in the
//! first goes on in the second: the same run, at the same instant, playing or paused
//! as it was (docs/sizes-and-speeds.md, "The run page's first module"). The two modules
//! share no memory, so the run crosses between them as one line of text, written and
//! read here.

use super::query::RunQuery;
use crate::Speed;
use sim::Scenario;
use std::fmt;

sim::named_enum! {
    /// Where a handed-over run stands (a page with no run hands nothing over).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Played as "hand-over state" {
        /// Playing: the whole page plays it on from the same instant.
        Running = "running",
        /// Stopped part-way.
        Paused = "paused",
        /// Finished.
        Done = "done",
    }
}

/// A run on screen, as the first module leaves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandOver {
    /// Playing, paused or done.
    pub played: Played,
    /// The run: its scenario, at its playback speed.
    pub scenario: Scenario,
    /// The playback speed.
    pub speed: Speed,
    /// The live simulation's instant.
    pub now_us: u64,
    /// The instant a finished run is shown at, if not its end.
    pub playhead_us: Option<u64>,
    /// The playhead was last moved by a step (the readout names what it landed on).
    pub stepped: bool,
    /// The playhead stands on a harmful moment, which the timeline marks.
    pub harm_shown: bool,
    /// The run already paused at its first harm (it does so once).
    pub harm_passed: bool,
}

/// The flags' letters, in the order written: stepped, harm shown, harm passed.
const FLAGS: [u8; 3] = *b"shp";

impl fmt::Display for HandOver {
    /// `state now playhead flags query`: `paused 1250000 - p ?section=charges&…`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ", self.played, self.now_us)?;
        match self.playhead_us {
            Some(t) => write!(f, "{t} ")?,
            None => f.write_str("- ")?,
        }
        let on = [self.stepped, self.harm_shown, self.harm_passed];
        let flags: String = FLAGS
            .iter()
            .zip(on)
            .filter_map(|(c, on)| on.then_some(char::from(*c)))
            .collect();
        let flags = if flags.is_empty() { "-" } else { &flags };
        // The run page's own query type, whose reader and writer both modules carry already.
        let query = RunQuery::for_run(&self.scenario, self.speed).to_query();
        write!(f, "{flags} {query}")
    }
}

impl HandOver {
    /// Reads what [`HandOver`]'s `Display` wrote, its query read by `read_query` (the
    /// site's reader, over the browser's own splitter on a page); `None` for anything
    /// else, or for a run its query cannot name whole.
    pub fn read(text: &str, read_query: impl FnOnce(&str) -> RunQuery) -> Option<Self> {
        let mut parts = text.split(' ');
        let played: Played = parts.next()?.parse().ok()?;
        let now_us = parts.next()?.parse().ok()?;
        let playhead_us = match parts.next()? {
            "-" => None,
            t => Some(t.parse().ok()?),
        };
        let flags = parts.next()?;
        // Each flag's letter, or `-` for none.
        let mut on = [false; 3];
        if flags != "-" {
            for c in flags.bytes() {
                on[FLAGS.iter().position(|&f| f == c)?] = true;
            }
        }
        let query = read_query(parts.next()?);
        if parts.next().is_some() || !query.base.problems.is_empty() {
            return None;
        }
        let [stepped, harm_shown, harm_passed] = on;
        Some(Self {
            played,
            speed: query.base.speed,
            scenario: query.base.scenario,
            now_us,
            playhead_us,
            stepped,
            harm_shown,
            harm_passed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::codec::pairs_of;

    fn read_query(q: &str) -> RunQuery {
        crate::site::keys::read(&pairs_of(q))
    }
    use sim::StrategyName;

    fn handed(played: Played, playhead_us: Option<u64>) -> HandOver {
        let mut scenario = Scenario::article(StrategyName::TimeoutNoKey, 7);
        scenario.client.timeout_us = 900_000;
        HandOver {
            played,
            scenario,
            speed: Speed::X1,
            now_us: 1_250_000,
            playhead_us,
            stepped: playhead_us.is_some(),
            harm_shown: false,
            harm_passed: true,
        }
    }

    #[test]
    fn reads_back_what_it_writes() {
        for h in [
            handed(Played::Running, None),
            handed(Played::Paused, Some(830_000)),
            handed(Played::Done, None),
            HandOver {
                harm_shown: true,
                harm_passed: false,
                ..handed(Played::Done, Some(12))
            },
        ] {
            let text = h.to_string();
            assert_eq!(
                HandOver::read(&text, read_query).as_ref(),
                Some(&h),
                "{text}"
            );
        }
    }

    #[test]
    fn writes_one_line_a_reader_could_follow() {
        let text = handed(Played::Paused, None).to_string();
        assert!(
            text.starts_with("paused 1250000 - p ?section=charges&view=run&strategy=timeout-no-key&seed=7&speed=1x"),
            "{text}"
        );
        assert!(text.contains("timeoutMs=900"), "{text}");
    }

    #[test]
    fn refuses_anything_else() {
        let good = handed(Played::Running, None).to_string();
        for bad in [
            "",
            "running",
            "walking 1 - - ?seed=1",
            "running x - - ?seed=1",
            "running 1 y - ?seed=1",
            "running 1 - q ?seed=1",
            "running 1 - - ?seed=1 more",
            "running 1 - - ?seed=nine",
            &good.replace(' ', "  "),
        ] {
            assert_eq!(HandOver::read(bad, read_query), None, "{bad}");
        }
    }
}

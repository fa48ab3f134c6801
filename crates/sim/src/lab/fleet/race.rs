//! The race for the last request, one step at a time: two instances share a counter (a
//! fixed window of [`RACE_LIMIT`] per second in a store), nine requests have been counted
//! already, and the 10th and 11th arrive a moment apart at different instances.
//!
//! Read-then-write: both instances read 9, both decide there is room, both write 10; the
//! 11th request is admitted and the counter says 10. The atomic script: the first call
//! counts the 10th, the second finds 10 and refuses the 11th. The steps are the fleet's
//! own ([`FleetRun::step`]); this module only sets the scene and keeps the tallies a
//! runner shows beside each step.

use super::engine::{sure, Arrival, FleetRun, FleetStep, StepKind};
use super::setup::{Balancer, FleetMode, FleetSetup};
use crate::limiter::{LimiterKind, Policy};
use crate::time::{ms, secs};
use serde::{Deserialize, Serialize};

/// The counter's limit.
pub const RACE_LIMIT: u32 = 10;

/// The store's round trip.
pub const RACE_RTT_US: u64 = ms(1);

/// How far apart the 10th and 11th requests arrive.
pub const RACE_GAP_US: u64 = 250;

/// When the 10th request arrives.
pub const RACE_AT_US: u64 = ms(500);

/// The caller every request comes from.
pub const RACE_CALLER: &str = "acme";

crate::named_enum! {
    /// How the two instances update the shared counter.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum RaceMode as "race mode" {
        /// Read the count, decide, write the count: two calls.
        ReadThenWrite = "read-then-write",
        /// One script in the store: count and decide in one step.
        Atomic = "atomic",
    }
}

impl RaceMode {
    /// The fleet mode it is.
    pub const fn fleet_mode(self) -> FleetMode {
        match self {
            RaceMode::ReadThenWrite => FleetMode::ReadThenWrite,
            RaceMode::Atomic => FleetMode::Atomic,
        }
    }
}

/// The race, at some step.
pub struct Race {
    run: FleetRun,
    /// The steps taken since the nine earlier requests were counted, in order.
    pub steps: Vec<FleetStep>,
    /// Requests admitted so far (the nine earlier ones included).
    pub admitted: u32,
    /// Requests refused so far.
    pub refused: u32,
    /// What the store's counter holds: the limit less the room its last call saw.
    pub counter: u32,
}

impl Race {
    /// The scene, with the nine earlier requests counted and the race about to start.
    pub fn new(mode: RaceMode) -> Self {
        let setup = FleetSetup {
            limiter: LimiterKind::Fixed,
            policy: Policy {
                limit: RACE_LIMIT,
                window_us: secs(1),
            },
            instances: 2,
            balancer: Balancer::RoundRobin,
            mode: mode.fleet_mode(),
            rtt_us: RACE_RTT_US,
        };
        let earlier = RACE_LIMIT as u64 - 1;
        // Nine requests 40 ms apart, each done long before the next; then two close ones.
        let arrivals: Vec<Arrival> = (0..earlier)
            .map(|k| ms(100) + k * ms(40))
            .chain([RACE_AT_US, RACE_AT_US + RACE_GAP_US])
            .map(|at_us| Arrival { at_us, caller: 0 })
            .collect();
        debug_assert!(ms(100) + earlier * ms(40) < RACE_AT_US);
        let run = sure(FleetRun::new(setup, vec![RACE_CALLER.into()], arrivals, 1));
        let mut race = Self {
            run,
            steps: Vec::new(),
            admitted: 0,
            refused: 0,
            counter: 0,
        };
        while race.run.next_at_us().is_some_and(|t| t < RACE_AT_US) {
            race.advance();
        }
        debug_assert_eq!(
            (race.admitted, race.counter),
            (RACE_LIMIT - 1, RACE_LIMIT - 1)
        );
        race.steps.clear();
        race
    }

    /// The scene after `n` steps of the race (fewer if it ends first).
    pub fn at(mode: RaceMode, n: usize) -> Self {
        let mut race = Self::new(mode);
        for _ in 0..n {
            if race.step().is_none() {
                break;
            }
        }
        race
    }

    /// How many steps the race takes in `mode`.
    pub fn len(mode: RaceMode) -> usize {
        let mut race = Self::new(mode);
        while race.step().is_some() {}
        race.steps.len()
    }

    fn advance(&mut self) -> Option<FleetStep> {
        let step = self.run.step()?;
        match step.admitted() {
            Some(true) => self.admitted += 1,
            Some(false) => self.refused += 1,
            None => {}
        }
        match step.kind {
            StepKind::Read { room } => self.counter = RACE_LIMIT - room.min(RACE_LIMIT),
            StepKind::Write { room } | StepKind::Script { room, .. } => {
                self.counter = RACE_LIMIT - room.min(RACE_LIMIT);
            }
            _ => {}
        }
        self.steps.push(step);
        Some(step)
    }

    /// Takes the next step; `None` once both requests are answered.
    pub fn step(&mut self) -> Option<FleetStep> {
        self.advance()
    }

    /// The request number (from 1) of `step`.
    pub fn number(step: &FleetStep) -> usize {
        step.request + 1
    }

    /// True once every request is answered.
    pub fn done(&self) -> bool {
        self.run.next_at_us().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_then_write_admits_the_eleventh_and_the_script_does_not() {
        let mut race = Race::new(RaceMode::ReadThenWrite);
        assert_eq!((race.admitted, race.counter, race.steps.len()), (9, 9, 0));
        while race.step().is_some() {}
        assert!(race.done());
        assert_eq!((race.admitted, race.refused, race.counter), (11, 0, 10));
        let kinds: Vec<(usize, StepKind)> = race
            .steps
            .iter()
            .map(|s| (Race::number(s), s.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                (10, StepKind::Read { room: 1 }),
                (11, StepKind::Read { room: 1 }),
                (10, StepKind::Decide { admitted: true }),
                (11, StepKind::Decide { admitted: true }),
                (10, StepKind::Write { room: 0 }),
                (11, StepKind::Write { room: 0 }),
            ]
        );
        assert_ne!(race.steps[0].instance, race.steps[1].instance);
        assert_eq!(Race::len(RaceMode::ReadThenWrite), 6);

        let mut race = Race::new(RaceMode::Atomic);
        assert_eq!((race.admitted, race.counter), (9, 9));
        while race.step().is_some() {}
        assert_eq!((race.admitted, race.refused, race.counter), (10, 1, 10));
        assert_eq!(Race::len(RaceMode::Atomic), 2);
        assert_eq!(
            race.steps[1].kind,
            StepKind::Script {
                admitted: false,
                room: 0
            }
        );
    }

    #[test]
    fn stepping_to_a_point_is_replaying_to_it() {
        for mode in RaceMode::ALL {
            for n in 0..=Race::len(mode) + 1 {
                let r = Race::at(mode, n);
                assert_eq!(r.steps.len(), n.min(Race::len(mode)), "{mode} {n}");
            }
        }
        let r = Race::at(RaceMode::ReadThenWrite, 2);
        assert_eq!((r.admitted, r.counter), (9, 9));
        let r = Race::at(RaceMode::ReadThenWrite, 4);
        assert_eq!(r.admitted, 11);
    }
}

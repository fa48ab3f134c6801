//! The fleet as a state machine: requests arrive, the balancer gives each to an
//! instance, and the instance decides it the way its [`FleetMode`] says. Each call to
//! [`FleetRun::step`] does one thing (a local decision, a script in the store, a read, a
//! decision on what was read, a write, a cache's answer, a hop to the owner) and returns
//! it, so a runner can show the fleet one step at a time ([`super::race`]) or run it to
//! the end ([`super::measure`]).
//!
//! Time: a read reaches the store at the request's instant, its answer is back half a
//! round trip later (the decision) and the write reaches the store a whole round trip
//! after the read. A script is one call, applied at the request's instant. A forwarded
//! request reaches its owner half a round trip after it arrived, and is decided there at
//! that instant. Every decision is made at an instant no earlier than the state it reads
//! has seen (the limiters stand still if not: docs/limiters.md).

use super::setup::{home, Balancer, FleetError, FleetMode, FleetSetup};
use crate::limiter::{Copyable, Limiter, LimiterError, Scope};
use crate::queue::EventQueue;
use crate::rng::{mix64, SimRng};
use std::collections::{BTreeMap, VecDeque};

/// A request: when it arrives and whose it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// When it reaches the balancer.
    pub at_us: u64,
    /// Its caller: an index into the run's caller names.
    pub caller: usize,
}

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The instance decided alone, on its own limiter (or as the caller's owner).
    Local {
        /// Admitted?
        admitted: bool,
    },
    /// The store decided, in one step. `room` is what it leaves the caller after.
    Script {
        /// Admitted?
        admitted: bool,
        /// Requests of cost 1 the caller could still make, after this one.
        room: u32,
    },
    /// The instance read the caller's state from the store; `room` is what that state
    /// leaves for this request and after (the request itself included).
    Read {
        /// Requests of cost 1 the state it read allows at this instant.
        room: u32,
    },
    /// The instance decided on what it read.
    Decide {
        /// Admitted?
        admitted: bool,
    },
    /// The instance wrote its copy over the store's; `room` is what the copy leaves.
    Write {
        /// Requests of cost 1 the written state allows, after this one.
        room: u32,
    },
    /// The instance's cache said the caller is over its limit; the store was not asked.
    Cached,
    /// The instance sent the request on to its owner.
    Forward {
        /// The owner.
        owner: u32,
    },
}

/// One step: when, which request, at which instance, and what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FleetStep {
    /// The instant.
    pub at_us: u64,
    /// The request (its index in the arrivals).
    pub request: usize,
    /// The instance that did it.
    pub instance: u32,
    /// What it did.
    pub kind: StepKind,
}

impl FleetStep {
    /// The decision this step made, if it made one.
    pub fn admitted(&self) -> Option<bool> {
        match self.kind {
            StepKind::Local { admitted }
            | StepKind::Script { admitted, .. }
            | StepKind::Decide { admitted } => Some(admitted),
            StepKind::Cached => Some(false),
            StepKind::Read { .. } | StepKind::Write { .. } | StepKind::Forward { .. } => None,
        }
    }
}

/// What is due next.
#[derive(Clone, Copy, Debug)]
enum Event {
    Arrive(usize),
    Decide(usize),
    Write(usize),
    AtOwner(usize),
}

/// Where each instance keeps what it holds.
enum Holding {
    /// One limiter per instance.
    Alone(Vec<Box<dyn Limiter>>),
    /// One store for all: per caller, its limiter; per instance, the callers known to be
    /// over and until when.
    Store {
        store: Vec<Box<dyn Copyable>>,
        over_until: Vec<BTreeMap<usize, u64>>,
    },
}

/// A read waiting for its decision or its write: the copy it read, decided on.
struct Pending {
    copy: Box<dyn Copyable>,
    admitted: bool,
    room: u32,
}

/// A fleet running one schedule.
pub struct FleetRun {
    setup: FleetSetup,
    callers: Vec<String>,
    arrivals: Vec<Arrival>,
    queue: EventQueue<Event>,
    /// Steps due at the instant just handled, before anything else (a read-then-write
    /// with no round trip is its three steps back to back).
    now: VecDeque<(u64, Event)>,
    holding: Holding,
    /// Per request: the instance it went to, and its read, while one is pending.
    instance_of: Vec<u32>,
    pending: Vec<Option<Pending>>,
    /// Per request: its answer, once decided.
    outcome: Vec<Option<bool>>,
    next_turn: u64,
    rng: SimRng,
    calls: u64,
}

/// What a finished run comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FleetTally {
    /// Per caller, requests admitted.
    pub admitted: Vec<u32>,
    /// Calls that left an instance: store calls (a script, a read, a write) and hops to
    /// an owner.
    pub calls: u64,
}

impl FleetRun {
    /// A fleet about to receive `arrivals` (in time order) from `callers`. `seed` draws the
    /// random balancer's choices (its own stream, apart from the schedule's).
    pub fn new(
        setup: FleetSetup,
        callers: Vec<String>,
        arrivals: Vec<Arrival>,
        seed: u64,
    ) -> Result<Self, FleetError> {
        setup.check()?;
        debug_assert!(arrivals.windows(2).all(|w| w[0].at_us <= w[1].at_us));
        debug_assert!(arrivals.iter().all(|a| a.caller < callers.len()));
        let e = FleetError::Limiter;
        let holding = if setup.mode.uses_store() {
            let mut store = Vec::new();
            for _ in &callers {
                store.push(
                    setup
                        .limiter
                        .build_copyable(setup.policy, Scope::PerKey)
                        .map_err(e)?,
                );
            }
            Holding::Store {
                store,
                over_until: vec![BTreeMap::new(); setup.instances as usize],
            }
        } else {
            let mut locals = Vec::new();
            for i in 0..setup.instances {
                locals.push(
                    setup
                        .limiter
                        .build(setup.policy_of(i), Scope::PerKey)
                        .map_err(e)?,
                );
            }
            Holding::Alone(locals)
        };
        let mut queue = EventQueue::default();
        for (i, a) in arrivals.iter().enumerate() {
            queue.push(a.at_us, Event::Arrive(i));
        }
        let n = arrivals.len();
        Ok(Self {
            setup,
            callers,
            arrivals,
            queue,
            now: VecDeque::new(),
            holding,
            instance_of: vec![0; n],
            pending: std::iter::repeat_with(|| None).take(n).collect(),
            outcome: vec![None; n],
            next_turn: 0,
            rng: SimRng::from_seed(mix64(seed ^ 0x666c_6565_7421)),
            calls: 0,
        })
    }

    /// The fleet this run is.
    pub fn setup(&self) -> &FleetSetup {
        &self.setup
    }

    /// The callers' names.
    pub fn callers(&self) -> &[String] {
        &self.callers
    }

    /// The requests, in arrival order.
    pub fn arrivals(&self) -> &[Arrival] {
        &self.arrivals
    }

    /// Request `i`'s answer, once decided.
    pub fn outcome(&self, i: usize) -> Option<bool> {
        self.outcome.get(i).copied().flatten()
    }

    /// Calls that have left an instance so far.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// When the next step is due, if any is.
    pub fn next_at_us(&self) -> Option<u64> {
        match self.now.front() {
            Some(&(at_us, _)) => Some(at_us),
            None => self.queue.peek_time_us(),
        }
    }

    /// The instance the balancer picks for request `i`.
    fn pick(&mut self, i: usize) -> u32 {
        let n = self.setup.instances;
        match self.setup.balancer {
            Balancer::RoundRobin => {
                let turn = self.next_turn;
                self.next_turn += 1;
                (turn % u64::from(n)) as u32
            }
            Balancer::Random => self.rng.below(u64::from(n)) as u32,
            Balancer::Hash => home(&self.callers[self.arrivals[i].caller], n),
        }
    }

    /// The next step, or `None` once every request is answered.
    pub fn step(&mut self) -> Option<FleetStep> {
        let (at_us, event) = match self.now.pop_front() {
            Some(due) => due,
            None => self.queue.pop()?,
        };
        let step = self.handle(at_us, event);
        debug_assert!(
            step.admitted().is_none() || self.outcome[step.request] == step.admitted(),
            "a step's decision is the request's outcome"
        );
        Some(step)
    }

    /// Schedules `event` `after_us` from `at_us`: at once, before anything else, when
    /// there is no wait.
    fn later(&mut self, at_us: u64, after_us: u64, event: Event) {
        if after_us == 0 {
            self.now.push_back((at_us, event));
        } else {
            self.queue.push(at_us + after_us, event);
        }
    }

    fn decided(&mut self, i: usize, admitted: bool) {
        debug_assert!(self.outcome[i].is_none(), "request {i} decided twice");
        self.outcome[i] = Some(admitted);
    }

    fn handle(&mut self, at_us: u64, event: Event) -> FleetStep {
        let rtt_us = self.setup.rtt_us;
        let (request, kind) = match event {
            Event::Arrive(i) => {
                let instance = self.pick(i);
                self.instance_of[i] = instance;
                (i, self.arrive(i, at_us, instance))
            }
            Event::AtOwner(i) => {
                let owner = home(&self.callers[self.arrivals[i].caller], self.setup.instances);
                self.instance_of[i] = owner;
                let admitted = self.decide_alone(owner as usize, at_us, i);
                self.decided(i, admitted);
                (i, StepKind::Local { admitted })
            }
            Event::Decide(i) => {
                let admitted = self.pending[i].as_ref().is_some_and(|p| p.admitted);
                debug_assert!(self.pending[i].is_some(), "a decision follows its read");
                self.decided(i, admitted);
                if admitted {
                    self.calls += 1;
                    self.later(at_us, rtt_us - rtt_us / 2, Event::Write(i));
                } else {
                    // A refused request changes nothing: its copy is dropped unwritten.
                    self.pending[i] = None;
                }
                (i, StepKind::Decide { admitted })
            }
            Event::Write(i) => {
                let p = self.pending[i].take();
                debug_assert!(p.is_some(), "a write follows its decision");
                let caller = self.arrivals[i].caller;
                let room = match (p, &mut self.holding) {
                    (Some(p), Holding::Store { store, .. }) => {
                        store[caller] = p.copy;
                        p.room
                    }
                    _ => 0,
                };
                (i, StepKind::Write { room })
            }
        };
        FleetStep {
            at_us,
            request,
            instance: self.instance_of[request],
            kind,
        }
    }

    /// Request `i` decided by instance `at`'s own limiter at `now_us`.
    fn decide_alone(&mut self, at: usize, now_us: u64, i: usize) -> bool {
        let key = &self.callers[self.arrivals[i].caller];
        match &mut self.holding {
            Holding::Alone(locals) => allowed(locals[at].check(now_us, key, 1)),
            Holding::Store { .. } => unreachable!("only local modes decide alone"),
        }
    }

    fn arrive(&mut self, i: usize, at_us: u64, instance: u32) -> StepKind {
        let caller = self.arrivals[i].caller;
        let rtt_us = self.setup.rtt_us;
        match self.setup.mode {
            FleetMode::Local | FleetMode::Share => {
                let admitted = self.decide_alone(instance as usize, at_us, i);
                self.decided(i, admitted);
                StepKind::Local { admitted }
            }
            FleetMode::Owner => {
                let owner = home(&self.callers[caller], self.setup.instances);
                if owner == instance {
                    let admitted = self.decide_alone(instance as usize, at_us, i);
                    self.decided(i, admitted);
                    StepKind::Local { admitted }
                } else {
                    self.calls += 1;
                    self.later(at_us, rtt_us / 2, Event::AtOwner(i));
                    StepKind::Forward { owner }
                }
            }
            FleetMode::Atomic | FleetMode::Cache => {
                let cache = self.setup.mode == FleetMode::Cache;
                let Holding::Store { store, over_until } = &mut self.holding else {
                    unreachable!("store modes hold a store")
                };
                let known = &mut over_until[instance as usize];
                if cache && known.get(&caller).is_some_and(|&until| at_us < until) {
                    self.decided(i, false);
                    return StepKind::Cached;
                }
                let key = &self.callers[caller];
                let d = sure(store[caller].limiter().check(at_us, key, 1));
                self.calls += 1;
                if cache && !d.allowed {
                    // Kept out until the limit would let it in again, if nothing else came.
                    known.insert(caller, at_us + d.retry_after_us);
                }
                self.decided(i, d.allowed);
                StepKind::Script {
                    admitted: d.allowed,
                    room: d.remaining,
                }
            }
            FleetMode::ReadThenWrite => {
                let Holding::Store { store, .. } = &mut self.holding else {
                    unreachable!("store modes hold a store")
                };
                let key = &self.callers[caller];
                let mut copy = store[caller].copied();
                let d = sure(copy.limiter().check(at_us, key, 1));
                self.calls += 1;
                self.pending[i] = Some(Pending {
                    copy,
                    admitted: d.allowed,
                    room: d.remaining,
                });
                self.later(at_us, rtt_us / 2, Event::Decide(i));
                StepKind::Read {
                    room: d.remaining + u32::from(d.allowed),
                }
            }
        }
    }

    /// Runs to the end.
    pub fn finish(mut self) -> FleetTally {
        while self.step().is_some() {}
        let mut admitted = vec![0; self.callers.len()];
        for (a, o) in self.arrivals.iter().zip(&self.outcome) {
            debug_assert!(o.is_some(), "every request is answered");
            admitted[a.caller] += u32::from(*o == Some(true));
        }
        debug_assert!(
            self.pending.iter().all(Option::is_none),
            "every read is written or dropped"
        );
        FleetTally {
            admitted,
            calls: self.calls,
        }
    }
}

/// True if `d` admitted.
fn allowed(d: Result<crate::limiter::Decision, LimiterError>) -> bool {
    sure(d).allowed
}

/// The value of a limiter's answer to a request of cost 1, which every limit fits (the
/// policy's limit is at least 1, checked when the fleet was built). Without formatting
/// the error: its `Debug` would cost each browser module that runs a fleet.
pub(crate) fn sure<T, E>(r: Result<T, E>) -> T {
    match r {
        Ok(v) => v,
        Err(_) => unreachable!("a checked fleet's limiter refused a request of cost 1"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::ARTICLE_POLICY;
    use crate::limiter::LimiterKind;
    use crate::time::ms;

    fn fleet(mode: FleetMode, instances: u32, rtt_us: u64) -> FleetSetup {
        FleetSetup {
            limiter: LimiterKind::Fixed,
            policy: ARTICLE_POLICY,
            instances,
            balancer: Balancer::RoundRobin,
            mode,
            rtt_us,
        }
    }

    /// `n` requests from one caller, `gap_us` apart.
    fn steady(n: usize, gap_us: u64) -> Vec<Arrival> {
        (0..n)
            .map(|i| Arrival {
                at_us: i as u64 * gap_us,
                caller: 0,
            })
            .collect()
    }

    fn admitted(setup: FleetSetup, arrivals: Vec<Arrival>) -> FleetTally {
        FleetRun::new(setup, vec!["a".into()], arrivals, 1)
            .unwrap()
            .finish()
    }

    #[test]
    fn each_mode_takes_its_steps_and_its_calls() {
        let a = || steady(20, 100);
        let t = admitted(fleet(FleetMode::Local, 4, 1_000), a());
        assert_eq!((t.admitted[0], t.calls), (20, 0));
        let t = admitted(fleet(FleetMode::Share, 4, 1_000), a());
        assert_eq!((t.admitted[0], t.calls), (10, 0));
        let t = admitted(fleet(FleetMode::Atomic, 4, 1_000), a());
        assert_eq!((t.admitted[0], t.calls), (10, 20));
        // Ten refused by the store once each, then answered from each instance's cache
        // until the window ends: four instances each asked once.
        let t = admitted(fleet(FleetMode::Cache, 4, 1_000), a());
        assert_eq!((t.admitted[0], t.calls), (10, 14));
        // Reads 100 µs apart, writes 1 ms after: every read sees an old count.
        let t = admitted(fleet(FleetMode::ReadThenWrite, 4, 1_000), a());
        assert!(t.admitted[0] > 10, "{t:?}");
        let t = admitted(fleet(FleetMode::ReadThenWrite, 4, 0), a());
        assert_eq!((t.admitted[0], t.calls), (10, 30));
        let t = admitted(fleet(FleetMode::Owner, 4, 1_000), a());
        assert_eq!((t.admitted[0], t.calls), (10, 15));
    }

    #[test]
    fn a_stepped_run_says_what_each_step_did() {
        let mut run = FleetRun::new(
            fleet(FleetMode::ReadThenWrite, 2, ms(1)),
            vec!["a".into()],
            steady(2, 100),
            1,
        )
        .unwrap();
        let kinds: Vec<(u64, u32, StepKind)> = std::iter::from_fn(|| run.step())
            .map(|s| (s.at_us, s.instance, s.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                (0, 0, StepKind::Read { room: 10 }),
                (100, 1, StepKind::Read { room: 10 }),
                (500, 0, StepKind::Decide { admitted: true }),
                (600, 1, StepKind::Decide { admitted: true }),
                (1_000, 0, StepKind::Write { room: 9 }),
                (1_100, 1, StepKind::Write { room: 9 }),
            ]
        );
    }
}

//! `use_playback`: runs a simulation against the wall clock, one batch per animation
//! frame (on [`use_animation_frame`]), and publishes one snapshot per frame. The owner's
//! cleanup stops the loop.

use crate::shared::bridge;
use crate::shared::read::Read;
use crate::shared::use_animation_frame::{
    now_ms, use_animation_frame, First, FrameLoop, Next, FRAME_BUDGET_MS,
};
use leptos::prelude::*;
use page::run::hand_over::{HandOver, Played};
use page::run::timeline::pause_instant_us;
use page::run::whole::{in_worker, needs_worker, no_worker_line, starting_snapshot};
use page::shared::words::Words;
use page::Speed;
use sim::moments::{
    fates_at, harm_moments, next_after, previous_before, snapshot_at, step_times, HarmMoment,
};
use sim::world::Fate;
use sim::{Scenario, Simulation, Snapshot};
use std::rc::Rc;

/// Where a run is, as shown on the root element's `data-run-state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayState {
    /// Nothing has run yet (or the run was reset).
    Idle,
    /// Playing.
    Running,
    /// Stopped part-way; resume continues from the same instant.
    Paused,
    /// Finished: the final numbers are on screen.
    Done,
}

impl PlayState {
    /// The value of `data-run-state`.
    pub fn as_str(self) -> &'static str {
        match self {
            PlayState::Idle => "idle",
            PlayState::Running => "running",
            PlayState::Paused => "paused",
            PlayState::Done => "done",
        }
    }
}

/// What hands a large instant run to a simulation worker ([`in_worker`]): set by the run
/// page ([`Playback::hand_off_with`]); a widget leaves it out, and its module carries none
/// of it.
pub trait HandOff {
    /// Starts `scenario` in a worker for `playback` (which it puts on screen, running,
    /// with [`Playback::begin_offloaded`]); false if no worker can start here.
    fn start(&self, playback: Playback, scenario: &Scenario) -> bool;
    /// Stops the run in the worker, if there is one.
    fn stop(&self);
    /// Cancels the run on screen in the worker, and says how far it got.
    fn cancel(&self, playback: Playback);
}

/// Events between checks of the wall clock in an instant run.
const INSTANT_BATCH_EVENTS: u64 = 2_000;

/// The anchor that maps wall time to simulated time while playing. It is set by the
/// first frame after a start or a resume, not by the click: mounting a page can take a
/// while, and that time must not count as playback.
#[derive(Clone, Copy, Debug, Default)]
struct Anchor {
    wall_ms: f64,
    sim_us: u64,
}

/// Handle to the playback: copyable, so components can share it.
#[derive(Clone, Copy)]
pub struct Playback {
    /// Where the run is.
    state: RwSignal<PlayState>,
    /// The latest snapshot, published at most once per frame.
    snapshot: RwSignal<Option<Snapshot>>,
    /// The scenario on screen.
    scenario: RwSignal<Option<Scenario>>,
    /// The playback speed.
    speed: RwSignal<Speed>,
    /// When the run on screen will finish, learned from a quick unrecorded run of the
    /// same scenario, so a timeline's axis can be fixed from the start.
    end_us: RwSignal<Option<u64>>,
    /// The instant a finished run is shown at (`None`: its end), derived from its record.
    playhead: RwSignal<Option<u64>>,
    /// The harmful moment the playhead was last stepped to, while it stays there.
    harm: RwSignal<Option<HarmMoment>>,
    /// True if the playhead was last moved by a step (a key or a step button), so the
    /// readout names what it landed on; a drag of the slider names nothing.
    stepped: RwSignal<bool>,
    /// Pause a playing run at the instant of its first harm ("pause at the first harm").
    stop_at_harm: RwSignal<bool>,
    /// The run's first harm while playback has not yet stopped at it: `None` until
    /// looked up, `Some(None)` once stopped there or if there is none.
    first_harm: StoredValue<Option<Option<HarmMoment>>>,
    /// What plays a held run on from its playhead and pauses at the first harm: set by
    /// the run page ([`Playback::hold_frames`]); a widget, which never holds a run, leaves
    /// it out, and its module carries none of it.
    holding: StoredValue<Option<HoldFrame>>,
    /// What runs large instant runs in a worker, if this page has one.
    hand_off: StoredValue<Option<Rc<dyn HandOff>>, LocalStorage>,
    /// True while the run on screen runs in a worker: the page has no `Simulation` of it.
    offloaded: RwSignal<bool>,
    /// The first customers' fates of a run computed in a worker, as the grid draws them.
    far_fates: StoredValue<Vec<Fate>>,
    /// A sentence about the run on screen, when there is one to say: a run in a worker
    /// cancelled, or one a worker could not finish.
    note: RwSignal<Option<String>>,
    sim: StoredValue<Option<Simulation>>,
    anchor: StoredValue<Option<Anchor>>,
    /// The frame loop that plays the run.
    frames: FrameLoop,
}

/// One frame of a held run, or of a run to pause at its first harm: given the playhead
/// (a replay) and the simulated instant this frame reaches (`None`: instant), the frame's
/// outcome, or `None` to play the live run as usual.
type HoldFrame = fn(Playback, Option<u64>, Option<u64>) -> Option<Next>;

/// Creates the playback for the current component; its loop stops on cleanup.
pub fn use_playback(speed: Speed) -> Playback {
    Playback {
        state: RwSignal::new(PlayState::Idle),
        snapshot: RwSignal::new(None),
        scenario: RwSignal::new(None),
        speed: RwSignal::new(speed),
        end_us: RwSignal::new(None),
        playhead: RwSignal::new(None),
        harm: RwSignal::new(None),
        stepped: RwSignal::new(false),
        stop_at_harm: RwSignal::new(false),
        first_harm: StoredValue::new(None),
        holding: StoredValue::new(None),
        hand_off: StoredValue::new_local(None),
        offloaded: RwSignal::new(false),
        far_fates: StoredValue::new(Vec::new()),
        note: RwSignal::new(None),
        sim: StoredValue::new(None),
        anchor: StoredValue::new(None),
        frames: use_animation_frame(),
    }
}

impl Playback {
    /// Where the run is.
    pub fn state(&self) -> Read<PlayState> {
        Read::of(self.state)
    }

    /// The latest snapshot, published at most once per frame.
    pub fn snapshot(&self) -> Read<Option<Snapshot>> {
        Read::of(self.snapshot)
    }

    /// The scenario on screen.
    pub fn scenario(&self) -> Read<Option<Scenario>> {
        Read::of(self.scenario)
    }

    /// The playback speed ([`Playback::set_speed`] changes it).
    pub fn speed(&self) -> Read<Speed> {
        Read::of(self.speed)
    }

    /// When the run on screen will finish, once known.
    pub fn end_us(&self) -> Read<Option<u64>> {
        Read::of(self.end_us)
    }

    /// The instant a finished run is shown at (`None`: its end).
    pub fn playhead(&self) -> Read<Option<u64>> {
        Read::of(self.playhead)
    }

    /// The harmful moment the playhead was last stepped to, while it stays there.
    pub fn harm(&self) -> Read<Option<HarmMoment>> {
        Read::of(self.harm)
    }

    /// True if the playhead was last moved by a step.
    pub fn stepped(&self) -> Read<bool> {
        Read::of(self.stepped)
    }

    /// Whether a playing run pauses at its first harm.
    pub fn stop_at_harm(&self) -> Read<bool> {
        Read::of(self.stop_at_harm)
    }

    /// Sets whether a playing run pauses at its first harm.
    pub fn pause_at_harm(&self, pause: bool) {
        self.stop_at_harm.set(pause);
    }

    /// Points at `harm` (a harmful moment of the run on screen) without moving the
    /// playhead: the timeline marks it.
    pub fn point_at(&self, harm: Option<HarmMoment>) {
        self.harm.set(harm);
    }

    /// True while the run on screen runs in a worker.
    pub fn offloaded(&self) -> Read<bool> {
        Read::of(self.offloaded)
    }

    /// The sentence about the run on screen, if there is one.
    pub fn note(&self) -> Read<Option<String>> {
        Read::of(self.note)
    }

    /// Says `sentence` about the run on screen (a cancelled run, a worker that failed).
    pub fn say(&self, sentence: String) {
        self.note.set(Some(sentence));
    }

    /// Starts `scenario` from the beginning. Returns the scenario's problem, if any.
    pub fn start(&self, scenario: Scenario) -> Result<(), String> {
        scenario.validate().map_err(|e| e.sentence())?;
        self.stop_offloaded();
        self.note.set(None);
        self.far_fates.set_value(Vec::new());
        if in_worker(scenario.customers, self.speed.get_untracked()) {
            if self.offload(&scenario) {
                return Ok(());
            }
            if needs_worker(scenario.customers) {
                return Err(no_worker_line());
            }
        }
        let sim = Simulation::new(&scenario).map_err(|e| e.sentence())?;
        self.frames.stop();
        self.playhead.set(None);
        self.harm.set(None);
        self.first_harm.set_value(None);
        self.end_us.set(self.foresee_end_us(&scenario));
        self.sim.set_value(Some(sim));
        self.scenario.set(Some(scenario));
        self.snapshot.set(
            self.sim
                .with_value(|s| s.as_ref().map(Simulation::snapshot)),
        );
        self.anchor.set_value(None);
        self.state.set(PlayState::Running);
        let first = if self.speed.get_untracked() == Speed::Instant {
            // Small runs finish before the page even paints.
            First::Now
        } else {
            // A watched run starts with the first frame, so the page's own start-up time
            // is not played back as simulated time.
            First::NextFrame
        };
        let p = *self;
        self.frames.start(first, move || p.frame());
        Ok(())
    }

    /// Lets this playback hand large instant runs to a simulation worker.
    pub fn hand_off_with(&self, hand_off: Rc<dyn HandOff>) {
        self.hand_off.set_value(Some(hand_off));
    }

    /// Hands `scenario` to a worker, if this page can.
    fn offload(&self, scenario: &Scenario) -> bool {
        self.hand_off
            .get_value()
            .is_some_and(|hand_off| hand_off.start(*self, scenario))
    }

    /// Puts a run handed to a worker on screen, running: it has no `Simulation` here,
    /// only the snapshot the worker's progress and answer write.
    pub fn begin_offloaded(&self, scenario: &Scenario) {
        self.reset();
        self.scenario.set(Some(scenario.clone()));
        self.snapshot
            .set(Some(starting_snapshot(scenario.customers)));
        self.offloaded.set(true);
        self.state.set(PlayState::Running);
    }

    /// Takes a worker's progress: `done` customers finished, its clock at `now_us`.
    pub fn offloaded_progress(&self, done: u64, now_us: u64) {
        self.snapshot.update(|s| {
            if let Some(s) = s.as_mut() {
                s.customers_done = done;
                s.now_us = now_us;
            }
        });
    }

    /// Takes a worker's final answer: the run is done.
    pub fn finish_offloaded(&self, snapshot: Snapshot, fates: Vec<Fate>) {
        self.offloaded.set(false);
        self.far_fates.set_value(fates);
        self.snapshot.set(Some(snapshot));
        self.finish();
    }

    /// Stops a run in a worker, if one is on screen.
    fn stop_offloaded(&self) {
        if self.offloaded.get_untracked() {
            if let Some(hand_off) = self.hand_off.get_value() {
                hand_off.stop();
            }
            self.offloaded.set(false);
        }
    }

    /// Plays the run on from `t_us`, as if it had been watched until then: what happened
    /// before is the same run, computed at once (a run started with an incident at the
    /// moment a button was pressed).
    pub fn advance_to(&self, t_us: u64) {
        let snapshot = self.sim.try_update_value(|slot| {
            let sim = slot.as_mut()?;
            sim.run_until(t_us);
            Some(sim.snapshot())
        });
        if let Some(Some(snapshot)) = snapshot {
            self.anchor.set_value(None);
            self.snapshot.set(Some(snapshot));
        }
    }

    /// The run on screen as the run page's first module hands it to the whole page's
    /// (`page::run::hand_over`), its frames stopped; `None` with no run on screen.
    pub fn hand_over(&self) -> Option<HandOver> {
        let played = match self.state.get_untracked() {
            PlayState::Idle => return None,
            PlayState::Running => Played::Running,
            PlayState::Paused => Played::Paused,
            PlayState::Done => Played::Done,
        };
        self.frames.stop();
        Some(HandOver {
            played,
            scenario: self.scenario.get_untracked()?,
            speed: self.speed.get_untracked(),
            now_us: self.with_sim(Simulation::now_us)?,
            playhead_us: self.playhead.get_untracked(),
            stepped: self.stepped.get_untracked(),
            harm_shown: self.harm.with_untracked(Option::is_some),
            harm_passed: self.first_harm.get_value() == Some(None),
        })
    }

    /// Takes over a run handed over ([`Playback::hand_over`]): the same run, computed
    /// again to the same instant (deterministic, so it is the same run), shown where it
    /// was shown and playing or not as it was.
    pub fn take_over(&self, h: &HandOver) -> Result<(), String> {
        self.speed.set(h.speed);
        self.start(h.scenario.clone())?;
        self.advance_to(h.now_us);
        if h.harm_passed {
            self.first_harm.set_value(Some(None));
        }
        if h.played == Played::Running {
            return Ok(());
        }
        self.halt();
        if h.played == Played::Done || h.playhead_us.is_some() {
            // Finished there already: run on to the end, then shown at the playhead.
            self.hold();
            self.seek(h.playhead_us);
            if h.played == Played::Done && self.state.get_untracked() != PlayState::Done {
                self.finish();
            }
        }
        let harm = self.with_sim(|sim| {
            let (record, at) = (sim.record()?, self.playhead.get_untracked()?);
            harm_moments(record, sim.scenario().customers)
                .into_iter()
                .find(|m| m.at_us == at)
        });
        self.harm.set(harm.flatten().filter(|_| h.harm_shown));
        self.stepped.set(h.stepped);
        Ok(())
    }

    /// Reads the simulation on screen, if any.
    pub fn with_sim<R>(&self, f: impl FnOnce(&Simulation) -> R) -> Option<R> {
        self.sim.with_value(|s| s.as_ref().map(f))
    }

    /// The end time of a watched run, from an unrecorded run of the same scenario (about
    /// a millisecond for the article's thousand customers). Instant runs and very large
    /// ones skip it: their axis simply follows the run.
    fn foresee_end_us(&self, scenario: &Scenario) -> Option<u64> {
        const FORESEE_MAX_CUSTOMERS: u32 = 100_000;
        if self.speed.get_untracked() == Speed::Instant
            || scenario.customers > FORESEE_MAX_CUSTOMERS
        {
            return None;
        }
        let mut shadow = Simulation::new(&Scenario {
            record: false,
            ..scenario.clone()
        })
        .ok()?;
        shadow.run_to_end();
        Some(shadow.now_us())
    }

    /// Stops where it is, on the next whole simulated millisecond ([`pause_instant_us`]),
    /// the unit of the clock and of `ratelab charges --until-ms`, unless the first harm
    /// it is to stop at comes sooner; a run in a worker, which cannot pause, is
    /// cancelled, and the page says how far it got.
    pub fn pause(&self) {
        if self.halt() {
            self.settle();
        }
    }

    /// Stops the frames of a playing run (a run in a worker is cancelled). True if a run
    /// on the page's thread was playing.
    fn halt(&self) -> bool {
        if self.offloaded.get_untracked() {
            if let Some(hand_off) = self.hand_off.get_value() {
                hand_off.cancel(*self);
            }
            return false;
        }
        let running = self.state.get_untracked() == PlayState::Running;
        if running {
            self.frames.stop();
            self.state.set(PlayState::Paused);
        }
        running
    }

    /// Moves a run just paused on to the instant a pause lands on: the live run itself,
    /// or, on a page that holds runs ([`Playback::hold_frames`]), the playhead of a
    /// replay, through one more frame to that instant (which stops at the first harm
    /// instead if it comes sooner).
    fn settle(&self) {
        let Some(from_us) = self.shown_us() else {
            return;
        };
        let to_us = pause_instant_us(from_us);
        if to_us == from_us {
            return;
        }
        let replay = self.playhead.get_untracked();
        let held = self
            .holding
            .get_value()
            .and_then(|f| f(*self, replay, Some(to_us)));
        if held.is_some() || replay.is_some() {
            return;
        }
        let snapshot = self.sim.try_update_value(|slot| {
            let sim = slot.as_mut()?;
            sim.run_until(to_us);
            Some(sim.snapshot())
        });
        if let Some(Some(snapshot)) = snapshot {
            let finished = snapshot.finished;
            self.snapshot.set(Some(snapshot));
            if finished {
                self.finish();
            }
        }
    }

    /// Continues from where it paused: the live run, or a held one from its playhead.
    pub fn resume(&self) {
        if self.state.get_untracked() == PlayState::Paused {
            self.play_on();
        }
    }

    /// Plays a finished run on from its playhead (a run at its end is run again by the
    /// caller). False if the playhead is at the end.
    pub fn play_from_playhead(&self) -> bool {
        if self.playhead.get_untracked().is_none() {
            return false;
        }
        self.play_on();
        true
    }

    fn play_on(&self) {
        self.reanchor();
        self.harm.set(None);
        self.stepped.set(false);
        self.state.set(PlayState::Running);
        let p = *self;
        self.frames.start(First::Now, move || p.frame());
    }

    /// Stops a run where it is, to be stepped both ways: a playing run pauses, and the
    /// rest of the same run is computed at once (deterministic, so it is the run that
    /// would have played), its record then telling every instant, the one on screen
    /// included (`moments::snapshot_at` equals the live snapshot then). False if there
    /// is no run, or no record to step through.
    pub fn hold(&self) -> bool {
        self.halt();
        let held = self.sim.try_update_value(|slot| {
            let sim = slot.as_mut()?;
            sim.record()?;
            let t = sim.now_us();
            let live = !sim.is_finished();
            if live {
                sim.run_to_end();
            }
            Some(live.then_some(t))
        });
        match held.flatten() {
            None => false,
            Some(None) => true,
            Some(Some(t)) => {
                // The snapshot on screen is the live one at `t` already.
                self.playhead.set(Some(t));
                true
            }
        }
    }

    /// The simulated instant on screen: the playhead's, or the run's own.
    pub fn shown_us(&self) -> Option<u64> {
        let at = self.playhead.get_untracked();
        self.with_sim(|sim| at.unwrap_or(sim.now_us()))
    }

    /// Back to nothing.
    pub fn reset(&self) {
        self.stop_offloaded();
        self.far_fates.set_value(Vec::new());
        self.note.set(None);
        self.frames.stop();
        self.sim.set_value(None);
        self.snapshot.set(None);
        self.scenario.set(None);
        self.end_us.set(None);
        self.playhead.set(None);
        self.harm.set(None);
        self.stepped.set(false);
        self.state.set(PlayState::Idle);
    }

    /// Shows a finished, recorded run as it stood at `t_us` (the end if `None` or past
    /// it): the snapshot is derived from the record, not run again. A replay stops
    /// there; a paused run brought to its end is done.
    pub fn seek(&self, t_us: Option<u64>) {
        self.halt();
        let snapshot = self.with_sim(|sim| {
            if !sim.is_finished() {
                return None;
            }
            let end_us = sim.now_us();
            let t = t_us.filter(|&t| t < end_us);
            let record = sim.record()?;
            Some((
                t,
                t.map_or_else(
                    || sim.snapshot(),
                    |t| {
                        let s = sim.scenario();
                        snapshot_at(record, sim.arrivals(), &s.provider.incident, t)
                    },
                ),
            ))
        });
        if let Some(Some((t, snapshot))) = snapshot {
            self.harm.set(None);
            self.stepped.set(false);
            self.playhead.set(t);
            self.snapshot.set(Some(snapshot));
            if t.is_none() && self.state.get_untracked() == PlayState::Paused {
                self.finish();
            }
        }
    }

    /// Moves the playhead to the previous or next request (`harm`: harmful moment),
    /// starting at the end going back. A playing run pauses first, and a paused one is
    /// held ([`Playback::hold`]), so stepping works from any pause. False if there is
    /// nothing to step to.
    pub fn step(&self, harm: bool, forward: bool) -> bool {
        if !self.hold() {
            return false;
        }
        let target = self.with_sim(|sim| {
            let record = sim.record()?;
            let now = self.playhead.get_untracked().unwrap_or(sim.now_us());
            let pick = |times: Vec<u64>| {
                if forward {
                    next_after(times, now)
                } else {
                    previous_before(times, now)
                }
            };
            if !harm {
                return pick(step_times(record)).map(|t| (t, None));
            }
            let moments = harm_moments(record, sim.scenario().customers);
            let t = pick(moments.iter().map(|m| m.at_us).collect())?;
            Some((t, moments.into_iter().find(|m| m.at_us == t)))
        });
        let Some(Some((t, moment))) = target else {
            return false;
        };
        self.seek(Some(t));
        self.harm.set(moment);
        self.stepped.set(true);
        true
    }

    /// Every customer's fate now, or at the playhead (of a run computed in a worker, the
    /// first customers', as the grid draws them).
    pub fn fates(&self) -> Vec<Fate> {
        let at = self.playhead.get_untracked();
        self.with_sim(|sim| match (at, sim.record()) {
            (Some(t), Some(record)) => fates_at(record, sim.scenario().customers, t),
            _ => sim.fates(),
        })
        .unwrap_or_else(|| self.far_fates.get_value())
    }

    /// Changes speed, mid-run if need be, without a jump in simulated time.
    pub fn set_speed(&self, speed: Speed) {
        self.reanchor();
        self.speed.set(speed);
    }

    /// Forgets the anchor; the next frame sets a new one from where the run is.
    fn reanchor(&self) {
        self.anchor.set_value(None);
    }

    /// Advances the simulation for this frame, publishes one snapshot, and asks for the
    /// next frame unless the run finished.
    fn frame(self) -> Next {
        if self.state.get_untracked() != PlayState::Running {
            return Next::Stop;
        }
        let speed = self.speed.get_untracked();
        let start_ms = now_ms();
        let replay = self.playhead.get_untracked();
        if self.anchor.with_value(Option::is_none) {
            let sim_us = replay.unwrap_or_else(|| {
                self.sim
                    .with_value(|s| s.as_ref().map_or(0, Simulation::now_us))
            });
            self.anchor.set_value(Some(Anchor {
                wall_ms: start_ms,
                sim_us,
            }));
        }
        let anchor = self.anchor.get_value().unwrap_or_default();
        let target_us = speed
            .sim_us_per_wall_ms()
            .map(|rate| anchor.sim_us + ((start_ms - anchor.wall_ms).max(0.0) * rate) as u64);
        if let Some(next) = self
            .holding
            .get_value()
            .and_then(|f| f(self, replay, target_us))
        {
            return next;
        }
        let snapshot = self.sim.try_update_value(|slot| {
            let sim = slot.as_mut()?;
            match target_us {
                None => {
                    while !sim.is_finished() && now_ms() - start_ms < FRAME_BUDGET_MS {
                        sim.run_events(INSTANT_BATCH_EVENTS);
                    }
                }
                Some(target_us) => sim.run_until(target_us),
            }
            Some(sim.snapshot())
        });
        let Some(Some(snapshot)) = snapshot else {
            return Next::Stop;
        };
        let finished = snapshot.finished;
        self.snapshot.set(Some(snapshot));
        if finished {
            self.finish();
            return Next::Stop;
        }
        Next::Frame
    }

    /// Lets this playback hold a run: play it on from its playhead, and pause at the
    /// first harm ([`HoldFrame`]).
    pub fn hold_frames(&self) {
        self.holding.set_value(Some(Self::hold_frame));
    }

    /// The run page's [`HoldFrame`]: a replay from the playhead, or a stop at the first
    /// harm if this frame would pass its instant (the run goes no further).
    fn hold_frame(self, replay: Option<u64>, target_us: Option<u64>) -> Option<Next> {
        if let Some(from_us) = replay {
            return Some(self.replay_frame(from_us, target_us.unwrap_or(u64::MAX)));
        }
        let h = self.first_harm_to_stop_at()?;
        (target_us? >= h.at_us).then(|| self.stop_at(h))
    }

    /// One frame of a finished run played on from its playhead: the playhead moves, and
    /// the snapshot is cut from the record.
    fn replay_frame(self, from_us: u64, target_us: u64) -> Next {
        if let Some(h) = self
            .first_harm_to_stop_at()
            .filter(|h| h.at_us > from_us && h.at_us <= target_us)
        {
            return self.stop_at(h);
        }
        let end_us = self.with_sim(Simulation::now_us).unwrap_or(0);
        if target_us >= end_us {
            // Paused by the seek, then done at the end.
            self.seek(None);
            return Next::Stop;
        }
        let snapshot = self.with_sim(|sim| {
            let s = sim.scenario();
            sim.record()
                .map(|r| snapshot_at(r, sim.arrivals(), &s.provider.incident, target_us))
        });
        let Some(Some(snapshot)) = snapshot else {
            return Next::Stop;
        };
        self.playhead.set(Some(target_us));
        self.snapshot.set(Some(snapshot));
        Next::Frame
    }

    /// The run's first harm, if playback is to pause there and has not yet: looked up
    /// once per run, from the record of the finished run or, while it plays, of a quick
    /// recorded run of the same scenario (deterministic: the same run).
    fn first_harm_to_stop_at(&self) -> Option<HarmMoment> {
        if !self.stop_at_harm.get_untracked() {
            return None;
        }
        if let Some(found) = self.first_harm.get_value() {
            return found;
        }
        let found = self
            .with_sim(|sim| {
                let first = |record: &[sim::record::RequestRecord]| {
                    harm_moments(record, sim.scenario().customers)
                        .first()
                        .copied()
                };
                if sim.is_finished() {
                    return sim.record().and_then(first);
                }
                if !sim.scenario().record {
                    return None;
                }
                let mut shadow = Simulation::new(sim.scenario()).ok()?;
                shadow.run_to_end();
                shadow.record().and_then(first)
            })
            .flatten();
        self.first_harm.set_value(Some(found));
        found
    }

    /// Pauses at the harm `h`, held there with the harm pointed at (once per run).
    fn stop_at(self, h: HarmMoment) -> Next {
        self.first_harm.set_value(Some(None));
        self.frames.stop();
        self.state.set(PlayState::Paused);
        if self.hold() {
            self.seek(Some(h.at_us));
            self.harm.set(Some(h));
            self.stepped.set(true);
        }
        Next::Stop
    }

    /// The run is over: done, and its numbers published for the page's readers.
    fn finish(&self) {
        self.state.set(PlayState::Done);
        if let (Some(scenario), Some(stats)) = (
            self.scenario.get_untracked(),
            self.snapshot
                .with_untracked(|s| s.as_ref().map(|s| s.stats.clone())),
        ) {
            bridge::publish_last_run(&scenario, &stats);
        }
    }
}

impl crate::shared::story_panel::Stories for Playback {
    fn track(&self) {
        self.snapshot.track();
    }

    fn with_record<R>(&self, f: impl FnOnce(&[sim::record::RequestRecord]) -> R) -> Option<R> {
        self.with_sim(|sim| sim.record().map(f)).flatten()
    }

    fn customers(&self) -> u32 {
        self.scenario
            .with(|s| s.as_ref().map_or(0, |s| s.customers))
    }
}

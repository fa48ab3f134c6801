//! `use_playback`: runs a simulation against the wall clock, one batch per animation
//! frame (on [`use_animation_frame`]), and publishes one snapshot per frame. The owner's
//! cleanup stops the loop.

use crate::shared::bridge;
use crate::shared::use_animation_frame::{
    now_ms, use_animation_frame, First, FrameLoop, Next, FRAME_BUDGET_MS,
};
use leptos::prelude::*;
use page::shared::words::Words;
use page::Speed;
use sim::moments::{
    fates_at, harm_moments, next_after, previous_before, request_times, snapshot_at, HarmMoment,
};
use sim::world::Fate;
use sim::{Scenario, Simulation, Snapshot};

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
    pub state: RwSignal<PlayState>,
    /// The latest snapshot, published at most once per frame.
    pub snapshot: RwSignal<Option<Snapshot>>,
    /// The scenario on screen.
    pub scenario: RwSignal<Option<Scenario>>,
    /// The playback speed.
    pub speed: RwSignal<Speed>,
    /// When the run on screen will finish, learned from a quick unrecorded run of the
    /// same scenario, so a timeline's axis can be fixed from the start.
    pub end_us: RwSignal<Option<u64>>,
    /// The instant a finished run is shown at (`None`: its end), derived from its record.
    pub playhead: RwSignal<Option<u64>>,
    /// The harmful moment the playhead was last stepped to, while it stays there.
    pub harm: RwSignal<Option<HarmMoment>>,
    sim: StoredValue<Option<Simulation>>,
    anchor: StoredValue<Option<Anchor>>,
    /// The frame loop that plays the run.
    frames: FrameLoop,
}

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
        sim: StoredValue::new(None),
        anchor: StoredValue::new(None),
        frames: use_animation_frame(),
    }
}

impl Playback {
    /// Starts `scenario` from the beginning. Returns the scenario's problem, if any.
    pub fn start(&self, scenario: Scenario) -> Result<(), String> {
        let sim = Simulation::new(&scenario).map_err(|e| e.sentence())?;
        self.frames.stop();
        self.playhead.set(None);
        self.harm.set(None);
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

    /// Stops where it is.
    pub fn pause(&self) {
        if self.state.get_untracked() == PlayState::Running {
            self.frames.stop();
            self.state.set(PlayState::Paused);
        }
    }

    /// Continues from where it paused.
    pub fn resume(&self) {
        if self.state.get_untracked() == PlayState::Paused {
            self.reanchor();
            self.state.set(PlayState::Running);
            let p = *self;
            self.frames.start(First::Now, move || p.frame());
        }
    }

    /// Back to nothing.
    pub fn reset(&self) {
        self.frames.stop();
        self.sim.set_value(None);
        self.snapshot.set(None);
        self.scenario.set(None);
        self.end_us.set(None);
        self.playhead.set(None);
        self.harm.set(None);
        self.state.set(PlayState::Idle);
    }

    /// Shows a finished, recorded run as it stood at `t_us` (the end if `None` or past
    /// it): the snapshot is derived from the record, not run again.
    pub fn seek(&self, t_us: Option<u64>) {
        if self.state.get_untracked() != PlayState::Done {
            return;
        }
        let snapshot = self.with_sim(|sim| {
            let end_us = sim.now_us();
            let t = t_us.filter(|&t| t < end_us);
            let record = sim.record()?;
            Some((
                t,
                t.map_or_else(
                    || sim.snapshot(),
                    |t| {
                        let s = sim.scenario();
                        snapshot_at(record, s.customers, &s.provider.incident, t)
                    },
                ),
            ))
        });
        if let Some(Some((t, snapshot))) = snapshot {
            self.harm.set(None);
            self.playhead.set(t);
            self.snapshot.set(Some(snapshot));
        }
    }

    /// Moves the playhead to the previous or next request (`harm`: harmful moment) of a
    /// finished run, starting at the end going back. False if there is none.
    pub fn step(&self, harm: bool, forward: bool) -> bool {
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
                return pick(request_times(record)).map(|t| (t, None));
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
        true
    }

    /// Every customer's fate now, or at the playhead.
    pub fn fates(&self) -> Vec<Fate> {
        let at = self.playhead.get_untracked();
        self.with_sim(|sim| match (at, sim.record()) {
            (Some(t), Some(record)) => fates_at(record, sim.scenario().customers, t),
            _ => sim.fates(),
        })
        .unwrap_or_default()
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
        if self.anchor.with_value(Option::is_none) {
            let sim_us = self
                .sim
                .with_value(|s| s.as_ref().map_or(0, Simulation::now_us));
            self.anchor.set_value(Some(Anchor {
                wall_ms: start_ms,
                sim_us,
            }));
        }
        let anchor = self.anchor.get_value().unwrap_or_default();
        let snapshot = self.sim.try_update_value(|slot| {
            let sim = slot.as_mut()?;
            match speed.sim_us_per_wall_ms() {
                None => {
                    while !sim.is_finished() && now_ms() - start_ms < FRAME_BUDGET_MS {
                        sim.run_events(INSTANT_BATCH_EVENTS);
                    }
                }
                Some(rate) => {
                    let target_us =
                        anchor.sim_us + ((start_ms - anchor.wall_ms).max(0.0) * rate) as u64;
                    sim.run_until(target_us);
                }
            }
            Some(sim.snapshot())
        });
        let Some(Some(snapshot)) = snapshot else {
            return Next::Stop;
        };
        let finished = snapshot.finished;
        self.snapshot.set(Some(snapshot.clone()));
        if finished {
            self.state.set(PlayState::Done);
            if let Some(scenario) = self.scenario.get_untracked() {
                bridge::publish_last_run(&scenario, &snapshot.stats);
            }
            return Next::Stop;
        }
        Next::Frame
    }
}

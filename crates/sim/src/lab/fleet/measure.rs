//! The fleet measured: the limits lab's two schedules (the boundary burst, one caller in
//! two volleys; the noisy neighbour, one caller's burst and a few quiet callers) sent
//! through a fleet, over several seeds, and compared with one process running the same
//! limiter (every caller with its own allowance, as the lab's burst and per-key
//! neighbour have it).
//!
//! Compared caller by caller: "over" counts the requests a caller got beyond what one
//! process gave it, "under" the ones it lost. Both are summed over the seeds, as are the
//! calls that left an instance (store calls and hops). The figures come for every mode
//! at the fleet's size, for every mode as the fleet grows ([`GROWTH`]), and for every
//! limiter in every mode.

use super::engine::{sure, Arrival, FleetRun, FleetTally};
use super::setup::{Balancer, FleetError, FleetMode, FleetSetup, MAX_INSTANCES};
use crate::lab::burst::{self, BurstParams};
use crate::lab::neighbour::{self, NeighbourParams};
use crate::lab::ARTICLE_POLICY;
use crate::limiter::{LimiterKind, Policy, Scope};
use crate::time::ms;
use serde::Serialize;

/// The fleet sizes the growth is measured at.
pub const GROWTH: [u32; 5] = [1, 2, 4, 8, 16];

/// The most requests in one burst.
pub const MAX_BURST: u32 = 200;

/// The most seeds.
pub const MAX_SEEDS: u32 = 100;

/// The burst's caller.
const BURST_CALLER: &str = "burst-client";

/// The quiet callers of the neighbour, three requests each.
const QUIET: [&str; 2] = ["bakery", "clinic"];

/// What is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FleetParams {
    /// The limiter.
    pub limiter: LimiterKind,
    /// Instances.
    pub instances: u32,
    /// The balancer.
    pub balancer: Balancer,
    /// The mode the reader picked (the others are measured beside it).
    pub mode: FleetMode,
    /// The store's round trip, or a hop's.
    pub rtt_us: u64,
    /// Requests in each of the burst's volleys, and the noisy caller's requests.
    pub burst: u32,
    /// Seeds run, from the first one up.
    pub seeds: u32,
}

impl Default for FleetParams {
    /// Four instances behind a round robin, the token bucket, a 1 ms round trip, bursts
    /// of 40 (four instances' worth of the article's 10), over 10 seeds.
    fn default() -> Self {
        Self {
            limiter: LimiterKind::Bucket,
            instances: 4,
            balancer: Balancer::RoundRobin,
            mode: FleetMode::Atomic,
            rtt_us: ms(1),
            burst: 40,
            seeds: 10,
        }
    }
}

/// One schedule's figures, summed over the seeds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tally {
    /// Requests sent.
    pub sent: u64,
    /// Requests the fleet admitted.
    pub admitted: u64,
    /// Requests one process admitted.
    pub one_process: u64,
    /// Requests admitted beyond what one process gave their caller.
    pub over: u64,
    /// Requests refused that one process admitted (caller by caller).
    pub under: u64,
    /// Calls that left an instance: store calls and hops.
    pub calls: u64,
    /// The most admitted over, on one seed.
    pub worst_over: u64,
}

impl Tally {
    fn add(&mut self, fleet: &FleetTally, one: &[u32], sent: u64) {
        let mut over = 0;
        for (&f, &o) in fleet.admitted.iter().zip(one) {
            over += u64::from(f.saturating_sub(o));
            self.under += u64::from(o.saturating_sub(f));
            self.admitted += u64::from(f);
            self.one_process += u64::from(o);
        }
        self.over += over;
        self.worst_over = self.worst_over.max(over);
        self.calls += fleet.calls;
        self.sent += sent;
        debug_assert!(self.admitted + self.under >= self.one_process);
        debug_assert_eq!(self.admitted + self.under, self.one_process + self.over);
    }
}

/// One mode's figures, or why the combination is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeRow {
    /// The mode.
    pub mode: FleetMode,
    /// Why it cannot run, if it cannot (then both tallies are zero).
    pub refused: Option<FleetError>,
    /// The boundary burst.
    pub burst: Tally,
    /// The noisy neighbour.
    pub neighbour: Tally,
}

/// Every mode at one fleet size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrowthRow {
    /// Instances.
    pub instances: u32,
    /// Every mode, in [`FleetMode::ALL`]'s order.
    pub modes: Vec<ModeRow>,
}

/// Every mode for one limiter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LimiterRow {
    /// The limiter.
    pub limiter: LimiterKind,
    /// Every mode, in [`FleetMode::ALL`]'s order.
    pub modes: Vec<ModeRow>,
}

/// The fleet experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetResult {
    /// The limiter.
    pub limiter: LimiterKind,
    /// The limit per caller.
    pub limit: u32,
    /// Its window.
    pub window_us: u64,
    /// Instances.
    pub instances: u32,
    /// The balancer.
    pub balancer: Balancer,
    /// The mode picked.
    pub mode: FleetMode,
    /// The round trip.
    pub rtt_us: u64,
    /// Requests per volley and the noisy caller's.
    pub burst: u32,
    /// Seeds run.
    pub seeds: u32,
    /// The first seed.
    pub first_seed: u64,
    /// Every mode at `instances`, in [`FleetMode::ALL`]'s order.
    pub modes: Vec<ModeRow>,
    /// Every mode at each size of [`GROWTH`].
    pub growth: Vec<GrowthRow>,
    /// Every limiter in every mode at `instances`, in [`LimiterKind::ALL`]'s order.
    pub limiters: Vec<LimiterRow>,
}

impl FleetResult {
    /// The row of `mode` at the fleet's size.
    pub fn mode(&self, mode: FleetMode) -> &ModeRow {
        &self.modes[mode as usize]
    }
}

/// One schedule for one seed: its callers, its arrivals, and what one process gave
/// each caller, for each limiter.
struct Schedule {
    callers: Vec<String>,
    arrivals: Vec<Arrival>,
    /// Per limiter (in [`LimiterKind::ALL`]'s order), per caller.
    one_process: Vec<Vec<u32>>,
}

impl Schedule {
    fn new(callers: Vec<String>, arrivals: Vec<Arrival>, policy: Policy) -> Self {
        let one_process = LimiterKind::ALL
            .iter()
            .map(|kind| {
                let mut l = sure(kind.build(policy, Scope::PerKey));
                let mut ok = vec![0; callers.len()];
                for a in &arrivals {
                    let d = sure(l.check(a.at_us, &callers[a.caller], 1));
                    ok[a.caller] += u32::from(d.allowed);
                }
                ok
            })
            .collect();
        Self {
            callers,
            arrivals,
            one_process,
        }
    }

    fn sent(&self) -> u64 {
        self.arrivals.len() as u64
    }
}

/// The two schedules for `seed`.
fn schedules(burst_size: u32, seed: u64) -> [Schedule; 2] {
    let p = BurstParams {
        per_volley: burst_size,
        ..BurstParams::default()
    };
    let burst = sure(burst::arrivals(&p, seed));
    let burst = Schedule::new(
        vec![BURST_CALLER.into()],
        burst
            .into_iter()
            .map(|at_us| Arrival { at_us, caller: 0 })
            .collect(),
        p.policy,
    );
    let mut callers = vec![("acme".to_string(), burst_size)];
    callers.extend(QUIET.iter().map(|q| (q.to_string(), 3)));
    let p = NeighbourParams {
        callers,
        ..NeighbourParams::default()
    };
    let arrivals = sure(neighbour::arrivals(&p, seed));
    let neighbour = Schedule::new(
        p.callers.into_iter().map(|(name, _)| name).collect(),
        arrivals
            .into_iter()
            .map(|(at_us, caller)| Arrival { at_us, caller })
            .collect(),
        p.policy,
    );
    [burst, neighbour]
}

/// Why the measurement cannot run (the page layer writes the sentence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeasureError {
    /// The fleet's numbers are out of range.
    Fleet(FleetError),
    /// A burst of fewer than 1 or more than [`MAX_BURST`] requests.
    Burst {
        /// The size given.
        burst: u32,
    },
    /// Fewer than 1 or more than [`MAX_SEEDS`] seeds.
    Seeds {
        /// The number given.
        seeds: u32,
    },
}

crate::error_display!(MeasureError, "fleet measurement refused");

/// Runs the measurement from `first_seed` (the seeds after it wrap around `u64`).
pub fn run(p: &FleetParams, first_seed: u64) -> Result<FleetResult, MeasureError> {
    if !(1..=MAX_BURST).contains(&p.burst) {
        return Err(MeasureError::Burst { burst: p.burst });
    }
    if !(1..=MAX_SEEDS).contains(&p.seeds) {
        return Err(MeasureError::Seeds { seeds: p.seeds });
    }
    let setup = |limiter, instances, mode| FleetSetup {
        limiter,
        policy: ARTICLE_POLICY,
        instances,
        balancer: p.balancer,
        mode,
        rtt_us: p.rtt_us,
    };
    // The numbers alone (a refused combination is a figure, not an error).
    let checked = setup(p.limiter, p.instances, FleetMode::Local).check();
    checked.map_err(MeasureError::Fleet)?;
    let runs: Vec<(u64, [Schedule; 2])> = (0..u64::from(p.seeds))
        .map(|k| {
            let seed = first_seed.wrapping_add(k);
            (seed, schedules(p.burst, seed))
        })
        .collect();
    let row = |limiter: LimiterKind, instances: u32, mode: FleetMode| -> ModeRow {
        let s = setup(limiter, instances, mode);
        let mut out = ModeRow {
            mode,
            refused: s.check().err(),
            burst: Tally::default(),
            neighbour: Tally::default(),
        };
        if out.refused.is_some() {
            return out;
        }
        for (seed, [burst, neighbour]) in &runs {
            for (tally, sched) in [(&mut out.burst, burst), (&mut out.neighbour, neighbour)] {
                let run = FleetRun::new(s, sched.callers.clone(), sched.arrivals.clone(), *seed);
                let fleet = sure(run).finish();
                tally.add(&fleet, &sched.one_process[limiter as usize], sched.sent());
            }
        }
        out
    };
    let modes_at = |limiter, instances| -> Vec<ModeRow> {
        FleetMode::ALL
            .iter()
            .map(|&m| row(limiter, instances, m))
            .collect()
    };
    let limiters: Vec<LimiterRow> = LimiterKind::ALL
        .iter()
        .map(|&limiter| LimiterRow {
            limiter,
            modes: modes_at(limiter, p.instances),
        })
        .collect();
    let growth = GROWTH
        .iter()
        .map(|&instances| GrowthRow {
            instances,
            modes: if instances == p.instances {
                limiters[p.limiter as usize].modes.clone()
            } else {
                modes_at(p.limiter, instances)
            },
        })
        .collect();
    debug_assert!(GROWTH.iter().all(|&n| n <= MAX_INSTANCES));
    Ok(FleetResult {
        limiter: p.limiter,
        limit: ARTICLE_POLICY.limit,
        window_us: ARTICLE_POLICY.window_us,
        instances: p.instances,
        balancer: p.balancer,
        mode: p.mode,
        rtt_us: p.rtt_us,
        burst: p.burst,
        seeds: p.seeds,
        first_seed,
        modes: limiters[p.limiter as usize].modes.clone(),
        growth,
        limiters,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::engine::FleetRun;
    use crate::lab::burst::run as burst_run;

    fn with(f: impl FnOnce(&mut FleetParams)) -> FleetParams {
        let mut p = FleetParams::default();
        f(&mut p);
        p
    }

    #[test]
    fn one_instance_is_one_process_exactly_in_every_mode() {
        // Read-then-write only with no round trip: with one, a single instance serving
        // requests at once races with itself (the next test).
        for (limiter, rtt_us) in LimiterKind::ALL.iter().flat_map(|&l| [(l, 0), (l, ms(1))]) {
            let p = with(|p| {
                p.limiter = limiter;
                p.instances = 1;
                p.rtt_us = rtt_us;
            });
            let r = run(&p, 1).unwrap();
            for m in &r.modes {
                if m.refused.is_some() {
                    assert_eq!((m.mode, limiter), (FleetMode::Cache, LimiterKind::Inflight));
                    continue;
                }
                if m.mode == FleetMode::ReadThenWrite && rtt_us > 0 {
                    continue;
                }
                for t in [m.burst, m.neighbour] {
                    assert_eq!((t.over, t.under), (0, 0), "{limiter} {:?}", m.mode);
                    assert_eq!(t.admitted, t.one_process, "{limiter} {:?}", m.mode);
                }
            }
        }
    }

    #[test]
    fn one_instance_answers_request_by_request_as_the_lab_does() {
        // The fleet of one against the lab's own burst run, request by request.
        let p = BurstParams::default();
        let lab = burst_run(&p, 3).unwrap();
        for lane in &lab.lanes {
            for mode in FleetMode::ALL {
                let setup = FleetSetup {
                    limiter: lane.limiter,
                    policy: p.policy,
                    instances: 1,
                    balancer: Balancer::RoundRobin,
                    mode,
                    rtt_us: 1_000,
                };
                if setup.check().is_err() || mode == FleetMode::ReadThenWrite {
                    continue;
                }
                let arrivals = lane
                    .marks
                    .iter()
                    .map(|m| Arrival {
                        at_us: m.at_us,
                        caller: 0,
                    })
                    .collect();
                let mut run = FleetRun::new(setup, vec![BURST_CALLER.into()], arrivals, 3).unwrap();
                while run.step().is_some() {}
                for (i, m) in lane.marks.iter().enumerate() {
                    assert_eq!(
                        run.outcome(i),
                        Some(m.allowed),
                        "{} {mode:?} {i}",
                        lane.limiter
                    );
                }
            }
        }
    }

    #[test]
    fn the_atomic_store_and_its_cache_hold_every_limit_at_every_size_behind_every_balancer() {
        for seed in 1..=3 {
            for sched in schedules(40, seed) {
                for limiter in LimiterKind::ALL {
                    let one = &sched.one_process[limiter as usize];
                    for instances in 1..=MAX_INSTANCES {
                        for balancer in Balancer::ALL {
                            for mode in [FleetMode::Atomic, FleetMode::Cache] {
                                let s = FleetSetup {
                                    limiter,
                                    policy: ARTICLE_POLICY,
                                    instances,
                                    balancer,
                                    mode,
                                    rtt_us: ms(1),
                                };
                                if s.check().is_err() {
                                    continue;
                                }
                                let t = FleetRun::new(
                                    s,
                                    sched.callers.clone(),
                                    sched.arrivals.clone(),
                                    seed,
                                )
                                .unwrap()
                                .finish();
                                assert_eq!(
                                    &t.admitted, one,
                                    "{limiter} {instances} {balancer:?} {mode:?} seed {seed}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn one_instance_reading_then_writing_races_with_itself() {
        let p = with(|p| p.instances = 1);
        let rw = *run(&p, 1).unwrap().mode(FleetMode::ReadThenWrite);
        assert!(rw.burst.over > 0, "{rw:?}");
    }

    #[test]
    fn four_local_instances_admit_about_four_times_on_the_burst() {
        let r = run(&FleetParams::default(), 1).unwrap();
        let local = r.mode(FleetMode::Local).burst;
        // One process: 11 a seed (10, then one token refilled). Four: 44.
        assert_eq!(local.one_process, 11 * 10);
        assert_eq!(local.admitted, 44 * 10);
        let neighbour = r.mode(FleetMode::Local).neighbour;
        assert_eq!(neighbour.over, 30 * 10, "the noisy caller gets 40 of 40");
    }

    #[test]
    fn the_atomic_store_holds_the_limit_exactly_and_read_then_write_does_not() {
        for limiter in LimiterKind::ALL {
            for instances in [2, 4, 16] {
                let p = with(|p| {
                    p.limiter = limiter;
                    p.instances = instances;
                    p.balancer = Balancer::Random;
                });
                let r = run(&p, 5).unwrap();
                for mode in [FleetMode::Atomic, FleetMode::Owner] {
                    let m = r.mode(mode);
                    let burst = m.burst;
                    if mode == FleetMode::Atomic {
                        assert_eq!((burst.over, burst.under), (0, 0), "{limiter} {instances}");
                        assert_eq!(m.neighbour.over + m.neighbour.under, 0);
                        assert_eq!(burst.calls, burst.sent);
                    }
                }
                let cache = r.mode(FleetMode::Cache);
                if limiter != LimiterKind::Inflight {
                    assert_eq!((cache.burst.over, cache.burst.under), (0, 0), "{limiter}");
                    assert!(cache.burst.calls < cache.burst.sent, "{limiter}");
                }
            }
        }
        // Read-then-write with a 1 ms round trip: a volley spread over 2 ms reads stale
        // counts, and the fleet admits more than the limit.
        let r = run(&FleetParams::default(), 1).unwrap();
        let rw = r.mode(FleetMode::ReadThenWrite);
        assert!(rw.burst.over > 0, "{rw:?}");
        assert_eq!(rw.burst.calls, rw.burst.sent + rw.burst.admitted);
        // With no round trip, nothing lies between a read and its write.
        let r = run(&with(|p| p.rtt_us = 0), 1).unwrap();
        let rw = r.mode(FleetMode::ReadThenWrite);
        assert_eq!((rw.burst.over, rw.neighbour.over), (0, 0));
    }

    #[test]
    fn growth_is_measured_at_every_size_and_refusals_are_figures() {
        let r = run(&FleetParams::default(), 1).unwrap();
        assert_eq!(r.growth.len(), GROWTH.len());
        let local: Vec<u64> = r
            .growth
            .iter()
            .map(|g| g.modes[FleetMode::Local as usize].burst.admitted / 10)
            .collect();
        // 11 per instance, until all 80 are admitted.
        assert_eq!(local, [11, 22, 44, 80, 80]);
        let share16 = r.growth[4].modes[FleetMode::Share as usize];
        assert_eq!(
            share16.refused,
            Some(FleetError::ShareBelowOne {
                limit: 10,
                instances: 16
            })
        );
        assert_eq!(r.growth[2].modes, r.modes);
        assert_eq!(r.limiters.len(), LimiterKind::ALL.len());
        assert_eq!(
            run(&with(|p| p.burst = 0), 1),
            Err(MeasureError::Burst { burst: 0 })
        );
        assert_eq!(
            run(&with(|p| p.instances = 17), 1),
            Err(MeasureError::Fleet(FleetError::Instances { instances: 17 }))
        );
        let a = run(&FleetParams::default(), 9).unwrap();
        assert_eq!(a, run(&FleetParams::default(), 9).unwrap());
    }
}

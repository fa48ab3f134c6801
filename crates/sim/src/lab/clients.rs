//! Experiment 3, clients: a worker with a fixed number of calls to make against a token
//! bucket, written three ways.
//!
//! - **blind** retries on every 429 without reading anything: at once (a busy loop with
//!   a request in it, bounded only by the round trip), or after a fixed pause.
//! - **obedient** reads the 429's whole header block with the one header reader
//!   ([`read_headers`]) and sleeps for the wait it gives (the `Retry-After`, which ranks
//!   above the RateLimit fields beside it) before trying again.
//! - **proactive** keeps its own copy of the server's bucket and sleeps until its copy
//!   holds a token before each call. On a 429 it empties its copy, since the server has
//!   just said there is nothing left, and also obeys the wait the reader finds in the
//!   answer's headers: a careful client never retries before the server said it may.
//!
//! The client makes one call at a time. Each call takes a round trip: one one-way delay
//! to reach the server, whose bucket is stamped at the arrival instant, and one back.
//! Each delay is half the round trip, varied uniformly by up to half the jitter (seeded).
//! Sleeps last whole milliseconds, as timers do.
//!
//! Why the proactive client can still be refused, without anything forcing it: its copy
//! of the bucket is stamped when it sends, the server's when the request arrives. The
//! delays vary, so two arrivals can be a few µs closer together than the client's two
//! sends were, and the server has then earned a few µs less refill than the copy has.
//! The whole-millisecond sleeps usually leave more slack than that; when one leaves less,
//! the server is a sliver of a token short and answers 429. Whether that happens in a
//! run, and how often, depends on the seed.

use super::{ARTICLE_POLICY, LAB_EPOCH_S};
use crate::headers::{read_headers, response_headers};
use crate::limiter::{Limiter, LimiterError, Policy, Scope, TokenBucket};
use crate::rng::SimRng;
use crate::time::{secs, US_PER_MS, US_PER_S};
use serde::{Deserialize, Serialize};

/// The one caller's key.
const CALLER: &str = "worker";

/// The most calls the worker may be given.
pub const MAX_CALLS: u32 = 100_000;

/// The longest round trip.
pub const MAX_ROUND_TRIP_US: u64 = secs(10);

/// The longest pause of the blind client after a 429.
pub const MAX_BLIND_PAUSE_US: u64 = secs(1);

/// The experiment's numbers. The defaults are the article's, with a loopback round trip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientsParams {
    /// Calls the worker has to complete.
    pub calls: u32,
    /// The server's bucket: tokens it holds.
    pub capacity: u32,
    /// The server's bucket: refill rate, which is also the published limit.
    pub policy: Policy,
    /// Time for a request to reach the server and its answer to come back.
    pub round_trip_us: u64,
    /// The round trip varies by up to this much (each direction by up to half of it).
    pub round_trip_jitter_us: u64,
    /// Sleeps last a whole number of this (timers count milliseconds).
    pub timer_tick_us: u64,
    /// The most requests one client may send before the run is called off.
    pub max_requests: u64,
    /// How long the blind client pauses after a 429 before sending again: 0 for at
    /// once. Slept as a timer, in whole ticks.
    pub blind_pause_us: u64,
}

impl Default for ClientsParams {
    fn default() -> Self {
        Self {
            calls: 40,
            capacity: 10,
            policy: ARTICLE_POLICY,
            round_trip_us: 50,
            round_trip_jitter_us: 10,
            timer_tick_us: US_PER_MS,
            max_requests: 10_000_000,
            blind_pause_us: 0,
        }
    }
}

crate::named_enum! {
    /// How a client reacts to a 429.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum ClientStrategy as "client" {
        /// Sends again at once.
        Blind = "blind",
        /// Sleeps for the `Retry-After` it was given.
        Obedient = "obedient",
        /// Paces itself with a copy of the server's bucket; empties the copy on a 429.
        Proactive = "proactive",
    }
}

/// Why the clients experiment cannot run, or was called off (the page layer writes the
/// sentence).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientsError {
    /// The worker has fewer than 1 or more than [`MAX_CALLS`] calls to make.
    Calls,
    /// The round trip is longer than [`MAX_ROUND_TRIP_US`] or shorter than its jitter.
    RoundTrip,
    /// The timer tick is outside 1 µs to 1 s.
    TimerTick,
    /// The blind client's pause is longer than [`MAX_BLIND_PAUSE_US`].
    BlindPause,
    /// A client reached the request cap without finishing its calls.
    RequestCap {
        /// The client.
        strategy: ClientStrategy,
        /// Requests it had sent.
        sent: u64,
    },
    /// The buckets refuse the policy or a request, for the limiter's own reason.
    Limiter(LimiterError),
    /// A 429 whose headers gave the reader no wait (our bucket always sends one).
    NoWait,
}

crate::error_display!(ClientsError, "clients experiment refused");

/// One client's run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientRun {
    /// The strategy.
    pub strategy: ClientStrategy,
    /// Requests sent.
    pub sent: u64,
    /// 429 answers among them.
    pub rate_limited: u64,
    /// Simulated time from the first send to the last answer.
    pub wall_us: u64,
}

/// The clients experiment's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientsResult {
    /// Calls each client completed.
    pub calls: u32,
    /// The published limit.
    pub limit: u32,
    /// Its window.
    pub window_us: u64,
    /// The server's bucket size.
    pub capacity: u32,
    /// The modelled round trip.
    pub round_trip_us: u64,
    /// Its jitter.
    pub round_trip_jitter_us: u64,
    /// The blind client's pause after a 429.
    pub blind_pause_us: u64,
    /// Blind, obedient, proactive.
    pub runs: Vec<ClientRun>,
    /// Blind requests per obedient request, rounded.
    pub traffic_ratio: u64,
}

/// Runs the experiment: each strategy against a fresh server, on the same seed.
pub fn run(p: &ClientsParams, seed: u64) -> Result<ClientsResult, ClientsError> {
    if !(1..=MAX_CALLS).contains(&p.calls) {
        return Err(ClientsError::Calls);
    }
    if p.round_trip_jitter_us > p.round_trip_us || p.round_trip_us > MAX_ROUND_TRIP_US {
        return Err(ClientsError::RoundTrip);
    }
    if !(1..=US_PER_S).contains(&p.timer_tick_us) {
        return Err(ClientsError::TimerTick);
    }
    if p.blind_pause_us > MAX_BLIND_PAUSE_US {
        return Err(ClientsError::BlindPause);
    }
    let runs = ClientStrategy::ALL
        .into_iter()
        .map(|s| drive(s, p, seed))
        .collect::<Result<Vec<_>, _>>()?;
    let obedient_sent = runs[1].sent.max(1);
    Ok(ClientsResult {
        calls: p.calls,
        limit: p.policy.limit,
        window_us: p.policy.window_us,
        capacity: p.capacity,
        round_trip_us: p.round_trip_us,
        round_trip_jitter_us: p.round_trip_jitter_us,
        blind_pause_us: p.blind_pause_us,
        traffic_ratio: (runs[0].sent + obedient_sent / 2) / obedient_sent,
        runs,
    })
}

/// `us` rounded up to whole timer ticks: a timer never fires early.
fn timer(us: u64, tick_us: u64) -> u64 {
    us.div_ceil(tick_us) * tick_us
}

/// One client's whole run.
fn drive(
    strategy: ClientStrategy,
    p: &ClientsParams,
    seed: u64,
) -> Result<ClientRun, ClientsError> {
    let bucket =
        || TokenBucket::new(p.capacity, p.policy, Scope::PerKey).map_err(ClientsError::Limiter);
    let (mut server, mut copy) = (bucket()?, bucket()?);
    let mut rng = SimRng::from_seed(seed);
    let base_us = p.round_trip_us / 2;
    let spread_us = p.round_trip_jitter_us / 2;
    let mut one_way = || rng.between(base_us - spread_us, base_us + spread_us);
    let (mut now_us, mut sent, mut rate_limited, mut done) = (0u64, 0u64, 0u64, 0u32);
    while done < p.calls {
        if sent >= p.max_requests {
            return Err(ClientsError::RequestCap { strategy, sent });
        }
        if strategy == ClientStrategy::Proactive {
            let mine = copy
                .check(now_us, CALLER, 1)
                .map_err(ClientsError::Limiter)?;
            if !mine.allowed {
                now_us += timer(mine.retry_after_us, p.timer_tick_us);
                continue;
            }
        }
        let arrival_us = now_us + one_way();
        let answer = server
            .check(arrival_us, CALLER, 1)
            .map_err(ClientsError::Limiter)?;
        now_us = arrival_us + one_way();
        sent += 1;
        if answer.allowed {
            done += 1;
            continue;
        }
        rate_limited += 1;
        if strategy == ClientStrategy::Blind {
            now_us += timer(p.blind_pause_us, p.timer_tick_us);
            continue;
        }
        // The obedient and the proactive client read the refusal the same way: the whole
        // header block through the one reader.
        let headers = response_headers(server.policy(), &answer);
        let wait_us = read_headers(&headers, secs(LAB_EPOCH_S) + now_us)
            .wait_us
            .ok_or(ClientsError::NoWait)?;
        if strategy == ClientStrategy::Proactive {
            copy.empty(now_us, CALLER);
        }
        now_us += timer(wait_us, p.timer_tick_us);
    }
    Ok(ClientRun {
        strategy,
        sent,
        rate_limited,
        wall_us: now_us,
    })
}

impl ClientsResult {
    /// The run of one strategy.
    pub fn run_of(&self, strategy: ClientStrategy) -> &ClientRun {
        self.runs
            .iter()
            .find(|r| r.strategy == strategy)
            .expect("every strategy runs")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::ms;

    #[test]
    fn obeying_costs_nothing_and_saves_almost_every_request() {
        for seed in 1..=10 {
            let r = run(&ClientsParams::default(), seed).unwrap();
            let blind = r.run_of(ClientStrategy::Blind);
            let obedient = r.run_of(ClientStrategy::Obedient);
            let proactive = r.run_of(ClientStrategy::Proactive);
            // 40 calls need 30 refilled tokens: 3 s, whatever the client does.
            for run in [blind, obedient, proactive] {
                assert!(
                    (secs(3)..secs(3) + ms(150)).contains(&run.wall_us),
                    "seed {seed}: {run:?}"
                );
            }
            // Blind: one request per ~50 µs round trip for 3 s.
            assert!(
                (50_000..70_000).contains(&blind.sent),
                "seed {seed}: {blind:?}"
            );
            assert_eq!(blind.sent - blind.rate_limited, 40);
            // Obedient: three bursts of 10 each end in one 429 and a 1 s sleep.
            assert_eq!(
                (obedient.sent, obedient.rate_limited),
                (43, 3),
                "seed {seed}"
            );
            assert!(proactive.rate_limited <= 2, "seed {seed}: {proactive:?}");
            assert_eq!(proactive.sent, 40 + proactive.rate_limited);
            assert!(r.traffic_ratio > 1_000);
        }
    }

    #[test]
    fn a_steady_network_never_refuses_the_proactive_client() {
        // Without jitter every arrival is the send plus the same delay: the server's
        // bucket is the client's copy shifted in time, and can never be short.
        for seed in 1..=20 {
            let p = ClientsParams {
                round_trip_jitter_us: 0,
                ..ClientsParams::default()
            };
            let r = run(&p, seed).unwrap();
            assert_eq!(r.run_of(ClientStrategy::Proactive).rate_limited, 0);
        }
    }

    #[test]
    fn a_jittery_network_sometimes_does() {
        let p = ClientsParams {
            round_trip_jitter_us: 50,
            ..ClientsParams::default()
        };
        let refused: u64 = (1..=30)
            .map(|seed| {
                run(&p, seed)
                    .unwrap()
                    .run_of(ClientStrategy::Proactive)
                    .rate_limited
            })
            .sum();
        assert!(refused > 0, "30 seeds with ±25 µs delays and not one 429");
    }

    #[test]
    fn a_slower_round_trip_means_fewer_blind_requests() {
        let fast = run(&ClientsParams::default(), 1).unwrap();
        let slow = run(
            &ClientsParams {
                round_trip_us: 500,
                round_trip_jitter_us: 0,
                ..ClientsParams::default()
            },
            1,
        )
        .unwrap();
        let (f, s) = (
            fast.run_of(ClientStrategy::Blind).sent,
            slow.run_of(ClientStrategy::Blind).sent,
        );
        assert!(s * 9 < f && f < s * 11, "fast {f}, slow {s}");
    }

    #[test]
    fn a_blind_pause_of_one_millisecond_cuts_the_flood_by_twenty() {
        let p = ClientsParams {
            blind_pause_us: ms(1),
            ..ClientsParams::default()
        };
        let paused = run(&p, 1).unwrap();
        let flat_out = run(&ClientsParams::default(), 1).unwrap();
        let (a, b) = (
            paused.run_of(ClientStrategy::Blind).sent,
            flat_out.run_of(ClientStrategy::Blind).sent,
        );
        // About one request per 1.05 ms instead of one per 50 µs, for the same 3 s.
        assert!((2_500..3_100).contains(&a), "{a}");
        assert!(b > 18 * a && b < 23 * a, "{a} {b}");
        assert_eq!(
            paused.run_of(ClientStrategy::Obedient),
            flat_out.run_of(ClientStrategy::Obedient)
        );
        let p = ClientsParams {
            blind_pause_us: MAX_BLIND_PAUSE_US + 1,
            ..ClientsParams::default()
        };
        assert_eq!(run(&p, 1), Err(ClientsError::BlindPause));
    }

    #[test]
    fn a_run_that_cannot_finish_is_called_off() {
        let p = ClientsParams {
            max_requests: 1_000,
            ..ClientsParams::default()
        };
        assert_eq!(
            run(&p, 1),
            Err(ClientsError::RequestCap {
                strategy: ClientStrategy::Blind,
                sent: 1_000
            })
        );
        let p = ClientsParams {
            round_trip_jitter_us: 60,
            ..ClientsParams::default()
        };
        assert_eq!(run(&p, 1), Err(ClientsError::RoundTrip));
        let p = ClientsParams {
            calls: 0,
            ..ClientsParams::default()
        };
        assert_eq!(run(&p, 1), Err(ClientsError::Calls));
        let p = ClientsParams {
            timer_tick_us: 0,
            ..ClientsParams::default()
        };
        assert_eq!(run(&p, 1), Err(ClientsError::TimerTick));
    }
}

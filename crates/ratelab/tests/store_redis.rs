//! The limiters in Redis decide as the core's limiters do, figure for figure: every kind,
//! per caller and for everyone, in both modes, on the same arrivals (a real
//! `redis-server`, started here on a free port; scripts/setup.sh installs it). And a
//! state no limiter wrote is refused with a sentence, never run.
//!
//! The arrivals' clock runs at least as fast as the real one (each instant is the real
//! time elapsed plus seeded jumps, sometimes a step back of up to 1 ms), so a key that
//! Redis lets expire on its TTL is always one whose state the core would have found
//! spent by then.

use ratelab::store::redis::{RedisStore, StoreError};
use ratelab::store::{state_key, RedisConfig, StoreFail, StoreMode};
use sim::limiter::{LimiterKind, Policy, Scope};
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

const POLICY: Policy = Policy {
    limit: 10,
    window_us: 1_000_000,
};

/// A `redis-server` on a free port, stopped when dropped.
struct Redis {
    child: Child,
    port: u16,
}

impl Redis {
    fn start() -> Self {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("redis-server runs (scripts/setup.sh installs it)");
        let out = BufReader::new(child.stdout.take().expect("its output"));
        for line in out.lines() {
            if line
                .expect("a line")
                .contains("Ready to accept connections")
            {
                break;
            }
        }
        Self { child, port }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    fn cli(&self, args: &[&str]) -> String {
        let out = Command::new("redis-cli")
            .args(["-p", &self.port.to_string()])
            .args(args)
            .output()
            .expect("redis-cli runs");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn store(redis: &Redis, mode: StoreMode) -> RedisStore {
    let config = RedisConfig {
        url: redis.url(),
        mode,
        fail: StoreFail::Closed,
    };
    RedisStore::new(config, POLICY).expect("a store")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_limiter_in_redis_decides_as_the_cores_in_both_modes() {
    let redis = Redis::start();
    let mut lcg = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: u64| {
        lcg = lcg.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (lcg >> 33) % n
    };
    for mode in [StoreMode::Atomic, StoreMode::ReadThenWrite] {
        let s = store(&redis, mode);
        s.load_scripts().await.expect("the scripts load");
        for kind in LimiterKind::ALL {
            // A request in flight holds its slot 15 ms: arrivals closer together for it.
            let scale = if kind == LimiterKind::Inflight { 20 } else { 1 };
            let mut answers = [0u32; 2];
            for scope in [Scope::PerKey, Scope::Global] {
                let mut core = kind.build(POLICY, scope).expect("a limiter");
                // A wall-clock-like start, on no whole window, and a run of its own.
                let base_us = 1_765_000_000_000_000 + next(1_000_000) + next(1_000) * 10_000_000;
                let start = Instant::now();
                let mut extra_us = 0;
                for i in 0..400 {
                    extra_us += match next(40) {
                        0 => 1_500_000,
                        1..=4 => next(300_000),
                        _ => next(20_000),
                    } / scale;
                    let real_us = u64::try_from(start.elapsed().as_micros()).unwrap();
                    let mut now_us = base_us + real_us + extra_us;
                    if next(25) == 0 {
                        now_us -= next(1_000);
                    }
                    let caller = ["acme", "bakery", "clinic"][next(3) as usize];
                    let want = core.check_delayed(now_us, caller, 1).unwrap();
                    let got = s.decide(kind, scope, caller, now_us).await;
                    assert_eq!(
                        got,
                        Ok(want),
                        "{kind} {scope:?} {mode}, arrival {i} at {now_us} µs from {caller}"
                    );
                    answers[usize::from(want.0.allowed)] += 1;
                }
            }
            // The schedule meets both answers.
            assert!(answers.iter().all(|&n| n > 0), "{kind}: {answers:?}");
        }
        assert!(s.clear().await.expect("cleared") > 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_no_limiter_wrote_is_refused_with_a_sentence() {
    let redis = Redis::start();
    for mode in [StoreMode::Atomic, StoreMode::ReadThenWrite] {
        let s = store(&redis, mode);
        let now_us = 1_765_000_000_000_000;
        for (kind, text) in [
            (LimiterKind::Fixed, "nonsense"),
            (LimiterKind::Fixed, "1765000000 11"),
            (LimiterKind::Counter, "1 2"),
            (LimiterKind::Bucket, "99999999999 0"),
            (LimiterKind::Sliding, "5 4 3"),
            (LimiterKind::Inflight, ""),
        ] {
            let key = state_key(kind, Scope::PerKey, POLICY, "mallory");
            redis.cli(&["set", &key, text]);
            let got = s.decide(kind, Scope::PerKey, "mallory", now_us).await;
            let Err(StoreError::Garbled(why)) = &got else {
                panic!("{kind} {mode} {text:?}: {got:?}");
            };
            assert!(!why.is_empty());
            assert!(
                got.unwrap_err()
                    .to_string()
                    .starts_with("answered something that is not a limiter's state"),
                "{kind} {text:?}"
            );
            redis.cli(&["del", &key]);
        }
        // A key of another type: Redis's own refusal, in a sentence.
        let key = state_key(LimiterKind::Gcra, Scope::PerKey, POLICY, "list");
        redis.cli(&["rpush", &key, "x"]);
        let got = s
            .decide(LimiterKind::Gcra, Scope::PerKey, "list", now_us)
            .await;
        assert!(
            matches!(&got, Err(StoreError::Refused(e)) if e.contains("WRONGTYPE")),
            "{mode}: {got:?}"
        );
        redis.cli(&["del", &key]);
    }
}

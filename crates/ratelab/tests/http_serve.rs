//! `ratelab serve`'s service, in process on an ephemeral port: bad input at the door gets
//! a clear 4xx and breaks nothing, the limiter endpoints carry the headers, and a stop
//! lets the requests in flight finish.

use ratelab::server::{serve, ProviderStats, ServeConfig, Service, MAX_BODY_BYTES};
use sim::provider::ProviderConfig;
use sim::rng::Odds;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A running server: its address, its stop button and what it returns when stopped.
struct Running {
    base: String,
    stop: oneshot::Sender<()>,
    done: JoinHandle<std::io::Result<ProviderStats>>,
    http: reqwest::Client,
}

async fn start(config: ServeConfig) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("an ephemeral port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let (stop, stopped) = oneshot::channel::<()>();
    let service = Service::new(config).expect("a valid config");
    let done = tokio::spawn(serve(listener, service, async {
        let _ = stopped.await;
    }));
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("a client");
    Running {
        base,
        stop,
        done,
        http,
    }
}

/// A provider whose dice never fire, so each answer is the rule under test.
fn calm() -> ServeConfig {
    ServeConfig {
        provider: ProviderConfig {
            server_error: Odds::NEVER,
            slow: Odds::NEVER,
            ..ProviderConfig::default()
        },
        ..ServeConfig::default()
    }
}

impl Running {
    async fn post(&self, path: &str, body: impl Into<reqwest::Body>) -> (u16, String) {
        let res = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("an answer");
        let status = res.status().as_u16();
        (status, res.text().await.expect("a body"))
    }

    async fn get(&self, path: &str, key: Option<&str>) -> reqwest::Response {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(k) = key {
            req = req.header("x-api-key", k);
        }
        req.send().await.expect("an answer")
    }

    async fn stats(&self) -> ProviderStats {
        let body = self.get("/stats", None).await.text().await.expect("a body");
        serde_json::from_str(&body).expect("the stats JSON")
    }

    async fn stop(self) -> ProviderStats {
        let _ = self.stop.send(());
        self.done
            .await
            .expect("the server task")
            .expect("a clean stop")
    }
}

/// The sentence of a `{"error": "..."}` body.
fn sentence(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).expect("a JSON error body");
    v["error"].as_str().expect("an error sentence").to_string()
}

#[tokio::test]
async fn bad_bodies_get_400_with_a_sentence_and_are_counted_apart() {
    let s = start(calm()).await;
    let cases: [(&str, &str); 9] = [
        ("", "empty"),
        ("{\"id\": 1", "not JSON"),
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ("{\"amount\": 1000}", "no id"),
        (
            "{\"id\": \"7\", \"amount\": 1000}",
            "id must be a whole number",
        ),
        ("{\"id\": -3}", "id must be a whole number"),
        ("{\"id\": 0}", "id must be a customer from 1"),
        (
            "{\"id\": 4, \"amount\": \"ten\"}",
            "amount must be a whole number of cents",
        ),
    ];
    for (body, expected) in cases {
        let (status, text) = s.post("/charge", body).await;
        assert_eq!(status, 400, "{body:?}: {text}");
        let said = sentence(&text);
        assert!(said.contains(expected), "{body:?}: {said}");
    }
    let big_id = format!("{{\"id\": {}}}", u64::from(u32::MAX) + 1);
    assert_eq!(s.post("/charge", big_id).await.0, 400);
    let stats = s.stats().await;
    assert_eq!(stats.bad_requests, 10);
    assert_eq!((stats.requests, stats.charges), (0, 0));
    // The provider still works after all that.
    let (status, text) = s.post("/charge", "{\"id\": 1, \"amount\": 1000}").await;
    assert_eq!(
        (status, text.trim()),
        (200, "{\"id\":1,\"result\":\"charged\",\"run\":0}")
    );
    s.stop().await;
}

#[tokio::test]
async fn a_body_over_64_kb_gets_413_and_one_at_the_limit_is_read() {
    let s = start(calm()).await;
    let over = format!("{{\"id\": 1, \"pad\": \"{}\"}}", "x".repeat(MAX_BODY_BYTES));
    let (status, text) = s.post("/charge", over).await;
    assert_eq!(status, 413);
    assert!(sentence(&text).contains("64 KB"), "{text}");
    let head = "{\"id\": 2, \"pad\": \"\"}".len();
    let at = format!(
        "{{\"id\": 2, \"pad\": \"{}\"}}",
        "x".repeat(MAX_BODY_BYTES - head)
    );
    assert_eq!(at.len(), MAX_BODY_BYTES);
    assert_eq!(s.post("/charge", at).await.0, 200);
    assert_eq!(s.stats().await.bad_requests, 1);
    s.stop().await;
}

#[tokio::test]
async fn unknown_paths_get_404_and_wrong_methods_405() {
    let s = start(calm()).await;
    for path in ["/", "/charges", "/stats/x", "/fixed/../admin"] {
        let res = s.get(path, None).await;
        assert_eq!(res.status().as_u16(), 404, "{path}");
        assert!(sentence(&res.text().await.unwrap()).contains("the endpoints are"));
    }
    let get_charge = s.get("/charge", None).await;
    assert_eq!(get_charge.status().as_u16(), 405);
    assert_eq!(get_charge.headers()["allow"], "POST");
    for path in ["/stats", "/fixed", "/global"] {
        assert_eq!(s.post(path, "").await.0, 405, "POST {path}");
    }
    assert_eq!(s.get("/reset", None).await.status().as_u16(), 405);
    s.stop().await;
}

#[tokio::test]
async fn reset_takes_only_a_seed_and_clears_everything() {
    let s = start(calm()).await;
    assert_eq!(s.post("/charge", "{\"id\": 3}").await.0, 200);
    for bad in ["/reset?seed=x", "/reset?seed=-1", "/reset?sed=2"] {
        let (status, text) = s.post(bad, "").await;
        assert_eq!(status, 400, "{bad}");
        assert!(!sentence(&text).is_empty());
    }
    assert_eq!(s.stats().await.charges, 1, "a refused reset clears nothing");
    for _ in 0..10 {
        s.get("/fixed", None).await;
    }
    assert_eq!(s.get("/fixed", None).await.status().as_u16(), 429);
    let (status, text) = s.post("/reset?seed=7", "").await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(
        s.stats().await,
        ProviderStats {
            run: 1,
            ..ProviderStats::default()
        }
    );
    assert_eq!(s.get("/fixed", None).await.status().as_u16(), 200);
    s.stop().await;
}

#[tokio::test]
async fn keys_replay_the_first_answer_and_every_97th_card_is_declined() {
    let s = start(calm()).await;
    let charge = |id: u32, key: &'static str| {
        let req = s
            .http
            .post(format!("{}/charge", s.base))
            .header("content-type", "application/json")
            .header("idempotency-key", key)
            .body(format!("{{\"id\": {id}, \"amount\": 1000}}"));
        async move { req.send().await.expect("an answer").status().as_u16() }
    };
    assert_eq!(charge(5, "ck-5").await, 200);
    assert_eq!(charge(5, "ck-5").await, 200);
    assert_eq!(charge(97, "ck-97").await, 400);
    assert_eq!(charge(97, "ck-97").await, 400);
    let too_long = s
        .http
        .post(format!("{}/charge", s.base))
        .header("content-type", "application/json")
        .header("idempotency-key", "k".repeat(300))
        .body("{\"id\": 1}")
        .send()
        .await
        .unwrap();
    assert_eq!(too_long.status().as_u16(), 400);
    let st = s.stats().await;
    assert_eq!(
        (st.charges, st.duplicates, st.replayed, st.declined),
        (1, 0, 2, 2)
    );
    assert_eq!(st.retried_declined, 1);
    assert_eq!(st.bad_requests, 1);
    // /stats has the first article's names, plus its own.
    let body = s.get("/stats", None).await.text().await.unwrap();
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    for name in [
        "requests",
        "charges",
        "duplicates",
        "maxInflight",
        "rateLimited",
        "serverErrors",
        "slow",
        "inProgressConflicts",
        "declined",
        "retriedDeclined",
        "overloaded",
        "replayed",
    ] {
        assert!(v[name].is_u64(), "{name} in {body}");
    }
    s.stop().await;
}

#[tokio::test]
async fn the_limiter_endpoints_answer_with_the_headers_and_key_by_api_key() {
    let s = start(ServeConfig::default()).await;
    for path in ["/fixed", "/sliding", "/bucket"] {
        let mut ok = 0;
        let mut last = None;
        for _ in 0..11 {
            let res = s.get(path, Some("acme")).await;
            for h in [
                "ratelimit-policy",
                "ratelimit",
                "ratelimit-limit",
                "ratelimit-remaining",
                "ratelimit-reset",
            ] {
                assert!(res.headers().contains_key(h), "{path} {h}");
            }
            ok += u32::from(res.status().as_u16() == 200);
            last = Some(res);
        }
        let last = last.unwrap();
        // A fixed window may turn over during the eleven, and a slow machine may take
        // long enough for the bucket to refill one token (100 ms): then all eleven pass.
        // The sliding log allows ten in any second, whatever the timing.
        if last.status().as_u16() == 429 {
            assert_eq!(ok, 10, "{path}");
            assert!(
                last.headers()["retry-after"]
                    .to_str()
                    .unwrap()
                    .parse::<u64>()
                    .unwrap()
                    >= 1
            );
            assert_eq!(last.headers()["ratelimit-policy"], "\"burst\";q=10;w=1");
            assert_eq!(last.text().await.unwrap(), "slow down\n");
        } else {
            assert_ne!(path, "/sliding");
        }
        // Another key has its own allowance.
        let other = s.get(path, Some("bakery")).await;
        assert_eq!(other.status().as_u16(), 200, "{path}");
        assert!(!other.headers().contains_key("retry-after"));
        assert_eq!(other.text().await.unwrap(), "ok\n");
    }
    // One bucket for everyone: ten from one key leave nothing for another.
    for _ in 0..10 {
        s.get("/global", Some("acme")).await;
    }
    assert_eq!(
        s.get("/global", Some("clinic")).await.status().as_u16(),
        429
    );
    assert_eq!(s.get("/global", None).await.status().as_u16(), 429);
    s.stop().await;
}

#[tokio::test]
async fn a_thousand_charges_at_once_are_all_answered() {
    let s = start(ServeConfig::default()).await;
    let sends = (1..=1000).map(|id| {
        let req = s
            .http
            .post(format!("{}/charge", s.base))
            .header("content-type", "application/json")
            .body(format!("{{\"id\": {id}, \"amount\": 1000}}"));
        tokio::spawn(async move { req.send().await.map(|r| r.status().as_u16()) })
    });
    let mut codes = std::collections::BTreeMap::new();
    for handle in sends.collect::<Vec<_>>() {
        let code = handle.await.unwrap().expect("every request is answered");
        *codes.entry(code).or_insert(0u64) += 1;
    }
    assert_eq!(codes.values().sum::<u64>(), 1000);
    let st = s.stop().await;
    assert_eq!(st.requests, 1000);
    // 100 a second pass the rate rule (the burst may straddle a second on a busy
    // machine), and at most 10 of those are processed at once.
    assert!(st.rate_limited >= 800, "{codes:?}");
    assert!(st.max_inflight <= 10);
    assert_eq!(codes[&429], st.rate_limited);
    assert_eq!(codes.get(&503).copied().unwrap_or(0), st.overloaded);
}

#[tokio::test]
async fn a_stop_lets_the_request_in_flight_finish_and_returns_the_counters() {
    let s = start(ServeConfig {
        provider: ProviderConfig {
            slow: Odds { num: 1, den: 1 },
            slow_latency_us: 400_000,
            ..calm().provider
        },
        ..ServeConfig::default()
    })
    .await;
    let req = s
        .http
        .post(format!("{}/charge", s.base))
        .header("content-type", "application/json")
        .body("{\"id\": 8, \"amount\": 1000}");
    let pending = tokio::spawn(async move { req.send().await.map(|r| r.status().as_u16()) });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let stats = s.stop().await;
    assert_eq!(
        pending.await.unwrap().expect("answered before the stop"),
        200
    );
    assert_eq!((stats.charges, stats.slow, stats.inflight), (1, 1, 0));
}

#[tokio::test]
async fn a_charge_completes_even_when_its_client_has_gone() {
    let s = start(ServeConfig {
        provider: ProviderConfig {
            slow: Odds { num: 1, den: 1 },
            slow_latency_us: 300_000,
            ..calm().provider
        },
        ..ServeConfig::default()
    })
    .await;
    let req = s
        .http
        .post(format!("{}/charge", s.base))
        .header("content-type", "application/json")
        .body("{\"id\": 9}")
        .timeout(Duration::from_millis(50));
    assert!(req.send().await.is_err(), "the client gave up first");
    assert_eq!(s.stats().await.charges, 0);
    tokio::time::sleep(Duration::from_millis(400)).await;
    let st = s.stats().await;
    assert_eq!((st.charges, st.inflight), (1, 0));
    s.stop().await;
}

/// The headers of a `/charge` answer that the model's provider writes on a refusal.
fn refusal_headers(res: &reqwest::Response) -> Vec<(String, String)> {
    [
        "retry-after",
        "ratelimit-policy",
        "ratelimit",
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
    ]
    .into_iter()
    .filter_map(|h| {
        let v = res.headers().get(h)?.to_str().ok()?;
        Some((h.to_string(), v.to_string()))
    })
    .collect()
}

#[tokio::test]
async fn a_refused_charge_carries_the_model_providers_retry_after_and_ratelimit() {
    use sim::incident::{Incident, IncidentPlan};
    let charge = |s: &Running, id: u32| {
        s.http
            .post(format!("{}/charge", s.base))
            .header("content-type", "application/json")
            .body(format!("{{\"id\": {id}}}"))
            .send()
    };
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    };

    // 429: two a second, the third within the same second. The window has room again
    // under a second after the first, so every figure rounds up to 1 s.
    let mut config = calm();
    config.provider.rate_limit = 2;
    let s = start(config).await;
    let first = charge(&s, 1).await.expect("an answer");
    assert_eq!(first.status().as_u16(), 200);
    assert_eq!(refusal_headers(&first), pairs(&[]), "a 200 has none");
    charge(&s, 2).await.expect("an answer");
    let third = charge(&s, 3).await.expect("an answer");
    assert_eq!(third.status().as_u16(), 429);
    assert_eq!(
        refusal_headers(&third),
        pairs(&[
            ("retry-after", "1"),
            ("ratelimit-policy", "\"burst\";q=2;w=1"),
            ("ratelimit", "\"burst\";r=0;t=1"),
            ("ratelimit-limit", "2"),
            ("ratelimit-remaining", "0"),
            ("ratelimit-reset", "1"),
        ])
    );
    s.stop().await;

    // 503 of a full provider: one in flight at a time, the second refused at once with
    // the overloaded provider's one second.
    let mut config = calm();
    config.provider.max_inflight = 1;
    config.provider.latency_us = 300_000;
    config.provider.latency_jitter_us = 0;
    let s = start(config).await;
    let (a, b) = tokio::join!(charge(&s, 1), charge(&s, 2));
    let (a, b) = (a.expect("an answer"), b.expect("an answer"));
    let refused = if a.status().as_u16() == 503 { &a } else { &b };
    assert_eq!(refused.status().as_u16(), 503, "{a:?} {b:?}");
    let h = refusal_headers(refused);
    assert_eq!(h[0], ("retry-after".to_string(), "1".to_string()), "{h:?}");
    assert_eq!(
        h[1],
        (
            "ratelimit-policy".to_string(),
            "\"burst\";q=100;w=1".to_string()
        )
    );
    s.stop().await;

    // 503 of a provider that is down for its first 5 s: answered after the usual
    // latency, asking for the time left until the incident ends, in whole seconds. The
    // server's clock starts at the wall clock's last whole second, so less than a
    // second has passed: 5 s or 4 s are left, rounded up.
    let mut config = calm();
    config.provider.incident = IncidentPlan {
        kind: Incident::Down,
        start_us: 0,
        length_us: 5_000_000,
    };
    let s = start(config).await;
    let down = charge(&s, 1).await.expect("an answer");
    assert_eq!(down.status().as_u16(), 503);
    let h = refusal_headers(&down);
    assert!(
        h[0] == ("retry-after".to_string(), "5".to_string())
            || h[0] == ("retry-after".to_string(), "4".to_string()),
        "{h:?}"
    );
    s.stop().await;
}

#[tokio::test]
async fn the_providers_incident_is_timed_from_the_last_reset() {
    use sim::incident::{Incident, IncidentPlan};
    // Down from 400 ms to 800 ms of the provider's time. The server has been up for more
    // than a second when the run resets it, so an incident timed from the server's start
    // would be over before the first charge.
    let mut config = calm();
    config.provider.incident = IncidentPlan {
        kind: Incident::Down,
        start_us: 400_000,
        length_us: 400_000,
    };
    let s = start(config).await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert_eq!(s.post("/reset", "").await.0, 200);
    let reset = tokio::time::Instant::now();
    let charge = |id: u32| {
        s.http
            .post(format!("{}/charge", s.base))
            .header("content-type", "application/json")
            .body(format!("{{\"id\": {id}}}"))
            .send()
    };
    let before = charge(1).await.expect("an answer");
    assert_eq!(before.status().as_u16(), 200, "before the incident");
    tokio::time::sleep_until(reset + Duration::from_millis(550)).await;
    let during = charge(2).await.expect("an answer");
    assert_eq!(during.status().as_u16(), 503, "during the incident");
    // Less than 300 ms to the incident's end, rounded up to whole seconds.
    assert_eq!(during.headers()["retry-after"], "1");
    tokio::time::sleep_until(reset + Duration::from_millis(950)).await;
    let after = charge(3).await.expect("an answer");
    assert_eq!(after.status().as_u16(), 200, "after the incident");
    let stats = s.stop().await;
    assert_eq!((stats.charges, stats.overloaded), (2, 1));
}

#[tokio::test]
async fn stats_carry_the_incidents_figures_measured_from_what_reached_the_provider() {
    use sim::incident::{Incident, IncidentPlan, PEAK_SPAN_US, RATE_SPAN_US, RECOVERED_PERCENT};
    const START_MS: u64 = 500;
    const LENGTH_MS: u64 = 700;
    const END_MS: u64 = START_MS + LENGTH_MS;
    const LATENCY_MS: u64 = 50;
    let mut config = calm();
    config.provider.latency_us = LATENCY_MS * 1_000;
    config.provider.latency_jitter_us = 0;
    config.provider.incident = IncidentPlan {
        kind: Incident::Down,
        start_us: START_MS * 1_000,
        length_us: LENGTH_MS * 1_000,
    };
    let s = start(config).await;
    assert_eq!(s.post("/reset", "").await.0, 200);
    let reset = tokio::time::Instant::now();
    // Groups of charges sent at once, each at a planned time since the reset (the
    // server's clock starts a little before the client's, when it handles the reset).
    // Groups are at least 150 ms apart, so no 100 ms span holds two of them: the peak is
    // the largest group inside the incident. Every group stays 100 ms clear of the
    // incident's edges, and each charge completes 50 ms after it arrives.
    let plan: [(u64, u32); 8] = [
        (50, 10),   // before: 10 charges in the second before the incident
        (650, 4),   // during: a burst of four
        (850, 1),   // during
        (1_050, 1), // during
        (1_350, 5), // after: five charges
        (2_700, 4), // four more, 1.35 s after the first five: not yet flowing
        (2_900, 5), // five more: nine within a second, flowing again
        (3_100, 1), // one more after the recovery, which changes nothing
    ];
    for pair in plan.windows(2) {
        assert!(pair[1].0 - pair[0].0 >= 150, "the plan keeps groups apart");
    }
    let during = |t_ms: u64| (START_MS..END_MS).contains(&t_ms);
    let mut next_id = 1;
    let mut sent_ms = Vec::new();
    let mut before_recovered = None;
    for (i, &(at_ms, count)) in plan.iter().enumerate() {
        if i == 6 {
            // Not yet recovered: the recovery reads up to the provider's last answer,
            // the four charges completed at 2.75 s.
            before_recovered = Some(s.stats().await);
        }
        tokio::time::sleep_until(reset + Duration::from_millis(at_ms)).await;
        sent_ms.push(reset.elapsed().as_millis() as u64);
        // Each in its own task, so the group goes out at once.
        let sends: Vec<_> = (0..count)
            .map(|k| {
                let req = s
                    .http
                    .post(format!("{}/charge", s.base))
                    .header("content-type", "application/json")
                    .body(format!("{{\"id\": {}}}", next_id + k));
                tokio::spawn(async move { req.send().await.map(|r| r.status().as_u16()) })
            })
            .collect();
        next_id += count;
        let expected = if during(at_ms) { 503 } else { 200 };
        for handle in sends {
            let code = handle.await.expect("the task").expect("an answer");
            assert_eq!(code, expected, "at {at_ms} ms");
        }
    }
    let stats = s.stats().await;
    let incident_requests: u64 = plan
        .iter()
        .filter(|(t, _)| during(*t))
        .map(|&(_, n)| u64::from(n))
        .sum();
    let peak_group = plan
        .iter()
        .filter(|(t, _)| during(*t))
        .map(|&(_, n)| u64::from(n))
        .max()
        .unwrap_or(0);
    assert_eq!(stats.incident_requests, incident_requests, "{stats:?}");
    assert_eq!(
        stats.incident_peak_rate,
        peak_group * (1_000_000 / PEAK_SPAN_US),
        "{stats:?}"
    );
    assert_eq!(stats.overloaded, incident_requests, "down: every one 503");

    // Recovery. N = ⌈90% of the charges in the second before the incident⌉; the first
    // second after the end holding N completions ends at the last group's completion.
    let before = u64::from(plan[0].1);
    let needed = (before * RECOVERED_PERCENT).div_ceil(100);
    let after: Vec<(u64, u64)> = plan
        .iter()
        .zip(&sent_ms)
        .filter(|((t, _), _)| *t >= END_MS)
        .map(|(&(_, n), &sent)| (sent + LATENCY_MS, u64::from(n)))
        .collect();
    // The first group whose completion, with the groups less than a second before it,
    // makes N: the recovery ends there, and the span started a second earlier.
    let done_ms = after
        .iter()
        .find(|&&(t, _)| {
            after
                .iter()
                .filter(|&&(u, _)| u <= t && t - u < RATE_SPAN_US / 1_000)
                .map(|&(_, n)| n)
                .sum::<u64>()
                >= needed
        })
        .map(|&(t, _)| t)
        .expect("the plan recovers");
    let expected_ms = done_ms - RATE_SPAN_US / 1_000 - END_MS;
    // The server's clock runs a hair ahead of the client's (it starts when it handles
    // the reset), and a busy machine delays an arrival: 60 ms of slack late, 10 early.
    assert!(
        (expected_ms.saturating_sub(10)..=expected_ms + 60).contains(&stats.recovery_ms),
        "recovery {} ms, expected about {expected_ms} ms: {stats:?}",
        stats.recovery_ms
    );
    // Before the last group, not yet recovered: the time from the end to the provider's
    // last answer, the completion of the group sent at 2.7 s.
    let b = before_recovered.expect("read before the last groups");
    let last_answer_ms = sent_ms[5] + LATENCY_MS - END_MS;
    assert!(
        (last_answer_ms.saturating_sub(10)..=last_answer_ms + 60).contains(&b.recovery_ms),
        "recovery before recovering {} ms, expected about {last_answer_ms} ms: {b:?}",
        b.recovery_ms
    );
    // A reset clears the meter with the rest.
    assert_eq!(s.post("/reset", "").await.0, 200);
    assert_eq!(
        s.stats().await,
        ProviderStats {
            run: 2,
            ..ProviderStats::default()
        }
    );
    s.stop().await;
}

/// Sends `n` GETs to `path` at once from `key`; each answer's status and how long it
/// took, in the order they were sent.
async fn volley(s: &Running, path: &str, key: &str, n: usize) -> Vec<(u16, Duration)> {
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            let req = s
                .http
                .get(format!("{}{path}", s.base))
                .header("x-api-key", key);
            tokio::spawn(async move {
                let started = std::time::Instant::now();
                let res = req.send().await.expect("an answer");
                (res.status().as_u16(), started.elapsed())
            })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.expect("the request task"));
    }
    out
}

#[tokio::test]
async fn the_newer_limiter_endpoints_answer_with_the_headers_and_key_by_api_key() {
    let s = start(ServeConfig::default()).await;
    // The counter and GCRA answer at once, like the bucket: ten of eleven in a row (the
    // counter's previous window may weigh in, GCRA may earn one back on a slow machine).
    for path in ["/counter", "/gcra"] {
        let mut ok = 0;
        let mut refused = None;
        for _ in 0..11 {
            let res = s.get(path, Some("acme")).await;
            assert!(res.headers().contains_key("ratelimit-policy"), "{path}");
            if res.status().as_u16() == 200 {
                ok += 1;
            } else {
                assert_eq!(res.status().as_u16(), 429, "{path}");
                refused = Some(res);
            }
        }
        if let Some(res) = refused {
            assert!(ok <= 10, "{path}: {ok}");
            assert!(res.headers().contains_key("retry-after"), "{path}");
            assert_eq!(res.text().await.unwrap(), "slow down\n");
        } else {
            assert_eq!(
                path, "/gcra",
                "the counter refuses the eleventh within a second"
            );
        }
        let other = s.get(path, Some("bakery")).await;
        assert_eq!(other.status().as_u16(), 200, "{path}");
    }
    // Eleven at once into the queue: one served, nine waiting their turn 100 ms apart,
    // the eleventh refused at once. With nodelay the same admissions, all answered at once.
    for (path, delayed) in [("/queue", true), ("/nodelay", false)] {
        let answers = volley(&s, path, "acme", 11).await;
        let ok: Vec<Duration> = answers
            .iter()
            .filter(|(st, _)| *st == 200)
            .map(|&(_, d)| d)
            .collect();
        let refused: Vec<Duration> = answers
            .iter()
            .filter(|(st, _)| *st == 429)
            .map(|&(_, d)| d)
            .collect();
        assert_eq!(ok.len() + refused.len(), 11, "{path}: {answers:?}");
        assert!((10..=11).contains(&ok.len()), "{path}: {answers:?}");
        let slowest = ok.iter().max().unwrap();
        if delayed {
            // The last admitted waited for the nine ahead of it (less what the
            // volley's own spread let drain).
            assert!(
                *slowest >= Duration::from_millis(700),
                "{path}: {answers:?}"
            );
        } else {
            assert!(*slowest < Duration::from_millis(500), "{path}: {answers:?}");
        }
        assert!(
            refused.iter().all(|d| *d < Duration::from_millis(500)),
            "a refusal is never held: {answers:?}"
        );
    }
    // Ten in flight at once, each held 15 ms: an eleventh sent meanwhile is refused; once
    // they are answered, their slots are free again.
    let answers = volley(&s, "/inflight", "acme", 11).await;
    let ok: Vec<&(u16, Duration)> = answers.iter().filter(|(st, _)| *st == 200).collect();
    assert!(ok.len() <= 11 && ok.len() >= 10, "{answers:?}");
    assert!(
        ok.iter().all(|(_, d)| *d >= Duration::from_millis(15)),
        "an admitted request holds its slot for its service time: {answers:?}"
    );
    let again = s.get("/inflight", Some("acme")).await;
    assert_eq!(again.status().as_u16(), 200);
    assert_eq!(again.text().await.unwrap(), "ok\n");
    s.stop().await;
}

//! `ratelab serve` against hostile clients: requests that once stopped or escaped a
//! server, slow and silent connections, more connections than the cap, unique keys and
//! callers without end, strict bodies, and `/reset` racing charges. After each, the
//! server must still answer a plain request.

use ratelab::dist::Dist;
use ratelab::doors::{self, Bounds};
use ratelab::server::{serve, ProviderStats, ServeConfig, Service};
use sim::provider::ProviderConfig;
use sim::rng::Odds;
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::Instant;

struct Running {
    addr: std::net::SocketAddr,
    base: String,
    service: Service,
    stop: oneshot::Sender<()>,
    done: JoinHandle<std::io::Result<ProviderStats>>,
    http: reqwest::Client,
}

async fn start(config: ServeConfig) -> Running {
    let listener = doors::listen("127.0.0.1:0".parse().unwrap()).expect("a port");
    let addr = listener.local_addr().expect("an address");
    let (stop, stopped) = oneshot::channel::<()>();
    let service = Service::new(config).expect("a valid config");
    let done = tokio::spawn(serve(listener, service.clone(), async {
        let _ = stopped.await;
    }));
    Running {
        addr,
        base: format!("http://{addr}"),
        service,
        stop,
        done,
        http: reqwest::Client::builder().no_proxy().build().unwrap(),
    }
}

impl Running {
    /// Sends `raw` on a new connection and reads until the server closes it or `wait`
    /// passes; returns what came back.
    async fn raw(&self, raw: &[u8], wait: Duration) -> String {
        let mut c = TcpStream::connect(self.addr).await.expect("a connection");
        c.write_all(raw).await.expect("sent");
        let mut got = Vec::new();
        let _ = tokio::time::timeout(wait, c.read_to_end(&mut got)).await;
        String::from_utf8_lossy(&got).into_owned()
    }

    /// The server still answers a plain request, at once.
    async fn still_serving(&self) {
        let res = tokio::time::timeout(
            Duration::from_secs(2),
            self.http.get(format!("{}/stats", self.base)).send(),
        )
        .await
        .expect("answered within 2 s")
        .expect("an answer");
        assert_eq!(res.status().as_u16(), 200);
    }

    async fn charge(&self, id: u32, key: Option<&str>) -> (u16, serde_json::Value) {
        let mut req = self
            .http
            .post(format!("{}/charge", self.base))
            .header("content-type", "application/json")
            .body(format!("{{\"id\": {id}, \"amount\": 1000}}"));
        if let Some(k) = key {
            req = req.header("idempotency-key", k);
        }
        let res = req.send().await.expect("an answer");
        let status = res.status().as_u16();
        (
            status,
            serde_json::from_str(&res.text().await.expect("a body")).expect("a JSON body"),
        )
    }

    async fn stop(self) -> ProviderStats {
        let _ = self.stop.send(());
        tokio::time::timeout(Duration::from_secs(10), self.done)
            .await
            .expect("stopped within 10 s")
            .expect("the server task")
            .expect("a clean stop")
    }
}

/// A provider whose dice never fire, quick, with room for many requests.
fn calm() -> ProviderConfig {
    ProviderConfig {
        server_error: Odds::NEVER,
        slow: Odds::NEVER,
        latency_us: 2_000,
        latency_jitter_us: 0,
        rate_limit: 100_000,
        max_inflight: 1_000,
        ..ProviderConfig::default()
    }
}

/// A built app's folder beside a sibling that must never be served.
fn app_folder() -> (PathBuf, Dist) {
    let root = std::env::temp_dir().join(format!("rll-doors-{}", std::process::id()));
    let dist = root.join("dist");
    let secret = root.join("dist-secret");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::create_dir_all(&secret).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><title>lab</title>").unwrap();
    let script = "export const loaded = true;\n".repeat(40);
    std::fs::write(dist.join("loader.js"), &script).unwrap();
    let mut gz = Vec::new();
    {
        // A .gz as the build writes it: any valid gzip member of the file.
        use std::io::Write;
        let mut e = GzipStore::new(&mut gz);
        e.write_all(script.as_bytes()).unwrap();
    }
    std::fs::write(dist.join("loader.js.gz"), gz).unwrap();
    std::fs::write(secret.join("x.txt"), "SECRET").unwrap();
    let opened = Dist::open(&dist).expect("a built app");
    (root, opened)
}

/// A gzip writer with stored (uncompressed) blocks: enough for a test, no dependency.
struct GzipStore<'a> {
    out: &'a mut Vec<u8>,
    data: Vec<u8>,
}

impl<'a> GzipStore<'a> {
    fn new(out: &'a mut Vec<u8>) -> Self {
        Self {
            out,
            data: Vec::new(),
        }
    }
}

impl std::io::Write for GzipStore<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.data.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for GzipStore<'_> {
    fn drop(&mut self) {
        let crc = {
            let mut c = !0u32;
            for &b in &self.data {
                c ^= u32::from(b);
                for _ in 0..8 {
                    c = if c & 1 == 1 {
                        (c >> 1) ^ 0xEDB8_8320
                    } else {
                        c >> 1
                    };
                }
            }
            !c
        };
        self.out
            .extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
        let len = self.data.len() as u16;
        self.out.push(1);
        self.out.extend_from_slice(&len.to_le_bytes());
        self.out.extend_from_slice(&(!len).to_le_bytes());
        self.out.extend_from_slice(&self.data);
        self.out.extend_from_slice(&crc.to_le_bytes());
        self.out
            .extend_from_slice(&(self.data.len() as u32).to_le_bytes());
    }
}

fn status_of(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

#[tokio::test]
async fn requests_that_once_stopped_or_escaped_the_static_server_get_a_clear_answer() {
    let (root, dist) = app_folder();
    let s = start(ServeConfig {
        dist: Some(dist),
        ..ServeConfig::default()
    })
    .await;
    let wait = Duration::from_millis(500);
    let cases: [(&str, u16); 9] = [
        // A malformed percent-escape, and an absolute-form target that does not parse.
        (
            "GET /%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            404,
        ),
        (
            "GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            400,
        ),
        // A sibling folder whose name starts with the app's.
        (
            "GET /..%2Fdist-secret%2Fx.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            404,
        ),
        (
            "GET /../dist-secret/x.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            404,
        ),
        // A dotted alias of a real file.
        (
            "GET /x1%2F..%2Floader.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            404,
        ),
        (
            "GET /%2e%2e/dist-secret/x.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            404,
        ),
        // Methods a file does not take.
        (
            "POST /loader.js HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            405,
        ),
        (
            "DELETE /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            405,
        ),
        // The app itself.
        (
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            200,
        ),
    ];
    for (request, expected) in cases {
        let answer = s.raw(request.as_bytes(), wait).await;
        assert_eq!(status_of(&answer), expected, "{request:?}\n{answer}");
        assert!(!answer.contains("SECRET"), "{request:?}");
        if expected == 404 || expected == 405 {
            assert!(answer.contains("\"error\""), "a sentence: {answer}");
        }
        s.still_serving().await;
    }

    // The build's .gz to a client that takes gzip, the file itself to one that does not.
    let plain = std::fs::read(root.join("dist/loader.js")).unwrap();
    let gz = std::fs::read(root.join("dist/loader.js.gz")).unwrap();
    let get = |encoding: Option<&'static str>| {
        let mut req = s.http.get(format!("{}/loader.js", s.base));
        if let Some(e) = encoding {
            req = req.header("accept-encoding", e);
        }
        req.send()
    };
    let zipped = get(Some("gzip, br")).await.unwrap();
    assert_eq!(zipped.headers()["content-encoding"], "gzip");
    assert_eq!(zipped.headers()["access-control-allow-origin"], "*");
    assert!(zipped.headers()["vary"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase()
        .contains("accept-encoding"));
    assert_eq!(zipped.bytes().await.unwrap().as_ref(), gz.as_slice());
    for encoding in [None, Some("identity"), Some("gzip;q=0")] {
        let res = get(encoding).await.unwrap();
        assert!(
            !res.headers().contains_key("content-encoding"),
            "{encoding:?}"
        );
        assert_eq!(res.headers()["access-control-allow-origin"], "*");
        assert_eq!(res.bytes().await.unwrap().as_ref(), plain.as_slice());
    }
    // The endpoints are still the provider's.
    assert_eq!(s.charge(1, None).await.0, 200);
    s.stop().await;
    let _ = std::fs::remove_dir_all(root);
}

#[tokio::test]
async fn slow_and_silent_connections_are_closed_on_time_and_others_are_served() {
    let bounds = Bounds {
        header_timeout: Duration::from_millis(400),
        idle_timeout: Duration::from_millis(700),
        body_timeout: Duration::from_millis(400),
        ..Bounds::default()
    };
    let s = start(ServeConfig {
        provider: calm(),
        bounds,
        ..ServeConfig::default()
    })
    .await;
    let addr = s.addr;
    // Each kind of slow client, ten of each, all at once: it returns how long until the
    // server closed its connection.
    #[derive(Clone, Copy, Debug)]
    enum Slow {
        Silent,
        HeaderByteByByte,
        UnfinishedHeader,
        TrickledBody,
        IdleAfterAnAnswer,
    }
    let kinds = [
        Slow::Silent,
        Slow::HeaderByteByByte,
        Slow::UnfinishedHeader,
        Slow::TrickledBody,
        Slow::IdleAfterAnAnswer,
    ];
    let clients: Vec<_> = kinds
        .iter()
        .flat_map(|&k| std::iter::repeat_n(k, 10))
        .map(|kind| {
            tokio::spawn(async move {
                // The clock starts before the connection does: the server's clock starts
                // when it accepts, which can come before this task resumes from connect.
                let opened = Instant::now();
                let mut c = TcpStream::connect(addr).await.unwrap();
                let mut got = Vec::new();
                match kind {
                    Slow::Silent => {
                        let _ = c.read_to_end(&mut got).await;
                    }
                    Slow::HeaderByteByByte => {
                        let (mut r, mut w) = c.split();
                        let writer = async {
                            for b in b"GET /stats HTTP/1.1\r\nX-Pad: ".iter().chain(b"a".repeat(1000).iter()) {
                                if w.write_all(&[*b]).await.is_err() {
                                    return;
                                }
                                tokio::time::sleep(Duration::from_millis(50)).await;
                            }
                        };
                        tokio::select! {
                            _ = writer => panic!("the server kept reading for 50 s"),
                            _ = r.read_to_end(&mut got) => {}
                        }
                    }
                    Slow::UnfinishedHeader => {
                        c.write_all(b"GET /stats HTTP/1.1\r\nX-Pad: ").await.unwrap();
                        c.write_all(&b"a".repeat(8_000)).await.unwrap();
                        let _ = c.read_to_end(&mut got).await;
                    }
                    Slow::TrickledBody => {
                        c.write_all(b"POST /charge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"id\":")
                            .await
                            .unwrap();
                        let (mut r, mut w) = c.split();
                        let writer = async {
                            // One byte of white space every 100 ms: never a whole body.
                            loop {
                                if w.write_all(b" ").await.is_err() {
                                    return;
                                }
                                tokio::time::sleep(Duration::from_millis(100)).await;
                            }
                        };
                        tokio::select! {
                            _ = writer => {}
                            _ = r.read_to_end(&mut got) => {}
                        }
                    }
                    Slow::IdleAfterAnAnswer => {
                        c.write_all(b"GET /stats HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
                        let _ = c.read_to_end(&mut got).await;
                    }
                }
                (kind, opened.elapsed(), String::from_utf8_lossy(&got).into_owned())
            })
        })
        .collect();
    // Meanwhile, plain requests are answered at once.
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        s.still_serving().await;
    }
    for client in clients {
        let (kind, open_for, answer) = tokio::time::timeout(Duration::from_secs(5), client)
            .await
            .expect("closed within 5 s")
            .unwrap();
        // Never before the bound; after it, within a margin wide enough for a loaded CI
        // machine (a connection left open would run to the 5 s timeout above).
        let (least, most) = match kind {
            // The idle clock: from the connection, or from the answer.
            Slow::Silent | Slow::IdleAfterAnAnswer => (700, 3_000),
            // The header clock, from the first byte.
            Slow::HeaderByteByByte | Slow::UnfinishedHeader => (400, 2_500),
            // The body clock, from the header: 408 with a sentence.
            Slow::TrickledBody => (400, 2_500),
        };
        let ms = open_for.as_millis();
        assert!(
            (least..=most).contains(&ms),
            "{kind:?} closed after {ms} ms, expected {least}–{most}: {answer}"
        );
        match kind {
            Slow::TrickledBody => {
                assert_eq!(status_of(&answer), 408, "{answer}");
                assert!(answer.contains("did not arrive within 400 ms"), "{answer}");
            }
            Slow::IdleAfterAnAnswer => assert_eq!(status_of(&answer), 200),
            _ => {}
        }
    }
    s.still_serving().await;
    let stats = s.stop().await;
    assert_eq!(stats.bad_requests, 10, "the ten trickled bodies");
}

#[tokio::test]
async fn at_the_connection_cap_a_new_client_is_served_by_closing_the_longest_idle() {
    let s = start(ServeConfig {
        bounds: Bounds {
            max_connections: 20,
            ..Bounds::default()
        },
        ..ServeConfig::default()
    })
    .await;
    // Twenty idle connections, each having had one answer, fill the cap.
    let mut idle = Vec::new();
    for _ in 0..20 {
        let mut c = TcpStream::connect(s.addr).await.unwrap();
        c.write_all(b"GET /stats HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 512];
        let n = c.read(&mut buf).await.unwrap();
        assert!(n > 0);
        idle.push(c);
    }
    // Forty more clients, one after another, each keeping its connection: each is
    // answered within a second.
    let mut newcomers = Vec::new();
    for _ in 0..40 {
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        let res = tokio::time::timeout(
            Duration::from_secs(1),
            client.get(format!("{}/stats", s.base)).send(),
        )
        .await
        .expect("answered within a second at the cap")
        .unwrap();
        assert_eq!(res.status().as_u16(), 200);
        newcomers.push(client);
    }
    // The first idle connections were the ones closed.
    let mut closed = 0;
    for c in &mut idle {
        let mut buf = [0u8; 16];
        if let Ok(Ok(0)) = tokio::time::timeout(Duration::from_millis(50), c.read(&mut buf)).await {
            closed += 1;
        }
    }
    assert!(closed >= 20, "{closed} of the idle twenty were closed");
    s.stop().await;
}

#[tokio::test]
async fn unique_keys_and_callers_stay_within_their_caps_and_expire() {
    let s = start(ServeConfig {
        provider: calm(),
        limit: sim::limiter::Policy {
            limit: 10,
            window_us: 300_000,
        },
        bounds: Bounds {
            max_keys: 100,
            key_ttl: Duration::from_millis(600),
            max_callers: 50,
            ..Bounds::default()
        },
        ..ServeConfig::default()
    })
    .await;
    // 300 charges, each with a new key: the first 100 are stored, the rest refused with
    // a sentence and a Retry-After, and the store never holds more than 100.
    let mut refused = 0;
    for i in 1..=300u32 {
        let (status, body) = s.charge(i, Some(&format!("key-{i}"))).await;
        match status {
            // Customer 97's card is declined: admitted, and its key stored, all the same.
            200 | 400 => assert!(i <= 100, "key {i} was stored past the cap"),
            503 => {
                refused += 1;
                let said = body["error"].as_str().unwrap();
                assert!(said.contains("holds its most keys (100)"), "{said}");
            }
            other => panic!("{other}: {body}"),
        }
        assert!(s.service.stats().keys_held <= 100);
    }
    assert_eq!(refused, 200);
    let stats = s.service.stats();
    assert_eq!((stats.keys_held, stats.keys_refused), (100, 200));
    assert_eq!(
        stats.requests, 100,
        "refused keys never reached the provider"
    );
    // A held key still replays.
    assert_eq!(
        s.charge(7, Some("key-7")).await.1["result"],
        "already charged"
    );
    assert_eq!(s.service.stats().replayed, 1);
    // After the time to live, the keys are gone and new ones are taken.
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(s.charge(500, Some("late")).await.0, 200);
    assert_eq!(s.service.stats().keys_held, 1);
    // A request refused at the door (429) stores no key.
    let s2 = start(ServeConfig {
        provider: ProviderConfig {
            rate_limit: 1,
            ..calm()
        },
        ..ServeConfig::default()
    })
    .await;
    let sends: Vec<_> = (1..=50u32)
        .map(|i| {
            let (http, base) = (s2.http.clone(), s2.base.clone());
            tokio::spawn(async move {
                http.post(format!("{base}/charge"))
                    .header("content-type", "application/json")
                    .header("idempotency-key", format!("k{i}"))
                    .body(format!("{{\"id\": {i}}}"))
                    .send()
                    .await
                    .expect("an answer")
                    .status()
                    .as_u16()
            })
        })
        .collect();
    let mut codes = Vec::new();
    for send in sends {
        codes.push(send.await.unwrap());
    }
    assert!(codes.contains(&429), "{codes:?}");
    let admitted = codes.iter().filter(|&&c| c == 200).count() as u64;
    assert_eq!(s2.service.stats().keys_held, admitted, "{codes:?}");
    s2.stop().await;

    // Callers: 200 distinct x-api-keys on each per-caller endpoint; at most 50 are
    // remembered, the rest refused with a sentence.
    for path in ["/fixed", "/sliding", "/bucket"] {
        let mut refused = 0;
        for i in 0..200 {
            let res = s
                .http
                .get(format!("{}{path}", s.base))
                .header("x-api-key", format!("caller-{i}"))
                .send()
                .await
                .unwrap();
            match res.status().as_u16() {
                200 => {}
                503 => {
                    refused += 1;
                    assert!(res.headers().contains_key("retry-after"));
                    let said = res.text().await.unwrap();
                    assert!(said.contains("at most 50 callers"), "{said}");
                }
                other => panic!("{path}: {other}"),
            }
            assert!(s.service.callers().iter().all(|&n| n <= 50));
        }
        assert!(refused >= 140, "{path}: {refused} refused");
    }
    // Two windows later every caller is spent: the next one sweeps them and is taken.
    tokio::time::sleep(Duration::from_millis(700)).await;
    for path in ["/fixed", "/sliding", "/bucket"] {
        let res = s
            .http
            .get(format!("{}{path}", s.base))
            .header("x-api-key", "newcomer")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 200, "{path}");
    }
    assert!(
        s.service.callers().iter().all(|&n| n == 1),
        "{:?}",
        s.service.callers()
    );
    s.stop().await;
}

#[tokio::test]
async fn bodies_must_be_json_once_and_in_plain_or_chunked_coding() {
    let s = start(ServeConfig {
        provider: calm(),
        ..ServeConfig::default()
    })
    .await;
    let wait = Duration::from_millis(500);
    let body = "{\"id\":3,\"amount\":1000}";
    let post = |headers: &str, body: &str| {
        format!(
            "POST /charge HTTP/1.1\r\nHost: x\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    let cases = [
        (
            post("Content-Type: application/x-www-form-urlencoded\r\n", "id=3"),
            415,
            "Content-Type: application/json",
        ),
        (post("Content-Type: text/html\r\n", body), 415, "text/plain"),
        (post("Content-Type: text/plain\r\n", "id=3"), 400, "the body is not JSON"),
        (
            post("Content-Type: application/json\r\n", "{\"id\":3,\"id\":4}"),
            400,
            "gives id twice",
        ),
        (
            post(
                "Content-Type: application/json\r\n",
                "{\"id\":3,\"amount\":1,\"amount\":2}",
            ),
            400,
            "gives amount twice",
        ),
        (
            "POST /charge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n".to_string(),
            501,
            "no other transfer coding",
        ),
    ];
    for (request, expected, said) in &cases {
        let answer = s.raw(request.as_bytes(), wait).await;
        assert_eq!(status_of(&answer), *expected, "{request:?}\n{answer}");
        assert!(answer.contains(said), "{answer}");
        s.still_serving().await;
    }
    // What is right is still taken: JSON with a charset, a body that parses as JSON with
    // no type or sent as plain text (what a bare `fetch` sends a string as), and plain
    // chunks.
    for headers in [
        "Content-Type: application/json; charset=utf-8\r\n",
        "",
        "Content-Type: text/plain;charset=UTF-8\r\n",
    ] {
        let ok = s.raw(post(headers, body).as_bytes(), wait).await;
        assert_eq!(status_of(&ok), 200, "{headers:?}: {ok}");
    }
    let chunked = s
        .raw(
            format!(
                "POST /charge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{}\r\n0\r\n\r\n",
                "{\"id\":5}".len(),
                "{\"id\":5}"
            )
            .as_bytes(),
            wait,
        )
        .await;
    assert_eq!(status_of(&chunked), 200, "{chunked}");
    let stats = s.stop().await;
    assert_eq!(stats.charges, 4, "no refused body charged anyone");
    // The 501 is refused before any route, so only the other five are the provider's.
    assert_eq!(stats.bad_requests, 5);
}

#[tokio::test]
async fn a_reset_racing_charges_is_one_step_and_every_answer_is_accounted_for() {
    let s = start(ServeConfig {
        provider: ProviderConfig {
            latency_us: 20_000,
            latency_jitter_us: 10_000,
            max_inflight: 40,
            rate_limit: 2_000,
            ..calm()
        },
        ..ServeConfig::default()
    })
    .await;
    let started = Instant::now();
    // 600 charges of 200 customers (so keys repeat and replay, and some wait in 409s),
    // sent over 600 ms while the server is reset every 100 ms.
    let sends: Vec<_> = (0..600u32)
        .map(|i| {
            let http = s.http.clone();
            let base = s.base.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(u64::from(i))).await;
                let id = i % 200 + 1;
                let res = http
                    .post(format!("{base}/charge"))
                    .header("content-type", "application/json")
                    .header("idempotency-key", format!("ck-{id}"))
                    .body(format!("{{\"id\": {id}}}"))
                    .send()
                    .await
                    .expect("every charge is answered");
                let status = res.status().as_u16();
                let body: serde_json::Value =
                    serde_json::from_str(&res.text().await.expect("a body"))
                        .expect("a JSON answer");
                (status, body)
            })
        })
        .collect();
    let mut reset_ms = Vec::new();
    for _ in 0..5 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let t = Instant::now();
        let res = s
            .http
            .post(format!("{}/reset", s.base))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 200);
        reset_ms.push(t.elapsed().as_millis());
    }
    let mut answers = Vec::new();
    for send in sends {
        answers.push(send.await.expect("no task panicked"));
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    // A reset is one quick step, not a wait for the charges in flight.
    assert!(reset_ms.iter().all(|&ms| ms < 100), "{reset_ms:?}");
    s.service.settle().await;
    let stats = s.service.stats();
    assert_eq!(stats.run, 5);
    // The last run's counters agree exactly with the answers stamped with that run.
    let last: Vec<_> = answers
        .iter()
        .filter(|(_, b)| b["run"].as_u64() == Some(5))
        .collect();
    let count = |status: u16, result: &str| {
        last.iter()
            .filter(|(s, b)| *s == status && b["result"] == result)
            .count() as u64
    };
    assert_eq!(stats.requests, last.len() as u64);
    assert_eq!(stats.charges, count(200, "charged"));
    assert_eq!(stats.declined, count(400, "card declined"));
    assert_eq!(stats.in_progress_conflicts, count(409, "in progress"));
    assert_eq!(stats.rate_limited, count(429, "rate limited"));
    assert_eq!(stats.overloaded, count(503, "overloaded"));
    assert_eq!(stats.server_errors, count(500, "server error"));
    assert!(stats.replayed >= count(200, "already charged"));
    assert_eq!(
        last.len() as u64,
        stats.charges
            + count(200, "already charged")
            + stats.declined
            + stats.in_progress_conflicts
            + stats.rate_limited
            + stats.overloaded
            + stats.server_errors,
        "every answer of the last run is one of its counters"
    );
    assert_eq!(stats.inflight, 0);
    assert_eq!(stats.charges, stats.customers_charged + stats.duplicates);
    assert_eq!(
        stats.duplicates, 0,
        "keys keep every run free of double charges"
    );
    // Every answer belongs to one of the runs, and each run got some.
    for run in 0..=5 {
        assert!(
            answers.iter().any(|(_, b)| b["run"].as_u64() == Some(run)),
            "run {run}"
        );
    }
    s.still_serving().await;
    s.stop().await;
}

/// The IETF idempotency-key draft (section 2.4): a key sent again with another body names
/// another operation and is refused with 422; the same key with the same body (the same
/// `id` and `amount`, however written) is a retry, answered from the store.
#[tokio::test]
async fn a_key_sent_again_with_another_body_is_refused_with_422() {
    let s = start(ServeConfig {
        provider: calm(),
        ..ServeConfig::default()
    })
    .await;
    let post = |body: &'static str| {
        s.http
            .post(format!("{}/charge", s.base))
            .header("content-type", "application/json")
            .header("idempotency-key", "order-77")
            .body(body)
            .send()
    };
    let first = post("{\"id\": 7, \"amount\": 1000}").await.unwrap();
    assert_eq!(first.status().as_u16(), 200);
    let again = post("{ \"amount\": 1000, \"id\": 7 }").await.unwrap();
    assert_eq!(
        again.status().as_u16(),
        200,
        "the same charge, written otherwise"
    );
    let body: serde_json::Value = serde_json::from_slice(&again.bytes().await.unwrap()).unwrap();
    assert_eq!(body["result"], "already charged");
    for other in [
        "{\"id\": 7, \"amount\": 1500}",
        "{\"id\": 8, \"amount\": 1000}",
        "{\"id\": 7}",
    ] {
        let res = post(other).await.unwrap();
        assert_eq!(res.status().as_u16(), 422, "{other}");
        let body: serde_json::Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
        assert_eq!(body["result"], "key reused with another body", "{other}");
    }
    let stats = s.stop().await;
    assert_eq!(stats.charges, 1, "only the first request moved money");
}

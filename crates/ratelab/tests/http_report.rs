//! `GET /report` after known traffic, against the service in process on an ephemeral
//! port: each harm counted from what the provider's ledger holds and what each client
//! last heard (an answer, or walking away from one), never-seen customers counted as
//! lost, `/reset` clearing it, and bad input refused with a sentence.

use ratelab::doors;
use ratelab::server::{serve, ServeConfig, Service};
use sim::provider::ProviderConfig;
use sim::rng::Odds;
use std::time::Duration;
use tokio::sync::oneshot;

/// A running server and a client for it.
struct Running {
    base: String,
    service: Service,
    stop: oneshot::Sender<()>,
    http: reqwest::Client,
}

async fn start(provider: ProviderConfig) -> Running {
    let listener = doors::listen("127.0.0.1:0".parse().unwrap()).expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    let (stop, stopped) = oneshot::channel::<()>();
    let service = Service::new(ServeConfig {
        provider,
        ..ServeConfig::default()
    })
    .expect("a valid config");
    tokio::spawn(serve(listener, service.clone(), async {
        let _ = stopped.await;
    }));
    Running {
        base,
        service,
        stop,
        http: reqwest::Client::builder().no_proxy().build().unwrap(),
    }
}

/// A provider whose every admitted charge takes 300 ms, whose dice never fire, with no
/// declined card and two requests in flight at most.
fn slow_and_calm() -> ProviderConfig {
    ProviderConfig {
        server_error: Odds::NEVER,
        slow: Odds::NEVER,
        latency_us: 300_000,
        latency_jitter_us: 0,
        decline_every: 0,
        max_inflight: 2,
        ..ProviderConfig::default()
    }
}

impl Running {
    /// One unkeyed charge of `id`, given up on after `timeout`: its status, or `None`
    /// if the client stopped waiting.
    async fn charge(&self, id: u32, timeout: Duration) -> Option<u16> {
        let res = self
            .http
            .post(format!("{}/charge", self.base))
            .header("content-type", "application/json")
            .body(format!("{{\"id\": {id}, \"amount\": 1000}}"))
            .timeout(timeout)
            .send()
            .await;
        match res {
            Ok(r) => Some(r.status().as_u16()),
            Err(e) if e.is_timeout() => None,
            Err(e) => panic!("charge {id}: {e}"),
        }
    }

    async fn get(&self, path: &str, accept: Option<&str>) -> (u16, String, String) {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(a) = accept {
            req = req.header("accept", a);
        }
        let res = req.send().await.expect("an answer");
        let status = res.status().as_u16();
        let kind = res
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        (status, kind, res.text().await.expect("a body"))
    }

    async fn report(&self, query: &str) -> serde_json::Value {
        let (status, kind, body) = self.get(&format!("/report{query}"), None).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(kind, "application/json");
        serde_json::from_str(&body).expect("JSON")
    }
}

const LONG: Duration = Duration::from_secs(10);

#[tokio::test]
async fn the_report_counts_each_harm_from_the_ledger_and_what_the_client_heard() {
    let s = start(slow_and_calm()).await;
    // Customer 1: two charges without a key, one after the other: charged twice.
    assert_eq!(s.charge(1, LONG).await, Some(200));
    assert_eq!(s.charge(1, LONG).await, Some(200));
    // Customer 2: the client stops waiting after 50 ms; the charge goes through at
    // 300 ms all the same, so the client last heard nothing while the money moved.
    assert_eq!(s.charge(2, Duration::from_millis(50)).await, None);
    tokio::time::sleep(Duration::from_millis(400)).await;
    // Customer 3: refused with 503 while 4 and 5 fill both places, and never tried
    // again: a charge lost.
    let (four, five) = (s.charge(4, LONG), s.charge(5, LONG));
    let three = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        s.charge(3, LONG).await
    };
    let (four, five, three) = tokio::join!(four, five, three);
    assert_eq!((four, five, three), (Some(200), Some(200), Some(503)));
    assert_eq!(s.service.settle_within(LONG).await, 0, "settled");

    let r = s.report("").await;
    let card = &r["card"];
    assert_eq!(card["customers"], 5, "the highest id seen: {r}");
    assert_eq!(card["chargedTwice"], 1, "{r}");
    assert_eq!(card["toldWrong"], 1, "customer 2: {r}");
    assert_eq!(card["chargesLost"], 1, "customer 3: {r}");
    assert_eq!(card["unfinished"], 0, "{r}");
    assert_eq!(card["overloaded"], 1, "{r}");
    assert_eq!(card["rateLimited"], 0, "{r}");
    assert_eq!(card["requests"], 6, "{r}");
    assert_eq!(card["charges"], 5, "{r}");
    assert_eq!(card["requestsPer100Charges"], 120, "{r}");
    // Customer 1 waited for two 300 ms charges in a row, from its first request.
    let p99 = card["waitP99Ms"].as_u64().unwrap();
    assert!((600..3_000).contains(&p99), "{r}");
    assert!(card["elapsedMs"].as_u64().unwrap() >= 1_000, "{r}");
    assert_eq!(r["fails"], true);
    assert_eq!(r["highestCustomer"], 5);
    assert_eq!(r["inflight"], 0);
    // Beside it, the built-in strategies on the same provider and 5 customers.
    assert_eq!(r["best"]["customers"], 5, "{r}");
    assert_eq!(r["best"]["chargedTwice"], 0, "{r}");
    assert_eq!(r["best"]["chargesLost"], 0, "{r}");
    // Naive (five at once against two places) and paced lose charges: the first of the
    // ladder that passed is retry.
    assert_eq!(r["bestStrategy"]["chargedTwice"], "retry", "{r}");
    assert!(r["bestStrategy"].get("customers").is_none(), "{r}");

    // Asked for 8 customers: 6, 7 and 8 never came, so their charges are lost too, and
    // the client never finished with them.
    let r8 = s.report("?customers=8").await;
    assert_eq!(r8["card"]["customers"], 8);
    assert_eq!(r8["card"]["chargesLost"], 4, "{r8}");
    assert_eq!(r8["card"]["unfinished"], 3, "{r8}");
    assert_eq!(r8["card"]["chargedTwice"], 1, "{r8}");
    // Asked for fewer: the card says the others are not on it.
    let r2 = s.report("?customers=2").await;
    assert_eq!(r2["card"]["chargesLost"], 0, "{r2}");
    assert!(
        r2["notes"][0]
            .as_str()
            .unwrap()
            .contains("Customers up to 5"),
        "{r2}"
    );

    // A reset clears it all.
    let reset = s
        .http
        .post(format!("{}/reset", s.base))
        .send()
        .await
        .unwrap();
    assert_eq!(reset.status().as_u16(), 200);
    let empty = s.report("").await;
    assert_eq!(empty["card"]["customers"], 0, "{empty}");
    assert_eq!(empty["card"]["requests"], 0, "{empty}");
    assert_eq!(empty["highestCustomer"], 0);
    assert_eq!(empty["best"], serde_json::Value::Null);
    assert_eq!(empty["fails"], false);
    assert!(
        empty["notes"][0].as_str().unwrap().contains("No charge"),
        "{empty}"
    );
    let _ = s.stop.send(());
}

#[tokio::test]
async fn a_request_walked_away_from_that_charged_nothing_is_a_charge_lost() {
    // Every admitted charge takes a second and fails with 500: nothing is ever charged.
    let s = start(ProviderConfig {
        server_error: Odds::one_in(1),
        latency_us: 1_000_000,
        ..slow_and_calm()
    })
    .await;
    assert_eq!(s.charge(1, Duration::from_millis(50)).await, None);
    // Customer 2's client waits: until its answer, the customer is unfinished.
    let two = tokio::spawn({
        let (http, base) = (s.http.clone(), s.base.clone());
        async move {
            http.post(format!("{base}/charge"))
                .body("{\"id\": 2}")
                .send()
                .await
                .map(|r| r.status().as_u16())
        }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let during = s.report("").await;
    // Customer 1's client has walked away: it is done with it, and nothing is charged
    // yet; the provider still works on both requests.
    assert_eq!(during["card"]["unfinished"], 1, "{during}");
    assert_eq!(during["card"]["chargesLost"], 2, "{during}");
    assert_eq!(during["inflight"], 2, "{during}");
    assert!(
        during["notes"].as_array().unwrap().iter().any(|n| n
            .as_str()
            .unwrap()
            .contains("2 requests are still being worked on")),
        "{during}"
    );
    assert_eq!(two.await.unwrap().unwrap(), 500);
    assert_eq!(s.service.settle_within(LONG).await, 0, "settled");
    let r = s.report("").await;
    // Both failed with 500 and charged nothing: two charges lost, nobody told wrong.
    assert_eq!(r["card"]["chargesLost"], 2, "{r}");
    assert_eq!(r["card"]["toldWrong"], 0, "{r}");
    assert_eq!(r["card"]["unfinished"], 0, "{r}");
    assert_eq!(r["card"]["charges"], 0, "{r}");
    assert_eq!(r["inflight"], 0, "{r}");
    // Nothing is in flight any more; and on a provider that fails every charge, no
    // built-in strategy passes either.
    assert_eq!(r["notes"].as_array().unwrap().len(), 1, "{r}");
    assert!(
        r["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("No built-in strategy passed"),
        "{r}"
    );
    assert_eq!(r["best"]["chargesLost"], 2, "{r}");
    let _ = s.stop.send(());
}

#[tokio::test]
async fn a_browser_gets_the_page_and_anyone_may_ask_for_either() {
    let s = start(slow_and_calm()).await;
    assert_eq!(s.charge(1, LONG).await, Some(200));
    let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    let (status, kind, page) = s.get("/report", Some(browser)).await;
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(
        page.contains("Passed: no customer was charged twice"),
        "{page}"
    );
    assert!(page.contains("data-figure=\"chargedTwice\""), "{page}");
    // `format` overrides Accept both ways; curl's and fetch's */* get JSON, as does a
    // client that weighs JSON above HTML.
    for (path, accept, html) in [
        ("/report?format=json", Some(browser), false),
        ("/report?format=html", None, true),
        ("/report", Some("*/*"), false),
        ("/report", None, false),
        ("/report", Some("application/json, text/html;q=0.5"), false),
        ("/report", Some("text/*"), true),
    ] {
        let (status, kind, body) = s.get(path, accept).await;
        assert_eq!(status, 200, "{path} {accept:?}: {body}");
        assert_eq!(kind.starts_with("text/html"), html, "{path} {accept:?}");
    }
    let _ = s.stop.send(());
}

#[tokio::test]
async fn bad_report_queries_get_400_with_a_sentence() {
    let s = start(slow_and_calm()).await;
    for (query, expected) in [
        ("?customers=0", "0 is outside 1–1000000"),
        ("?customers=1000001", "outside 1–1000000"),
        ("?customers=many", "'many' is not a whole number"),
        ("?customers=", "not a whole number"),
        ("?customers=3&customers=4", "give customers once"),
        ("?format=xml", "format is json or html, not xml"),
        ("?format=json&format=html", "give format once"),
        (
            "?seed=3",
            "/report takes only ?customers=N and ?format=json|html, not seed",
        ),
    ] {
        let (status, _, body) = s.get(&format!("/report{query}"), None).await;
        assert_eq!(status, 400, "{query}: {body}");
        let v: serde_json::Value = serde_json::from_str(&body).expect("a JSON error");
        let said = v["error"].as_str().unwrap();
        assert!(said.contains(expected), "{query}: {said}");
    }
    // A million customers is allowed; the comparison is left out above its cap, and
    // the card still counts every one.
    let r = s.report("?customers=1000000").await;
    assert_eq!(r["card"]["customers"], 1_000_000);
    assert_eq!(r["card"]["chargesLost"], 1_000_000, "{}", r["notes"]);
    assert_eq!(r["card"]["unfinished"], 1_000_000, "{}", r["notes"]);
    assert_eq!(r["best"], serde_json::Value::Null);
    assert!(
        r["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("at most 100,000 customers")),
        "{r}"
    );
    // The server still answers a charge.
    assert_eq!(s.charge(1, LONG).await, Some(200));
    let _ = s.stop.send(());
}

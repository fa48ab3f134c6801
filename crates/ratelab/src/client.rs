//! `ratelab charges --http URL`: a strategy run for real, against a server that speaks
//! `ratelab serve`'s API.
//!
//! The runner is the simulation's event loop with a real clock: it drives the same
//! [`Client`] and [`ChargeTask`]s (so the same pacer, backoff, timeout, key and pool
//! code), telling them the microseconds since the run started. Sleeps are tokio timers;
//! a send is an HTTP POST in its own task, and a timeout drops that request (its
//! connection closes; the server still finishes the charge). Every timer and answer comes
//! back to the one loop as an event, so the state machine is only ever touched there.
//! An answer comes back with its headers, which the state machine reads as the
//! simulation hands it the model provider's: a strategy that obeys `Retry-After` and
//! `RateLimit` obeys the real ones.

use super::server::ProviderStats;
use page::shared::words::Words;
use sim::provider::Status;
use sim::rng::KeyedDraws;
use sim::stats::ClientCounters;
use sim::strategy::charge::{Attempt, ChargeTask, Client, Outcome, Step};
use sim::strategy::Launch;
use sim::{Scenario, Stats};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// What the runner learns about one charge.
#[derive(Debug)]
enum Event {
    /// A sleep (pacer turn or backoff) is over.
    Wake(u32),
    /// An attempt was answered with this status and these headers.
    Answer {
        customer: u32,
        attempt: u32,
        status: Status,
        headers: Vec<(String, String)>,
    },
    /// An attempt got no answer: its timeout passed, or the connection failed.
    NoAnswer {
        customer: u32,
        attempt: u32,
        transport_error: bool,
    },
}

/// One real run's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRun {
    /// The same stats a simulated run has: the provider's from `/stats`, the client's
    /// (`retriedDeclined`, `gaveUp`, `clientMaxOutstanding`, `elapsedMs`,
    /// `budgetExhausted`, `breakerOpens`, `concurrencyPeak`, `concurrencyMean` and the
    /// customers' waits `waitP50Ms`, `waitP99Ms`, `waitMaxMs`) from here.
    /// Requests per charge is derived as a simulated run derives it; the incident's
    /// figures (`incidentRequests`, `incidentPeakRate`, `recoveryMs`) are the server's
    /// meter's, from `/stats`.
    pub stats: Stats,
    /// Attempts that failed without an HTTP answer for another reason than the client's
    /// own timeout (a refused or reset connection); each counted as a failed attempt.
    pub transport_errors: u64,
}

/// A server that speaks `ratelab serve`'s API, at a checked `http://` address.
#[derive(Clone, Debug)]
pub struct Remote {
    base: String,
    http: reqwest::Client,
}

impl Remote {
    /// Checks the address (`http://host:port`, no path beyond `/`).
    pub fn new(url: &str) -> Result<Self, String> {
        let parsed = reqwest::Url::parse(url).map_err(|e| {
            format!("--http expects an address like http://127.0.0.1:55541, not {url:?} ({e})")
        })?;
        if parsed.scheme() != "http" {
            return Err(format!(
                "--http speaks plain http:// to a local server, not {}://",
                parsed.scheme()
            ));
        }
        if parsed.path() != "/" || parsed.query().is_some() {
            return Err(format!(
                "--http takes the server's address only (like http://127.0.0.1:55541), not a path: {url:?}"
            ));
        }
        let http = reqwest::Client::builder()
            .no_proxy()
            .build()
            .map_err(|e| format!("could not start the HTTP client: {e}"))?;
        Ok(Self {
            base: url.trim_end_matches('/').to_string(),
            http,
        })
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `POST /reset?seed=N`.
    pub async fn reset(&self, seed: u64) -> Result<(), String> {
        let res = self
            .http
            .post(self.url(&format!("/reset?seed={seed}")))
            .send()
            .await
            .map_err(|e| format!("could not reach {}: {e}", self.base))?;
        if !res.status().is_success() {
            return Err(format!(
                "{} answered /reset with {}: is it `ratelab serve`?",
                self.base,
                res.status()
            ));
        }
        Ok(())
    }

    /// `GET /stats`.
    pub async fn stats(&self) -> Result<ProviderStats, String> {
        let res = self
            .http
            .get(self.url("/stats"))
            .send()
            .await
            .map_err(|e| format!("could not reach {}: {e}", self.base))?;
        let body = res
            .bytes()
            .await
            .map_err(|e| format!("{} broke off its /stats answer: {e}", self.base))?;
        serde_json::from_slice(&body).map_err(|e| {
            format!(
                "{}'s /stats is not `ratelab serve`'s ({e}): {}",
                self.base,
                String::from_utf8_lossy(&body[..body.len().min(200)])
            )
        })
    }

    /// Resets the server with the scenario's seed, runs the scenario's strategy against
    /// it, waits for the server to finish every charge, and returns the run's figures.
    pub async fn run(&self, scenario: &Scenario) -> Result<HttpRun, String> {
        scenario.validate().map_err(|e| e.sentence())?;
        self.reset(scenario.seed).await?;
        let runner = Runner::new(self.clone(), scenario);
        let (counters, transport_errors) = runner.run().await;
        // A timed-out charge may still be processing: the provider's counters are
        // final once nothing is in flight.
        let deadline = Instant::now() + Duration::from_secs(60);
        let provider = loop {
            let s = self.stats().await?;
            if s.inflight == 0 {
                break s;
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "{} still had {} charges in flight a minute after the run ended",
                    self.base, s.inflight
                ));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let stats = Stats::with_client(&provider.to_stats(), &counters);
        Ok(HttpRun {
            stats: Stats {
                requests_per_100_charges: stats.requests_per_charge_hundredths().unwrap_or(0),
                ..stats
            },
            transport_errors,
        })
    }
}

/// The status an HTTP code stands for, if the provider answers with it.
fn status_of(code: u16) -> Option<Status> {
    Status::ALL.into_iter().find(|s| s.code() == code)
}

/// One run in progress: the state machine, its tasks, and the counters.
struct Runner {
    remote: Remote,
    client: Client,
    tasks: Vec<ChargeTask>,
    dice: KeyedDraws,
    origin: Instant,
    next_customer: u32,
    counters: ClientCounters,
    transport_errors: u64,
    events: mpsc::UnboundedSender<Event>,
    inbox: mpsc::UnboundedReceiver<Event>,
}

impl Runner {
    fn new(remote: Remote, scenario: &Scenario) -> Self {
        let (events, inbox) = mpsc::unbounded_channel();
        Self {
            remote,
            client: Client::new(scenario.strategy.plan(&scenario.client))
                .with_dice(KeyedDraws::from_seed(scenario.seed)),
            tasks: (1..=scenario.customers).map(ChargeTask::new).collect(),
            dice: KeyedDraws::from_seed(scenario.seed),
            origin: Instant::now(),
            next_customer: 1,
            counters: ClientCounters::default(),
            transport_errors: 0,
            events,
            inbox,
        }
    }

    fn now_us(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_micros()).unwrap_or(u64::MAX)
    }

    fn customers(&self) -> u32 {
        u32::try_from(self.tasks.len()).expect("customers fit a u32")
    }

    async fn run(mut self) -> (ClientCounters, u64) {
        self.origin = Instant::now();
        match self.client.plan().launch {
            // Every charge starts at the same instant and asks the pacer for its turn in
            // order, as the article's `Promise.all` over 1,000 ids does.
            Launch::AllAtOnce => {
                let t0 = self.now_us();
                for customer in 1..=self.customers() {
                    self.next_customer = customer + 1;
                    let step = self.client.begin(task_mut(&mut self.tasks, customer), t0);
                    self.apply(customer, step);
                }
            }
            Launch::Workers(workers) => {
                for _ in 0..workers.min(self.customers()) {
                    self.start_next();
                }
            }
            Launch::Adaptive(_) => self.fill(),
        }
        while self.counters.customers_done < u64::from(self.customers()) {
            let Some(event) = self.inbox.recv().await else {
                break;
            };
            self.handle(event);
        }
        let tally = self.client.tally();
        self.counters.budget_exhausted = tally.budget_exhausted;
        self.counters.breaker_opens = tally.breaker_opens;
        (self.counters, self.transport_errors)
    }

    /// Starts charges while fewer are in progress than the adaptive limit allows.
    fn fill(&mut self) {
        while let Some(limit) = self.client.concurrency_limit() {
            let started = u64::from(self.next_customer - 1);
            if self.next_customer > self.customers()
                || started - self.counters.customers_done >= u64::from(limit)
            {
                break;
            }
            self.start_next();
        }
    }

    fn start_next(&mut self) {
        if self.next_customer > self.customers() {
            return;
        }
        let customer = self.next_customer;
        self.next_customer += 1;
        let now_us = self.now_us();
        let step = self
            .client
            .begin(task_mut(&mut self.tasks, customer), now_us);
        self.apply(customer, step);
    }

    fn handle(&mut self, event: Event) {
        let now_us = self.now_us();
        match event {
            Event::Wake(customer) => {
                let step = self
                    .client
                    .wake(task_mut(&mut self.tasks, customer), now_us);
                self.apply(customer, step);
            }
            Event::Answer {
                customer,
                attempt,
                status,
                headers,
            } => {
                if !task_mut(&mut self.tasks, customer).is_awaiting(attempt) {
                    return;
                }
                self.counters.outstanding -= 1;
                let task = task_mut(&mut self.tasks, customer);
                let step = self
                    .client
                    .on_answer_with_headers(task, now_us, status, &headers, &self.dice);
                self.apply(customer, step);
                self.fill();
            }
            Event::NoAnswer {
                customer,
                attempt,
                transport_error,
            } => {
                if !task_mut(&mut self.tasks, customer).is_awaiting(attempt) {
                    return;
                }
                self.counters.outstanding -= 1;
                self.transport_errors += u64::from(transport_error);
                let task = task_mut(&mut self.tasks, customer);
                let step = self.client.on_timeout(task, now_us, &self.dice);
                self.apply(customer, step);
                self.fill();
            }
        }
    }

    fn apply(&mut self, customer: u32, step: Step) {
        match step {
            Step::WaitForTurn(t_us) | Step::SleepUntil(t_us) => {
                let at = tokio::time::Instant::from_std(self.origin + Duration::from_micros(t_us));
                let events = self.events.clone();
                tokio::spawn(async move {
                    tokio::time::sleep_until(at).await;
                    let _ = events.send(Event::Wake(customer));
                });
            }
            Step::Send(attempt) => self.send(customer, attempt),
            Step::Finish(outcome) => {
                self.counters.customers_done += 1;
                self.counters.gave_up += u64::from(outcome == Outcome::GaveUp);
                let now_us = self.now_us();
                self.counters.last_finish_us = now_us;
                // Over HTTP the customers come as one batch: each arrived at 0.
                self.counters.waits.add(0, now_us);
                match self.client.plan().launch {
                    Launch::Workers(_) => self.start_next(),
                    Launch::Adaptive(_) => self.fill(),
                    Launch::AllAtOnce => {}
                }
            }
        }
    }

    fn send(&mut self, customer: u32, attempt: Attempt) {
        let c = &mut self.counters;
        c.outstanding += 1;
        c.max_outstanding = c.max_outstanding.max(c.outstanding);
        // The adaptive limit at each send, counted as the simulation counts it.
        if let (Launch::Adaptive(_), Some(limit)) =
            (self.client.plan().launch, self.client.concurrency_limit())
        {
            c.concurrency_peak = c.concurrency_peak.max(limit);
            c.concurrency_sum += u64::from(limit);
            c.concurrency_sends += 1;
        }
        if task_mut(&mut self.tasks, customer).declined_seen {
            c.retried_declined += 1;
        }
        let mut request = self
            .remote
            .http
            .post(self.remote.url("/charge"))
            .header("content-type", "application/json")
            .body(format!(
                "{{\"id\":{customer},\"amount\":{}}}",
                sim::next_month::PRICE_CENTS
            ));
        if let Some(key) = attempt.key {
            request = request.header("idempotency-key", key.to_string());
        }
        let events = self.events.clone();
        let number = attempt.number;
        tokio::spawn(async move {
            // The whole exchange, body included, must fit in the timeout; when it does
            // not, the future (and with it the connection) is dropped.
            let exchange = async {
                let res = request.send().await?;
                let code = res.status().as_u16();
                let headers = res
                    .headers()
                    .iter()
                    .filter_map(|(n, v)| {
                        Some((n.as_str().to_string(), v.to_str().ok()?.to_string()))
                    })
                    .collect::<Vec<_>>();
                res.bytes().await?;
                Ok::<_, reqwest::Error>((code, headers))
            };
            let answered = match attempt.timeout_us {
                Some(t_us) => tokio::time::timeout(Duration::from_micros(t_us), exchange)
                    .await
                    .ok(),
                None => Some(exchange.await),
            };
            let event = match answered {
                Some(Ok((code, headers))) => match status_of(code) {
                    Some(status) => Event::Answer {
                        customer,
                        attempt: number,
                        status,
                        headers,
                    },
                    None => Event::NoAnswer {
                        customer,
                        attempt: number,
                        transport_error: true,
                    },
                },
                Some(Err(_)) => Event::NoAnswer {
                    customer,
                    attempt: number,
                    transport_error: true,
                },
                None => Event::NoAnswer {
                    customer,
                    attempt: number,
                    transport_error: false,
                },
            };
            let _ = events.send(event);
        });
    }
}

fn task_mut(tasks: &mut [ChargeTask], customer: u32) -> &mut ChargeTask {
    &mut tasks[customer as usize - 1]
}

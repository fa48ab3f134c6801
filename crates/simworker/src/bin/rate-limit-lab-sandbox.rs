//! The sandbox's module (built by trunk, `--target no-modules`): what a reader's own
//! client meets when its code calls `fetch` in the sandbox's worker. The provider's door
//! (`page::shared::door`, as `ratelab serve` reads requests) and the simulation's provider
//! on the simulated clock (`sim::foreign`), with the run's scenario from a page URL's
//! query. The worker's harness (`assets/sandbox/harness.js`) keeps the clock and calls in
//! at each instant; nothing here reads a clock or sends anything anywhere.

#[cfg(target_arch = "wasm32")]
mod exports {
    use page::shared::door::{may_be_json, read_charge, result_word, NOT_JSON_TYPE};
    use sim::exchange::Due;
    use sim::foreign::ForeignRun;
    use sim::next_month::ChargeRound;
    use sim::provider::{BodyPrint, Status};
    use sim::report::ReportCard;
    use wasm_bindgen::prelude::*;

    /// A reader's client's run.
    #[wasm_bindgen]
    pub struct Sandbox {
        run: ForeignRun,
        /// The last refusal the door made itself (400, 415), in words.
        door_said: String,
    }

    fn us(t: f64) -> Result<u64, JsError> {
        if (0.0..=9.0e15).contains(&t) {
            Ok(t as u64)
        } else {
            Err(JsError::new(&format!("not an instant of the run: {t}")))
        }
    }

    fn status_of(code: u16) -> Result<Status, JsError> {
        Status::ALL
            .into_iter()
            .find(|s| s.code() == code)
            .ok_or_else(|| JsError::new(&format!("not one of the provider's statuses: {code}")))
    }

    #[wasm_bindgen]
    impl Sandbox {
        /// A run of the scenario the page URL's `query` names. A value the page would
        /// replace is refused here, with the page's sentence.
        #[wasm_bindgen(constructor)]
        pub fn new(query: String) -> Result<Sandbox, JsError> {
            let q = page::site::keys::read::<()>(&page::pairs_of(&query)).base;
            if !q.problems.is_empty() {
                return Err(JsError::new(&q.problems.join(" ")));
            }
            if q.scenario.round != ChargeRound::First {
                return Err(JsError::new(
                    "Next month's run takes last month's keys from a built-in strategy's run; your own client runs this month only.",
                ));
            }
            page::client::runs::check_customers(q.scenario.customers)
                .map_err(|why| JsError::new(&why))?;
            let run = ForeignRun::this_month(&q.scenario)
                .map_err(|e| JsError::new(&page::shared::words::sentence(&e)))?;
            Ok(Sandbox {
                run,
                door_said: String::new(),
            })
        }

        /// Customers in the run, ids `1..=customers`.
        pub fn customers(&self) -> u32 {
            self.run.scenario().customers
        }

        /// When `customer` arrives, in µs of the run.
        pub fn arrival_us(&self, customer: u32) -> f64 {
            self.run.arrivals().at_us(customer) as f64
        }

        /// `POST /charge` at `at_us` with this `content_type`, `body` and idempotency
        /// `key`: `[kind, request, status, due_us]`. Kind 0: the door refused it itself
        /// (status 400 or 415; [`Sandbox::door_said`] says why; no request reached the
        /// provider); 1: the provider refused it (429 or 503), answered now; 2: admitted,
        /// its answer due at `due_us` ([`Sandbox::complete`] then).
        pub fn send(
            &mut self,
            at_us: f64,
            content_type: Option<String>,
            body: String,
            key: Option<String>,
        ) -> Result<Vec<f64>, JsError> {
            let at = us(at_us)?;
            let refused = |me: &mut Self, status: u16, why: String| {
                me.door_said = why;
                vec![0.0, -1.0, f64::from(status), at_us]
            };
            if !may_be_json(content_type.as_deref()) {
                return Ok(refused(self, 415, NOT_JSON_TYPE.to_string()));
            }
            let charge = match read_charge(body.as_bytes()) {
                Ok(c) => c,
                Err(why) => return Ok(refused(self, 400, why)),
            };
            let customers = self.customers();
            if charge.id == 0 || charge.id > u64::from(customers) {
                let why = format!(
                    "id must be a customer from 1 to {customers}, not {}",
                    charge.id
                );
                return Ok(refused(self, 400, why));
            }
            let print = BodyPrint::of_charge(charge.id, charge.amount);
            match self.run.send(at, charge.id, key.as_deref(), print) {
                Ok((request, Due::Now(status))) => Ok(vec![
                    1.0,
                    f64::from(request),
                    f64::from(status.code()),
                    at_us,
                ]),
                Ok((request, Due::At { done_at_us, .. })) => {
                    Ok(vec![2.0, f64::from(request), 0.0, done_at_us as f64])
                }
                Err(e) => Err(JsError::new(&page::shared::words::sentence(&e))),
            }
        }

        /// Why the door refused the last request it refused itself.
        pub fn door_said(&self) -> String {
            self.door_said.clone()
        }

        /// An admitted request completes at `at_us`, its due time: `[status, charged]`.
        pub fn complete(&mut self, at_us: f64, request: u32) -> Result<Vec<f64>, JsError> {
            let done = self
                .run
                .complete(us(at_us)?, request)
                .map_err(|e| JsError::new(&page::shared::words::sentence(&e)))?;
            Ok(vec![
                f64::from(done.status.code()),
                f64::from(u8::from(done.charged)),
            ])
        }

        /// An answer's body, as `ratelab serve` writes it: `{"id": …, "result": …}`.
        pub fn answer_body(
            &self,
            customer: u32,
            status: u16,
            charged: bool,
        ) -> Result<String, JsError> {
            let word = result_word(status_of(status)?, charged);
            Ok(serde_json::json!({ "id": customer, "result": word }).to_string())
        }

        /// The headers of a 429 or a 503 answered at `at_us`, flat: name, value, name, …
        pub fn headers(&mut self, at_us: f64, status: u16) -> Result<Vec<String>, JsError> {
            let headers = self.run.refusal_headers(us(at_us)?, status_of(status)?);
            Ok(headers
                .into_iter()
                .flat_map(|(n, v)| [n.to_string(), v])
                .collect())
        }

        /// The client received `request`'s answer, `status`, at `at_us`.
        pub fn delivered(&mut self, at_us: f64, request: u32, status: u16) -> Result<(), JsError> {
            self.run
                .delivered(us(at_us)?, request, status_of(status)?)
                .map_err(|e| JsError::new(&page::shared::words::sentence(&e)))
        }

        /// The client stopped waiting for `request` at `at_us`.
        pub fn abandoned(&mut self, at_us: f64, request: u32) -> Result<(), JsError> {
            self.run
                .abandoned(us(at_us)?, request)
                .map_err(|e| JsError::new(&page::shared::words::sentence(&e)))
        }

        /// The client was done with `customer` at `at_us`.
        pub fn settled(&mut self, at_us: f64, customer: u32) -> Result<(), JsError> {
            self.run
                .settled(us(at_us)?, customer)
                .map_err(|e| JsError::new(&page::shared::words::sentence(&e)))
        }

        /// The client's `n`-th random number (from 0), in `[0, 1)`: what `Math.random()`
        /// gives in the sandbox, the same stream the lab's own strategies draw from.
        pub fn client_random(&self, n: u32) -> f64 {
            self.run.client_random(n)
        }

        /// Every call the run took, flat (`page::client::ops`): the page replays them
        /// through its own run of the core.
        pub fn ops(&self) -> Vec<f64> {
            page::client::ops::to_wire(self.run.ops())
        }

        /// The key texts sent, by number (index `number − 1`), for the replay, one after
        /// another (`page::client::ops::keys_to_wire`); [`Sandbox::key_lengths`] cuts them.
        pub fn key_text(&self) -> String {
            page::client::ops::keys_to_wire(&self.run.key_texts()).0
        }

        /// Each key text's length in UTF-8 bytes, by number.
        pub fn key_lengths(&self) -> Vec<u32> {
            page::client::ops::keys_to_wire(&self.run.key_texts()).1
        }

        /// True once no admitted request is left to complete.
        pub fn idle(&self) -> bool {
            self.run.is_idle()
        }

        /// The run so far, as JSON: its stats (the CLI's `--json` names), each fate's count,
        /// and the report card.
        pub fn results(&self) -> String {
            let stats = self.run.stats();
            let fates = self.run.fates();
            let s = self.run.scenario();
            let card = ReportCard::of(&stats, &fates, |c| !s.provider.is_declined(c));
            let counts: serde_json::Map<String, serde_json::Value> = sim::world::Fate::ALL
                .iter()
                .map(|f| {
                    let n = fates.iter().filter(|x| *x == f).count();
                    (f.as_str().to_string(), serde_json::Value::from(n))
                })
                .collect();
            serde_json::json!({ "stats": stats, "fates": counts, "card": card }).to_string()
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("This binary is the sandbox's module: trunk builds it for the browser. The CLI is `cargo run --bin ratelab`.");
}

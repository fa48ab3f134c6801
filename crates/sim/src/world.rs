//! The simulation: one provider, one client, one seed's dice and one event queue.
//!
//! Only [`Simulation::step`] and [`Simulation::run_until`] move time. Each event is
//! handled at its own instant, in (time, sequence) order; a client timeout that no
//! longer matters is dropped when it surfaces.

use super::exchange::{Due, Exchange, Sending};
use super::next_month;
use super::next_month::ChargeRound;
use super::param::ScenarioError;
use super::provider::{ChargeRequest, IdempotencyKey, Provider, Status, Work};
use super::queue::EventQueue;
use super::record::RequestRecord;
use super::rng::KeyedDraws;
use super::scenario::Scenario;
use super::stats::{ClientCounters, Stats};
use super::strategy::charge::{Attempt, ChargeTask, Client, ClientTally, KeyNames, Outcome, Step};
use super::strategy::{ClientPlan, Launch};
use super::traffic::Arrivals;

/// Something that happens at an instant.
#[derive(Clone, Copy, Debug)]
enum Event {
    /// Start the charges whose time has come.
    Launch,
    /// A charge's sleep (pacer turn or backoff) is over.
    Wake { customer: u32 },
    /// The provider finishes processing a request.
    Complete {
        request: u32,
        customer: u32,
        attempt: u8,
        key: Option<IdempotencyKey>,
        work: Work,
    },
    /// A refusal reaches the client.
    Refused {
        request: u32,
        customer: u32,
        attempt: u8,
        status: Status,
    },
    /// The client's deadline for one attempt.
    Timeout {
        request: u32,
        customer: u32,
        attempt: u8,
    },
}

// Events are kept to 16 bytes (32 with their time and sequence), because a million-
// customer run moves them through the heap several million times.
const _: () = assert!(std::mem::size_of::<Event>() <= 16);

/// Queue lanes for the two streams of events that are scheduled in time order: pacer
/// turns (each booked turn is no earlier than the last) and client timeouts (each is
/// "now + the plan's one timeout").
const LANE_TURNS: usize = 0;
const LANE_TIMEOUTS: usize = 1;

/// Starts charges: all at once (each on its pre-booked pacer turn) or through workers.
#[derive(Clone, Copy, Debug)]
struct Launcher {
    /// The next customer to start.
    next_customer: u32,
    /// Customers who have arrived so far (all of them, for a batch).
    arrived: u32,
    /// A pool's workers with no customer to work on.
    idle_workers: u32,
    /// Turn of the first customer, and the gap between consecutive customers' turns.
    first_turn_us: u64,
    gap_us: u64,
}

/// A run in progress.
pub struct Simulation {
    scenario: Scenario,
    now_us: u64,
    queue: EventQueue<Event>,
    /// The provider, every random draw (the provider's and the client's, keyed by what
    /// each is for), the incident's meter and the record.
    exchange: Exchange,
    client: Client,
    /// Index `customer − 1`.
    tasks: Vec<ChargeTask>,
    launcher: Launcher,
    /// When each customer arrives.
    arrivals: Arrivals,
    counters: ClientCounters,
    events_handled: u64,
}

crate::named_enum! {
    /// What has become of a customer, from the provider's ledger and the client's outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    pub enum Fate as "fate" {
        /// Charged exactly once, and the client knows it.
        Charged = "charged",
        /// Charged two or more times.
        ChargedMoreThanOnce = "charged-twice",
        /// The card was declined.
        Declined = "declined",
        /// The client gave up and no money moved.
        GaveUp = "gave-up",
        /// The client gave up, yet a charge went through: it will think it failed.
        GaveUpButCharged = "gave-up-charged",
        /// Told they were charged by an answer stored before this run (last month's,
        /// under a key sent again), and not charged: a charge lost.
        Lost = "lost",
        /// The key was refused (422): sent before with another body.
        Refused = "refused",
        /// The client has not finished with this customer.
        Pending = "pending",
    }
}

/// Where a client stands with one customer: not done yet, done with a final answer, or
/// done without one (it ran out of attempts, or stopped waiting and sent no more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientEnd {
    /// Still at work on the customer (or not started).
    NotYet,
    /// Done: its last answer was this final one (200, 400 or 422).
    Final(Status),
    /// Done without a final answer.
    GaveUp,
}

impl Fate {
    /// A customer's fate from the provider's ledger (`charges`) and where the client
    /// stands: the one rule the simulation, a run's record and the HTTP server share.
    pub fn of(charges: u32, end: ClientEnd) -> Fate {
        match (charges, end) {
            (2.., _) => Fate::ChargedMoreThanOnce,
            (_, ClientEnd::NotYet) => Fate::Pending,
            (_, ClientEnd::Final(Status::Declined)) => Fate::Declined,
            (_, ClientEnd::Final(Status::KeyReused)) => Fate::Refused,
            (0, ClientEnd::Final(_)) => Fate::Lost,
            (_, ClientEnd::Final(_)) => Fate::Charged,
            (0, ClientEnd::GaveUp) => Fate::GaveUp,
            (_, ClientEnd::GaveUp) => Fate::GaveUpButCharged,
        }
    }
}

/// A read-only view of a run at one instant, cheap enough to take once per frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Simulated time now.
    pub now_us: u64,
    /// The counters so far.
    pub stats: Stats,
    /// Charges finished.
    pub customers_done: u64,
    /// Charges in the run.
    pub customers: u32,
    /// Requests being processed by the provider now.
    pub inflight: u32,
    /// Requests the client awaits now.
    pub outstanding: u32,
    /// Every charge has finished and the provider is idle.
    pub finished: bool,
}

impl Simulation {
    /// A run of `scenario`, ready to step. The scenario is checked first.
    pub fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        Self::with_plan(scenario, scenario.strategy.plan(&scenario.client))
    }

    /// A run of `scenario` whose client follows `plan` instead of its strategy's: for
    /// experiments on one rung with a part taken out (the scenario still names the
    /// strategy it started from).
    pub fn with_plan(scenario: &Scenario, plan: ClientPlan) -> Result<Self, ScenarioError> {
        scenario.validate()?;
        let keys = KeyNames {
            scope: scenario.client.key_scope,
            round: scenario.round,
        };
        let mut client = Client::new(plan)
            .with_dice(KeyedDraws::from_seed(scenario.seed))
            .with_keys(keys);
        let customers = scenario.customers;
        let arrivals = Arrivals::new(&scenario.traffic, customers, scenario.seed);
        let mut launcher = Launcher {
            next_customer: 1,
            arrived: if arrivals.is_batch() { customers } else { 0 },
            idle_workers: 0,
            first_turn_us: 0,
            gap_us: 0,
        };
        let mut counters = ClientCounters::default();
        if arrivals.is_batch() {
            counters.flow.arrive(0, customers);
        }
        let mut queue = EventQueue::default();
        match plan.launch {
            _ if !arrivals.is_batch() => queue.push(arrivals.at_us(1), Event::Launch),
            Launch::AllAtOnce => {
                // Every charge asks for its first turn at t = 0, in order; book them all now
                // and start each charge when its turn comes, so the queue stays small.
                if let Some(pacer) = client.pacer_mut() {
                    launcher.first_turn_us = pacer.book_many(0, u64::from(customers));
                    launcher.gap_us = pacer.gap_us();
                }
                queue.push(launcher.first_turn_us, Event::Launch);
            }
            Launch::Workers(_) | Launch::Adaptive(_) => queue.push(0, Event::Launch),
        }
        let mut provider = Provider::new(scenario.provider.clone(), customers);
        if scenario.round == ChargeRound::NextMonth {
            // Last month: the same run, the first round, to its end; its provider's keys
            // are a month old when this one begins.
            let mut last = scenario.clone();
            last.round = ChargeRound::First;
            last.record = false;
            let mut month = Self::with_plan(&last, plan)?;
            month.run_to_end();
            provider.carry_keys(month.exchange.provider(), next_month::MONTH_US);
        }
        Ok(Self {
            now_us: 0,
            queue,
            exchange: Exchange::new(
                provider,
                KeyedDraws::from_seed(scenario.seed),
                scenario.record,
            ),
            client,
            tasks: (1..=customers).map(ChargeTask::new).collect(),
            launcher,
            arrivals,
            counters,
            events_handled: 0,
            scenario: scenario.clone(),
        })
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Simulated time now.
    pub fn now_us(&self) -> u64 {
        self.now_us
    }

    /// True once every charge has finished and the provider has nothing left to do.
    /// Events may remain: client timeouts that no longer matter, which change nothing.
    pub fn is_finished(&self) -> bool {
        self.counters.customers_done == u64::from(self.scenario.customers)
            && self.exchange.provider().inflight() == 0
    }

    /// The stats so far.
    pub fn stats(&self) -> Stats {
        // The client's tally holds two of the counters; the rest (the waits' histogram
        // among them) are read in place rather than copied.
        let tally = self.client.tally();
        Stats {
            budget_exhausted: tally.budget_exhausted,
            breaker_opens: tally.breaker_opens,
            ..Stats::with_client(self.exchange.provider().counters(), &self.counters)
        }
        .with_derived(self.exchange.meter(), self.counters.last_finish_us)
        .with_flow(&self.counters.flow, &self.scenario.provider.incident)
    }

    /// Arrivals, requests and goodput, second by second, so far.
    pub fn flow(&self) -> &super::flow::Flow {
        &self.counters.flow
    }

    /// When each customer arrives.
    pub fn arrivals(&self) -> &Arrivals {
        &self.arrivals
    }

    /// A view of the run now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            now_us: self.now_us,
            stats: self.stats(),
            customers_done: self.counters.customers_done,
            customers: self.scenario.customers,
            inflight: self.exchange.provider().inflight(),
            outstanding: self.counters.outstanding,
            finished: self.is_finished(),
        }
    }

    /// The provider, as it stands.
    pub fn provider(&self) -> &Provider {
        self.exchange.provider()
    }

    /// Every request so far, if the scenario keeps a record.
    pub fn record(&self) -> Option<&[RequestRecord]> {
        self.exchange.record()
    }

    /// How many times the provider has charged `customer` so far.
    pub fn charges_of(&self, customer: u32) -> u32 {
        self.exchange.provider().charges_of(customer)
    }

    /// What has become of one customer so far, both sides considered.
    pub fn fate(&self, customer: u32) -> Fate {
        let end = match self.tasks[customer as usize - 1].outcome() {
            None => ClientEnd::NotYet,
            Some(Outcome::Charged) => ClientEnd::Final(Status::Ok),
            Some(Outcome::Declined) => ClientEnd::Final(Status::Declined),
            Some(Outcome::Refused) => ClientEnd::Final(Status::KeyReused),
            Some(Outcome::GaveUp) => ClientEnd::GaveUp,
        };
        Fate::of(self.exchange.provider().charges_of(customer), end)
    }

    /// Every customer's fate, in customer order (index `customer − 1`).
    pub fn fates(&self) -> Vec<Fate> {
        (1..=self.scenario.customers)
            .map(|c| self.fate(c))
            .collect()
    }

    /// Events handled so far.
    pub fn events_handled(&self) -> u64 {
        self.events_handled
    }

    /// Handles the next event. Returns false if the run has finished.
    pub fn step(&mut self) -> bool {
        if self.is_finished() {
            return false;
        }
        let Some((at_us, event)) = self.queue.pop() else {
            return false;
        };
        assert!(at_us >= self.now_us, "time went backwards");
        self.now_us = at_us;
        self.events_handled += 1;
        self.handle(event);
        true
    }

    /// Handles every event up to and including `t_us`, then sets the clock to `t_us`
    /// (or leaves it at the last event, if the run finished earlier).
    pub fn run_until(&mut self, t_us: u64) {
        while !self.is_finished() && self.queue.peek_time_us().is_some_and(|next| next <= t_us) {
            self.step();
        }
        if !self.is_finished() {
            self.now_us = self.now_us.max(t_us);
        }
    }

    /// Handles at most `budget` events; returns how many were handled.
    pub fn run_events(&mut self, budget: u64) -> u64 {
        let mut n = 0;
        while n < budget && self.step() {
            n += 1;
        }
        n
    }

    /// Runs to the end and returns the final stats.
    pub fn run_to_end(&mut self) -> Stats {
        // A bound on the work a run can do: each attempt causes at most a handful of
        // events. Exceeding it means a bug, not a slow run.
        let attempts =
            u64::from(self.scenario.customers) * u64::from(self.client.plan().max_attempts);
        // A client that holds sends back (a header's pause, a breaker, a concurrency
        // limit) wakes its held workers to ask again: allow four times as many events.
        // Sends the client held back are not counted (each costs at most two events: its
        // wake and a pacer turn): a hold lasts until a pause or an open breaker ends, or
        // looks again for a free slot after twice its last wait, and a slot frees within
        // the timeout or the slow latency.
        let limit = attempts * 6 + 16;
        while self.step() {
            assert!(
                self.events_handled
                    .saturating_sub(2 * self.client.tally().holds)
                    <= limit,
                "event budget exceeded (seed {})",
                self.scenario.seed
            );
        }
        assert!(
            self.is_finished(),
            "the queue ran dry before every charge finished (seed {})",
            self.scenario.seed
        );
        assert!(
            self.counters.outstanding == 0,
            "{} requests still outstanding at the end (seed {})",
            self.counters.outstanding,
            self.scenario.seed
        );
        self.stats()
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Launch => self.launch(),
            Event::Wake { customer } => {
                let step = self
                    .client
                    .wake(task_mut(&mut self.tasks, customer), self.now_us);
                self.apply(customer, step);
            }
            Event::Complete {
                request,
                customer,
                attempt,
                key,
                work,
            } => {
                let charge = ChargeRequest {
                    customer,
                    key,
                    print: next_month::print(customer, self.scenario.round),
                };
                let done = self.exchange.complete(self.now_us, request, charge, work);
                let task = task_mut(&mut self.tasks, customer);
                let told_charged =
                    work == Work::Stale(Status::Ok) && task.is_awaiting(attempt.into());
                self.counters.lost_to_reused_key += u64::from(told_charged);
                // A customer the client gave up on, charged now for the first time.
                let late = done.charged
                    && task.outcome() == Some(Outcome::GaveUp)
                    && self.exchange.provider().charges_of(customer) == 1;
                self.counters.gave_up_charged += u64::from(late);
                self.answer(request, customer, attempt, done.status);
            }
            Event::Refused {
                request,
                customer,
                attempt,
                status,
            } => self.answer(request, customer, attempt, status),
            Event::Timeout {
                request,
                customer,
                attempt,
            } => {
                // Lazy cancellation: the answer may have come first.
                if !task_mut(&mut self.tasks, customer).is_awaiting(attempt.into()) {
                    return;
                }
                debug_assert!(self.counters.outstanding > 0, "a timeout with nothing sent");
                self.counters.outstanding -= 1;
                let now_us = self.now_us;
                self.exchange.timed_out(request, now_us);
                let before = self.client.tally();
                let task = task_mut(&mut self.tasks, customer);
                let step = self.client.on_timeout(task, now_us, self.exchange.dice());
                self.note_decisions(request, before);
                self.apply(customer, step);
                self.fill();
            }
        }
    }

    /// Marks on `request`'s record what the client decided on its outcome: a retry the
    /// budget refused, a breaker that opened.
    fn note_decisions(&mut self, request: u32, before: ClientTally) {
        let after = self.client.tally();
        if let Some(r) = self.exchange.record_mut(request) {
            r.budget_refused = after.budget_exhausted > before.budget_exhausted;
            r.opened_breaker = after.breaker_opens > before.breaker_opens;
        }
    }

    /// Starts charges while fewer are in progress than the adaptive limit allows.
    fn fill(&mut self) {
        while let Some(limit) = self.client.concurrency_limit() {
            let started = u64::from(self.launcher.next_customer - 1);
            if self.launcher.next_customer > self.launcher.arrived
                || started - self.counters.customers_done >= u64::from(limit)
            {
                break;
            }
            self.start_next();
        }
    }

    /// Starts every charge whose time has come, then schedules the launcher again.
    fn launch(&mut self) {
        if !self.arrivals.is_batch() {
            return self.launch_arrivals();
        }
        let customers = self.scenario.customers;
        match self.client.plan().launch {
            Launch::AllAtOnce => {
                while self.launcher.next_customer <= customers && self.next_turn_us() <= self.now_us
                {
                    let customer = self.launcher.next_customer;
                    self.launcher.next_customer += 1;
                    let task = task_mut(&mut self.tasks, customer);
                    let step = if self.client.plan().pacer_per_s.is_some() {
                        self.client.begin_on_booked_turn(task, self.now_us)
                    } else {
                        self.client.begin(task, self.now_us)
                    };
                    self.apply(customer, step);
                }
                if self.launcher.next_customer <= customers {
                    self.queue.push(self.next_turn_us(), Event::Launch);
                }
            }
            Launch::Workers(workers) => {
                let busy = workers.min(customers);
                self.launcher.idle_workers = workers - busy;
                for _ in 0..busy {
                    self.start_next();
                }
            }
            Launch::Adaptive(_) => self.fill(),
        }
    }

    /// Open-loop traffic: the customers whose arrival has come are let in, and those the
    /// client can take now start (every one of them, the next free workers', or as many
    /// as the concurrency limit allows); the launcher comes back at the next arrival.
    fn launch_arrivals(&mut self) {
        let customers = self.scenario.customers;
        let before = self.launcher.arrived;
        while self.launcher.arrived < customers
            && self.arrivals.at_us(self.launcher.arrived + 1) <= self.now_us
        {
            self.launcher.arrived += 1;
        }
        self.counters
            .flow
            .arrive(self.now_us, self.launcher.arrived - before);
        match self.client.plan().launch {
            Launch::AllAtOnce => {
                while self.launcher.next_customer <= self.launcher.arrived {
                    self.start_next();
                }
            }
            Launch::Workers(workers) => {
                if before == 0 {
                    self.launcher.idle_workers = workers;
                }
                while self.launcher.idle_workers > 0
                    && self.launcher.next_customer <= self.launcher.arrived
                {
                    self.launcher.idle_workers -= 1;
                    self.start_next();
                }
            }
            Launch::Adaptive(_) => self.fill(),
        }
        if self.launcher.arrived < customers {
            let next_us = self.arrivals.at_us(self.launcher.arrived + 1);
            self.queue.push(next_us, Event::Launch);
        }
    }

    fn next_turn_us(&self) -> u64 {
        let l = &self.launcher;
        l.first_turn_us + u64::from(l.next_customer - 1) * l.gap_us
    }

    /// A worker takes the next customer who has arrived, if any; a pool's worker with
    /// none to take waits for the next arrival.
    fn start_next(&mut self) {
        if self.launcher.next_customer > self.launcher.arrived {
            if let Launch::Workers(_) = self.client.plan().launch {
                self.launcher.idle_workers += 1;
            }
            return;
        }
        let customer = self.launcher.next_customer;
        self.launcher.next_customer += 1;
        let step = self
            .client
            .begin(task_mut(&mut self.tasks, customer), self.now_us);
        self.apply(customer, step);
    }

    /// Delivers an answer to the client, unless it stopped waiting for it.
    fn answer(&mut self, request: u32, customer: u32, attempt: u8, status: Status) {
        if !task_mut(&mut self.tasks, customer).is_awaiting(attempt.into()) {
            return; // The client timed out: the answer goes nowhere.
        }
        debug_assert!(self.counters.outstanding > 0, "an answer with nothing sent");
        self.counters.outstanding -= 1;
        let now_us = self.now_us;
        self.exchange.answered(request, status, now_us);
        let headers = match status {
            Status::TooManyRequests | Status::Overloaded if self.client.plan().obey_headers => {
                self.exchange.provider_mut().refusal_headers(now_us, status)
            }
            _ => Vec::new(),
        };
        let before = self.client.tally();
        let task = task_mut(&mut self.tasks, customer);
        let step = self.client.on_answer_with_headers(
            task,
            now_us,
            status,
            &headers,
            self.exchange.dice(),
        );
        self.note_decisions(request, before);
        self.apply(customer, step);
        self.fill();
    }

    /// Carries out what a charge asked for.
    fn apply(&mut self, customer: u32, step: Step) {
        match step {
            Step::WaitForTurn(t_us) => {
                self.queue
                    .push_in_order(LANE_TURNS, t_us, Event::Wake { customer })
            }
            Step::SleepUntil(t_us) => self.queue.push(t_us, Event::Wake { customer }),
            Step::Send(attempt) => self.send(customer, attempt),
            Step::Finish(outcome) => {
                self.counters.customers_done += 1;
                self.counters.gave_up += u64::from(outcome == Outcome::GaveUp);
                self.counters.gave_up_charged += u64::from(
                    outcome == Outcome::GaveUp && self.exchange.provider().charges_of(customer) > 0,
                );
                self.counters.last_finish_us = self.now_us;
                self.counters
                    .waits
                    .add(self.arrivals.at_us(customer), self.now_us);
                self.counters
                    .flow
                    .end(self.now_us, outcome == Outcome::Charged);
                match self.client.plan().launch {
                    Launch::Workers(_) => self.start_next(),
                    Launch::Adaptive(_) => self.fill(),
                    Launch::AllAtOnce => {}
                }
            }
        }
    }

    fn send(&mut self, customer: u32, attempt: Attempt) {
        let now_us = self.now_us;
        let c = &mut self.counters;
        c.flow.send(now_us);
        c.outstanding += 1;
        c.max_outstanding = c.max_outstanding.max(c.outstanding);
        if let Launch::Workers(workers) = self.client.plan().launch {
            assert!(
                c.outstanding <= workers,
                "a pool awaits at most one answer per worker"
            );
        }
        let concurrency = self.client.concurrency_limit().unwrap_or(0);
        if let Launch::Adaptive(_) = self.client.plan().launch {
            assert!(
                c.outstanding <= concurrency,
                "an adaptive client awaits at most its limit"
            );
            c.concurrency_peak = c.concurrency_peak.max(concurrency);
            c.concurrency_sum += u64::from(concurrency);
            c.concurrency_sends += 1;
        }
        if task_mut(&mut self.tasks, customer).declined_seen {
            c.retried_declined += 1;
        }
        let Ok(number) = u8::try_from(attempt.number) else {
            panic!("attempts are capped at 20");
        };
        let sending = Sending {
            charge: ChargeRequest {
                customer,
                key: attempt.key,
                print: next_month::print(customer, self.scenario.round),
            },
            attempt: attempt.number,
            outstanding: self.counters.outstanding,
            concurrency,
        };
        let (request, due) = self.exchange.send(now_us, sending);
        match due {
            Due::Now(status) => self.queue.push(
                now_us,
                Event::Refused {
                    request,
                    customer,
                    attempt: number,
                    status,
                },
            ),
            Due::At { done_at_us, work } => self.queue.push(
                done_at_us,
                Event::Complete {
                    request,
                    customer,
                    attempt: number,
                    key: attempt.key,
                    work,
                },
            ),
        }
        if let Some(timeout_us) = attempt.timeout_us {
            self.queue.push_in_order(
                LANE_TIMEOUTS,
                now_us + timeout_us,
                Event::Timeout {
                    request,
                    customer,
                    attempt: number,
                },
            );
        }
    }
}

fn task_mut(tasks: &mut [ChargeTask], customer: u32) -> &mut ChargeTask {
    &mut tasks[customer as usize - 1]
}

/// Runs a scenario to the end and returns its stats.
pub fn run(scenario: &Scenario) -> Result<Stats, ScenarioError> {
    Ok(Simulation::new(scenario)?.run_to_end())
}

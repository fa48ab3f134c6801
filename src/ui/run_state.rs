//! What a run view shares with its controls: the strategy, seed and parameters being
//! edited, and the one action that turns them into a run.

use super::page_query;
use super::use_playback::{use_playback, Playback};
use crate::page::{parse_seed, Motion, PageQuery, Speed};
use crate::sim::budget::{keeps_record, Workload};
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;

/// Which door a run's problem came through, so it is shown beside that field.
enum Problem {
    /// The seed field.
    Seed(String),
    /// The numbers under "Change the numbers".
    Numbers(String),
}

/// A run view's state. Copy, so every control can hold it.
#[derive(Clone, Copy)]
pub struct RunState {
    /// The playback.
    pub playback: Playback,
    /// The strategy selected.
    pub selected: RwSignal<StrategyName>,
    /// The seed field's text.
    pub seed_text: RwSignal<String>,
    /// Why the seed typed cannot be used, if it cannot.
    pub seed_error: RwSignal<Option<String>>,
    /// Why the run cannot start for another reason (the numbers), if it cannot.
    pub run_error: RwSignal<Option<String>>,
    /// The customer whose story is open.
    pub customer: RwSignal<Option<u32>>,
    /// The parameters being edited (its strategy and seed are not used).
    pub draft: RwSignal<Scenario>,
    /// False while a parameter field holds something that cannot be used.
    pub params_ok: RwSignal<bool>,
    /// The motion setting from the URL, written back to it.
    pub motion: Motion,
    /// The presenter's layout (`present=1`), written back to the URL.
    pub present: bool,
    /// The page's address follows the run (false for embedded widgets).
    pub writes_url: bool,
    /// A linked run waiting for its stage to scroll into view (on a phone).
    pub pending_start: RwSignal<bool>,
}

impl RunState {
    /// State for `query`, playing at `speed`.
    pub fn new(query: &PageQuery, speed: Speed, writes_url: bool) -> Self {
        Self {
            playback: use_playback(speed),
            selected: RwSignal::new(query.strategy.unwrap_or(query.scenario.strategy)),
            seed_text: RwSignal::new(query.seed.to_string()),
            seed_error: RwSignal::new(None),
            run_error: RwSignal::new(None),
            customer: RwSignal::new(query.customer),
            draft: RwSignal::new(query.scenario.clone()),
            params_ok: RwSignal::new(true),
            motion: query.motion,
            present: query.present,
            writes_url,
            pending_start: RwSignal::new(false),
        }
    }

    /// The seed typed, if it is one.
    pub fn seed(&self) -> Option<u64> {
        parse_seed(&self.seed_text.get_untracked()).ok()
    }

    /// The scenario a run of `strategy` would use now, or why there is none.
    pub fn scenario_for(&self, strategy: StrategyName) -> Result<Scenario, String> {
        self.scenario_or_problem(strategy).map_err(|p| match p {
            Problem::Seed(why) | Problem::Numbers(why) => why,
        })
    }

    fn scenario_or_problem(&self, strategy: StrategyName) -> Result<Scenario, Problem> {
        if !self.params_ok.get_untracked() {
            return Err(Problem::Numbers("Some numbers under “Change the numbers” cannot be used yet: fix the highlighted ones first.".into()));
        }
        let seed = parse_seed(&self.seed_text.get_untracked()).map_err(Problem::Seed)?;
        let draft = self.draft.get_untracked();
        Workload::Run
            .check(&draft)
            .map_err(|e| Problem::Numbers(e.to_string()))?;
        let scenario = Scenario {
            seed,
            strategy,
            record: keeps_record(draft.customers),
            ..draft
        };
        scenario
            .validate()
            .map_err(|e| Problem::Numbers(e.to_string()))?;
        Ok(scenario)
    }

    /// Runs `strategy` with the current seed and parameters.
    pub fn run(&self, strategy: StrategyName) {
        self.selected.set(strategy);
        let scenario = match self.scenario_or_problem(strategy) {
            Ok(s) => s,
            Err(Problem::Seed(why)) => return self.seed_error.set(Some(why)),
            Err(Problem::Numbers(why)) => return self.run_error.set(Some(why)),
        };
        self.seed_error.set(None);
        self.run_error.set(None);
        if self
            .customer
            .get_untracked()
            .is_some_and(|c| c > scenario.customers)
        {
            self.customer.set(None);
        }
        let speed = self.playback.speed.get_untracked();
        match self.playback.start(scenario.clone()) {
            Ok(()) if self.writes_url => {
                let q = PageQuery {
                    motion: self.motion,
                    present: self.present,
                    customer: self.customer.get_untracked(),
                    ..PageQuery::for_run(&scenario, speed)
                };
                // Another strategy is a new entry in the history, so Back returns to the
                // one before; a rerun or a changed number replaces it.
                let was = page_query::read().strategy;
                page_query::record(&q.to_query(), was.is_some_and(|s| s != strategy));
            }
            Ok(()) => {}
            Err(why) => self.run_error.set(Some(why)),
        }
    }

    /// Writes the open story into the URL (a new history entry when it changed), so Copy
    /// link and Back keep it.
    pub fn record_story(&self) {
        if !self.writes_url {
            return;
        }
        let Some(scenario) = self.playback.scenario.get_untracked() else {
            return;
        };
        let customer = self.customer.get_untracked();
        let q = PageQuery {
            motion: self.motion,
            present: self.present,
            customer,
            ..PageQuery::for_run(&scenario, self.playback.speed.get_untracked())
        };
        page_query::record(&q.to_query(), page_query::read().customer != customer);
    }

    /// Shows what the URL says after Back or Forward: its strategy, seed, numbers and
    /// story, run again (the URL already names them, so nothing new is recorded).
    pub fn restore(&self, q: &PageQuery) {
        self.customer.set(q.customer);
        self.seed_text.set(q.seed.to_string());
        self.draft.set(q.scenario.clone());
        self.params_ok.set(true);
        let strategy = q.strategy.unwrap_or(q.scenario.strategy);
        if q.strategy.is_some() {
            self.run(strategy);
        } else {
            self.selected.set(strategy);
        }
    }

    /// Picks a random seed and runs. The page, not the simulation, picks it (from the
    /// browser's `crypto.getRandomValues`, through `getrandom`): the run itself stays
    /// seeded. Seeds stay below a million, short enough to read out in a classroom.
    pub fn new_seed(&self) {
        let mut bytes = [0u8; 8];
        let seed = match getrandom::fill(&mut bytes) {
            Ok(()) => u64::from_le_bytes(bytes) % 1_000_000,
            // No entropy to be had: the next seed up is as good a new seed as any.
            Err(_) => self.seed().map_or(1, |s| s.wrapping_add(1)),
        };
        self.seed_text.set(seed.to_string());
        self.run(self.selected.get_untracked());
    }
}

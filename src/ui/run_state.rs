//! What a run view shares with its controls: the strategy, seed and parameters being
//! edited, and the one action that turns them into a run.

use super::page_query;
use super::use_playback::{use_playback, Playback};
use crate::page::{parse_seed, Motion, PageQuery, Speed};
use crate::sim::budget::{keeps_record, Workload};
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;

/// A run view's state. Copy, so every control can hold it.
#[derive(Clone, Copy)]
pub struct RunState {
    /// The playback.
    pub playback: Playback,
    /// The strategy selected.
    pub selected: RwSignal<StrategyName>,
    /// The seed field's text.
    pub seed_text: RwSignal<String>,
    /// Why the run cannot start, if it cannot.
    pub seed_error: RwSignal<Option<String>>,
    /// The customer whose story is open.
    pub customer: RwSignal<Option<u32>>,
    /// The parameters being edited (its strategy and seed are not used).
    pub draft: RwSignal<Scenario>,
    /// False while a parameter field holds something that cannot be used.
    pub params_ok: RwSignal<bool>,
    /// The motion setting from the URL, written back to it.
    pub motion: Motion,
    /// The page's address follows the run (false for embedded widgets).
    pub writes_url: bool,
}

impl RunState {
    /// State for `query`, playing at `speed`.
    pub fn new(query: &PageQuery, speed: Speed, writes_url: bool) -> Self {
        Self {
            playback: use_playback(speed),
            selected: RwSignal::new(query.strategy.unwrap_or(query.scenario.strategy)),
            seed_text: RwSignal::new(query.seed.to_string()),
            seed_error: RwSignal::new(None),
            customer: RwSignal::new(query.customer),
            draft: RwSignal::new(query.scenario.clone()),
            params_ok: RwSignal::new(true),
            motion: query.motion,
            writes_url,
        }
    }

    /// The seed typed, if it is one.
    pub fn seed(&self) -> Option<u64> {
        parse_seed(&self.seed_text.get_untracked()).ok()
    }

    /// The scenario a run of `strategy` would use now, or why there is none.
    pub fn scenario_for(&self, strategy: StrategyName) -> Result<Scenario, String> {
        if !self.params_ok.get_untracked() {
            return Err("Some numbers under “Change the numbers” cannot be used yet: fix the highlighted ones first.".into());
        }
        let seed = parse_seed(&self.seed_text.get_untracked())?;
        let draft = self.draft.get_untracked();
        Workload::Run.check(&draft).map_err(|e| e.to_string())?;
        let scenario = Scenario {
            seed,
            strategy,
            record: keeps_record(draft.customers),
            ..draft
        };
        scenario.validate().map_err(|e| e.to_string())?;
        Ok(scenario)
    }

    /// Runs `strategy` with the current seed and parameters.
    pub fn run(&self, strategy: StrategyName) {
        self.selected.set(strategy);
        let scenario = match self.scenario_for(strategy) {
            Ok(s) => s,
            Err(why) => return self.seed_error.set(Some(why)),
        };
        self.seed_error.set(None);
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
                    customer: self.customer.get_untracked(),
                    ..PageQuery::for_run(&scenario, speed)
                };
                page_query::replace(&q.to_query());
            }
            Ok(()) => {}
            Err(why) => self.seed_error.set(Some(why)),
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

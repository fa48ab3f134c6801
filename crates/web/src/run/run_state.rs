//! What a run view shares with its controls: the strategy, seed and parameters being
//! edited, and the one action that turns them into a run.

use crate::run::use_playback::{use_playback, Playback};
use crate::shared::page_query;
use crate::shared::read::Read;
use leptos::prelude::*;
use page::run::hand_over::HandOver;
use page::run::knobs::Knob;
use page::run::query::{RunQuery, Story, Walk};
use page::run::stage::{
    numbers_not_ready, opening_strategy, pauses_at_harm, run_scenario, Room, RunProblem as Problem,
};
use page::shared::params::{apply_params, parse_param_in, PARAMS};
use page::{parse_seed, Motion, Query, Speed};
use sim::param::Param;
use sim::record::RequestRecord;
use sim::{Scenario, Stats, StrategyName};

/// The seed field: the text it shows, and the seed that text holds or why it holds none.
/// Each is read once: a seed from the link, a new seed or a restored one is shown as the
/// number it is, and a text is parsed as it is typed.
#[derive(Clone, Copy)]
pub struct SeedField {
    /// The text shown.
    text: RwSignal<String>,
    /// The seed it holds, or why not.
    seed: RwSignal<Result<u64, String>>,
}

impl SeedField {
    /// A field showing `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            text: RwSignal::new(seed.to_string()),
            seed: RwSignal::new(Ok(seed)),
        }
    }

    /// Shows `seed`.
    pub fn show(&self, seed: u64) {
        self.seed.set(Ok(seed));
        self.text.set(seed.to_string());
    }

    /// What the reader typed.
    pub fn typed(&self, text: String) {
        self.seed.set(parse_seed(&text));
        self.text.set(text);
    }

    /// The text shown, tracked.
    pub fn text(&self) -> String {
        self.text.get()
    }

    /// The seed, tracked, or why the text holds none.
    pub fn seed(&self) -> Result<u64, String> {
        self.seed.get()
    }

    /// Tracks the seed without reading it.
    pub fn track(&self) {
        self.seed.track();
    }

    /// The seed, untracked.
    pub fn seed_untracked(&self) -> Result<u64, String> {
        self.seed.get_untracked()
    }
}

/// A run view's state. Copy, so every control can hold it.
#[derive(Clone, Copy)]
pub struct RunState {
    /// The playback.
    playback: Playback,
    /// The strategy selected.
    selected: RwSignal<StrategyName>,
    /// The seed field.
    seed: SeedField,
    /// Why the seed typed cannot be used, if it cannot.
    seed_error: RwSignal<Option<String>>,
    /// Why the run cannot start for another reason (the numbers), if it cannot.
    run_error: RwSignal<Option<String>>,
    /// The customer whose story is open.
    customer: RwSignal<Option<u32>>,
    /// The parameters being edited (its strategy and seed are not used).
    draft: RwSignal<Scenario>,
    /// False while a parameter field holds something that cannot be used.
    params_ok: RwSignal<bool>,
    /// The motion setting from the URL, written back to it.
    motion: Motion,
    /// The presenter's layout (`present=1`), written back to the URL.
    present: bool,
    /// Writes a run that has started into the page's address: [`RunState::write_url`] on
    /// the run page, none for embedded widgets (whose modules then carry no URL writing).
    url_writer: Option<UrlWriter>,
    /// A linked run waiting for its stage to scroll into view (on a phone).
    pending_start: RwSignal<bool>,
    /// The parameters as typed (or set by a knob), one text per entry of `PARAMS`.
    texts: StoredValue<Vec<RwSignal<String>>>,
    /// Why each parameter's text cannot be used, if it cannot.
    errors: StoredValue<Vec<RwSignal<Option<String>>>>,
    /// Why the parameters cannot be used together, if they cannot.
    combined: RwSignal<Vec<String>>,
    /// The run before the knobs were first moved, kept as a ghost beside the new one.
    ghost: RwSignal<Option<Ghost>>,
    /// The ghost's requests, for the timeline's faint copy.
    ghost_record: StoredValue<Vec<RequestRecord>>,
    /// The guided walk's step (from 0) while it is open, written back to the URL.
    tour: RwSignal<Option<usize>>,
    /// How many customers this page runs, and the device's memory: a page that hands
    /// large runs to a simulation worker runs up to the core's limit.
    room: Room,
    /// This module carries the walk (the run page's walk module does; the plain run
    /// page's module does not, so a link with `tour=1` is opened by the former).
    walks: bool,
    /// The customer the opening story tells, while the page shows it: the stage links
    /// back to it when that customer's story is open.
    opening_customer: RwSignal<Option<u32>>,
}

/// Writes the run of a strategy just started (with its scenario and speed) into the URL.
pub type UrlWriter = fn(&RunState, &Scenario, Speed, StrategyName);

/// What is kept of the run before a knob moved: its counters, and what it was run with.
#[derive(Clone, Debug, PartialEq)]
pub struct Ghost {
    /// Its counters.
    pub stats: Stats,
    /// Its parameters.
    pub scenario: Scenario,
}

impl RunState {
    /// The playback.
    pub fn playback(&self) -> Playback {
        self.playback
    }

    /// The strategy selected.
    pub fn selected(&self) -> Read<StrategyName> {
        Read::of(self.selected)
    }

    /// The seed field, and why its seed cannot be used, for the field, whose input is
    /// the one other writer of it.
    pub fn seed_field(&self) -> (SeedField, Read<Option<String>>) {
        (self.seed, Read::of(self.seed_error))
    }

    /// The customer whose story is open, for the views that open one when clicked (the
    /// grid, the timeline and the story panel), the other writers of it.
    pub fn story_selection(&self) -> RwSignal<Option<u32>> {
        self.customer
    }

    /// Why the run cannot start for a reason other than the seed, if it cannot.
    pub fn run_error(&self) -> Read<Option<String>> {
        Read::of(self.run_error)
    }

    /// The customer whose story is open.
    pub fn customer(&self) -> Read<Option<u32>> {
        Read::of(self.customer)
    }

    /// Opens `customer`'s story (`None` closes it).
    pub fn open_story(&self, customer: Option<u32>) {
        self.customer.set(customer);
    }

    /// The parameters being edited.
    pub fn draft(&self) -> Read<Scenario> {
        Read::of(self.draft)
    }

    /// The presenter's layout (`present=1`).
    pub fn present(&self) -> bool {
        self.present
    }

    /// How many customers this page runs.
    pub fn room(&self) -> Room {
        self.room
    }

    /// The parameters' texts and their problems, one of each per entry of `PARAMS`, for
    /// the numbers form, whose fields are the one other writer of them.
    pub fn form_fields(&self) -> (Vec<RwSignal<String>>, Vec<RwSignal<Option<String>>>) {
        (self.texts.get_value(), self.errors.get_value())
    }

    /// The text of the parameter at `index` of `PARAMS`.
    pub fn text(&self, index: usize) -> Read<String> {
        self.texts.with_value(|t| Read::of(t[index]))
    }

    /// Why the parameters cannot be used together, if they cannot.
    pub fn combined(&self) -> Read<Vec<String>> {
        Read::of(self.combined)
    }

    /// The run before the knobs were first moved.
    pub fn ghost(&self) -> Read<Option<Ghost>> {
        Read::of(self.ghost)
    }

    /// The ghost's requests.
    pub fn ghost_record(&self) -> StoredValue<Vec<RequestRecord>> {
        self.ghost_record
    }

    /// The guided walk's step (from 0) while it is open.
    pub fn tour(&self) -> Read<Option<usize>> {
        Read::of(self.tour)
    }

    /// The customer the opening story tells, while the page shows it.
    pub fn opening_customer(&self) -> Read<Option<u32>> {
        Read::of(self.opening_customer)
    }

    /// Holds a linked run until its stage scrolls into view ([`RunState::start_waiting_run`]).
    pub fn wait_for_stage(&self) {
        self.pending_start.set(true);
    }

    /// The stage is in view: starts the linked run that waited for it, if one did.
    pub fn start_waiting_run(&self) {
        if self.pending_start.get_untracked() {
            self.pending_start.set(false);
            self.run(self.selected.get_untracked());
        }
    }

    /// Selects `strategy` with nothing on screen: the last run is put away.
    pub fn pick(&self, strategy: StrategyName) {
        self.playback.reset();
        self.selected.set(strategy);
    }

    /// Opens the guided walk at `step`, whose strategy is `strategy`, with nothing run yet.
    pub fn open_walk(&self, step: usize, strategy: StrategyName) {
        self.tour.set(Some(step));
        self.selected.set(strategy);
    }

    /// Moves the open walk to `step` (strategy `strategy`): the last run, story and ghost
    /// put away, and the step written into the URL as a new entry.
    pub fn go_to_step(&self, step: usize, strategy: StrategyName) {
        self.customer.set(None);
        self.dismiss_ghost();
        self.pick(strategy);
        self.tour.set(Some(step));
        self.record_tour(true);
    }

    /// Closes the guided walk (the URL is the caller's to write).
    pub fn close_walk(&self) {
        self.tour.set(None);
    }

    /// The opening story's "see it among the others": the walk closed, the run without a
    /// key played with `customer`'s story open, marked as the opening's customer.
    pub fn tell_opening(&self, customer: Option<u32>) {
        self.opening_customer.set(customer);
        self.tour.set(None);
        self.customer.set(customer);
        self.run(StrategyName::TimeoutNoKey);
    }

    /// State for `query`, playing at `speed`. The page carries the walk if `walks`, and runs up to `workload`'s customers.
    pub fn new(
        query: &RunQuery,
        speed: Speed,
        url_writer: Option<UrlWriter>,
        walks: bool,
        workload: page::shared::budget::Workload,
    ) -> Self {
        let playback = use_playback(speed);
        playback.pause_at_harm(pauses_at_harm(&query.base));
        playback.hold_frames();
        Self {
            playback,
            selected: RwSignal::new(opening_strategy(&query.base)),
            seed: SeedField::new(query.base.seed()),
            seed_error: RwSignal::new(None),
            run_error: RwSignal::new(None),
            customer: RwSignal::new(query.story().customer),
            draft: RwSignal::new(query.base.scenario.clone()),
            params_ok: RwSignal::new(true),
            motion: query.base.motion,
            present: query.base.present,
            url_writer,
            pending_start: RwSignal::new(false),
            texts: StoredValue::new(
                PARAMS
                    .iter()
                    .map(|p| RwSignal::new(p.read(&query.base.scenario)))
                    .collect(),
            ),
            errors: StoredValue::new(PARAMS.iter().map(|_| RwSignal::new(None)).collect()),
            combined: RwSignal::new(Vec::new()),
            ghost: RwSignal::new(None),
            ghost_record: StoredValue::new(Vec::new()),
            tour: RwSignal::new(None),
            room: Room {
                device_gib: crate::shared::dom::device_memory_gib(),
                workload,
            },
            walks,
            opening_customer: RwSignal::new(None),
        }
    }

    /// The seed typed, if it is one.
    pub fn seed(&self) -> Option<u64> {
        self.seed.seed_untracked().ok()
    }

    /// The scenario a run of `strategy` would use now, or why there is none.
    pub fn scenario_for(&self, strategy: StrategyName) -> Result<Scenario, String> {
        self.scenario_or_problem(strategy).map_err(|p| match p {
            Problem::Seed(why) | Problem::Numbers(why) => why,
        })
    }

    fn scenario_or_problem(&self, strategy: StrategyName) -> Result<Scenario, Problem> {
        if !self.params_ok.get_untracked() {
            let first = self
                .errors
                .with_value(|errors| errors.iter().find_map(|e| e.get_untracked()));
            return Err(Problem::Numbers(numbers_not_ready(first.as_deref())));
        }
        let draft = self.draft.get_untracked();
        run_scenario(&draft, self.seed.seed_untracked(), strategy, self.room)
    }

    /// Re-reads every parameter text, so the order of edits never matters (e.g. lowering
    /// the latency below the current jitter, then the jitter), and updates the draft when
    /// they can all be used together.
    pub fn recheck(&self) {
        let texts: Vec<String> = self
            .texts
            .with_value(|t| t.iter().map(|t| t.get_untracked()).collect());
        let mut ok = true;
        self.errors.with_value(|errors| {
            for ((p, t), e) in PARAMS.iter().zip(&texts).zip(errors) {
                let msg = parse_param_in(self.room.workload, p.key, t).err();
                ok &= msg.is_none();
                e.set(msg);
            }
        });
        if ok {
            let pairs: Vec<(&str, &str)> = PARAMS
                .iter()
                .zip(&texts)
                .map(|(p, t)| (p.key, t.as_str()))
                .collect();
            match apply_params(&Scenario::default(), &pairs) {
                Ok(s) => {
                    self.draft.update(|d| {
                        *d = Scenario {
                            seed: d.seed,
                            strategy: d.strategy,
                            ..s
                        }
                    });
                    self.combined.set(Vec::new());
                }
                Err(msgs) => {
                    ok = false;
                    self.combined.set(msgs);
                }
            }
        }
        self.params_ok.set(ok);
    }

    /// Sets the text of the parameter `key` and re-reads the panel.
    pub fn set_text(&self, key: &str, text: String) {
        if let Some(i) = PARAMS.iter().position(|p| p.key == key) {
            self.texts.with_value(|t| t[i].set(text));
        }
        self.recheck();
    }

    /// A knob moved to `position`: the value is set and, when `run` is true, the current
    /// strategy reruns at once on the same seed. The run before the first move stays as
    /// the ghost until it is dismissed or another strategy is picked.
    pub fn turn(&self, knob: &Knob, position: u64, run: bool) {
        self.set_text(knob.key, knob.text(position));
        if !run || !self.params_ok.get_untracked() {
            return;
        }
        if self.ghost.with_untracked(Option::is_none) {
            let kept = self
                .playback
                .scenario()
                .get_untracked()
                .and_then(|scenario| {
                    let stats = self
                        .playback
                        .snapshot()
                        .with_untracked(|s| s.as_ref().map(|s| s.stats.clone()))?;
                    let record = self
                        .playback
                        .with_sim(|s| s.record().map(<[RequestRecord]>::to_vec))
                        .flatten();
                    Some((Ghost { stats, scenario }, record.unwrap_or_default()))
                });
            if let Some((ghost, record)) = kept {
                self.ghost_record.set_value(record);
                self.ghost.set(Some(ghost));
            }
        }
        self.playback.set_speed(Speed::Instant);
        self.run(self.selected.get_untracked());
    }

    /// Forgets the ghost.
    pub fn dismiss_ghost(&self) {
        self.ghost.set(None);
        self.ghost_record.set_value(Vec::new());
    }

    /// Breaks the provider now: the chosen incident starts at the simulated time on screen
    /// (and goes into the URL), and the run plays on from that moment. The run is started
    /// again from the beginning with the incident in its parameters, so a copied link
    /// gives the same numbers.
    pub fn break_provider(&self) {
        // The instant on screen: a paused run held to be stepped has run on behind it.
        let Some(now_us) = self.playback.shown_us() else {
            return;
        };
        let broken = page::run::incident::broken_at(&self.draft.get_untracked(), now_us);
        for p in PARAMS
            .iter()
            .filter(|p| matches!(p.param, Param::Incident | Param::IncidentStart))
        {
            self.set_text(p.key, p.read(&broken));
        }
        self.start(self.selected.get_untracked(), Some(now_us));
    }

    /// Goes on with a run handed over by the run page's first module
    /// (`page::run::hand_over`): its strategy, seed and numbers are this state's, and the
    /// run stands where it stood.
    pub fn take_over(&self, h: &HandOver) {
        let scenario = &h.scenario;
        self.selected.set(scenario.strategy);
        self.seed.show(scenario.seed);
        self.draft.set(scenario.clone());
        for (p, text) in PARAMS.iter().zip(self.texts.get_value()) {
            text.set(p.read(scenario));
        }
        match (self.playback.take_over(h), self.url_writer) {
            (Ok(()), Some(write)) => write(self, scenario, h.speed, scenario.strategy),
            (Ok(()), None) => {}
            (Err(why), _) => self.run_error.set(Some(why)),
        }
    }

    /// Runs `strategy` with the current seed and parameters.
    pub fn run(&self, strategy: StrategyName) {
        self.start(strategy, None);
    }

    /// Runs `strategy`, played on from `from_us` when given.
    fn start(&self, strategy: StrategyName, from_us: Option<u64>) {
        if strategy != self.selected.get_untracked() {
            self.dismiss_ghost();
        }
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
        let speed = self.playback.speed().get_untracked();
        let started = self.playback.start(scenario.clone());
        if let (Ok(()), Some(t)) = (&started, from_us) {
            self.playback.advance_to(t);
        }
        match (started, self.url_writer) {
            (Ok(()), Some(write)) => write(self, &scenario, speed, strategy),
            (Ok(()), None) => {}
            (Err(why), _) => self.run_error.set(Some(why)),
        }
    }

    /// The run page's [`UrlWriter`]: the run, its speed and the open story into the URL.
    /// Another strategy is a new entry in the history, so Back returns to the one before;
    /// a rerun or a changed number replaces it.
    pub fn write_url(&self, scenario: &Scenario, speed: Speed, strategy: StrategyName) {
        let q = self.page_query(scenario, speed, self.customer.get_untracked());
        let was = page_query::read::<(Story, Walk)>().base.strategy();
        page_query::record(&q.to_query(), was.is_some_and(|s| s != strategy));
    }

    /// Writes the open story into the URL (a new history entry when it changed), so Copy
    /// link and Back keep it.
    pub fn record_story(&self) {
        if self.url_writer.is_none() {
            return;
        }
        let Some(scenario) = self.playback.scenario().get_untracked() else {
            return;
        };
        let customer = self.customer.get_untracked();
        let q = self.page_query(&scenario, self.playback.speed().get_untracked(), customer);
        let was = page_query::read::<(Story, Walk)>().story().customer;
        page_query::record(&q.to_query(), was != customer);
    }

    /// The page's URL state for `scenario` at `speed` with `customer`'s story open: the
    /// motion, presenter and walk settings carried along.
    fn page_query(&self, scenario: &Scenario, speed: Speed, customer: Option<u32>) -> RunQuery {
        let tour = self.tour.get_untracked();
        let mut q = Query::for_run(scenario, speed);
        q.base.motion = self.motion;
        q.base.present = self.present;
        q.own = (
            Story {
                customer,
                scene: None,
            },
            Walk {
                tour: tour.is_some(),
                step: tour.unwrap_or(0),
            },
        );
        q
    }

    /// Writes the walk's step (or its closing) into the URL for the strategy selected and
    /// the story open, a new history entry when `new_entry`, so Back returns to the step
    /// before.
    pub fn record_tour(&self, new_entry: bool) {
        if self.url_writer.is_none() {
            return;
        }
        if let Ok(scenario) = self.scenario_for(self.selected.get_untracked()) {
            let speed = self.playback.speed().get_untracked();
            let q = self.page_query(&scenario, speed, self.customer.get_untracked());
            page_query::record(&q.to_query(), new_entry);
        }
    }

    /// Shows what the URL says after Back or Forward: its strategy, seed, numbers and
    /// story, run again (the URL already names them, so nothing new is recorded).
    pub fn restore(&self, q: &RunQuery) {
        let walk = q.walk();
        self.customer.set(q.story().customer);
        self.seed.show(q.base.seed());
        self.draft.set(q.base.scenario.clone());
        self.params_ok.set(true);
        self.tour
            .set((walk.tour && self.walks).then_some(walk.step));
        let strategy = opening_strategy(&q.base);
        if walk.tour && self.walks {
            // A step of the walk asks its question again before anything runs.
            self.playback.reset();
            self.selected.set(strategy);
        } else if q.base.strategy().is_some() {
            self.run(strategy);
        } else {
            self.selected.set(strategy);
        }
    }

    /// Picks a random seed ([`random_seed`]) and runs.
    pub fn new_seed(&self) {
        self.seed.show(random_seed(self.seed()));
        self.run(self.selected.get_untracked());
    }
}

/// A new seed, for "New seed". The page, not the simulation, picks it (from the browser's
/// `crypto.getRandomValues`, through `getrandom`): the run itself stays seeded. Seeds stay
/// below a million, short enough to read out in a classroom. With no entropy to be had,
/// the seed after `current` is as good a new seed as any.
pub fn random_seed(current: Option<u64>) -> u64 {
    let mut bytes = [0u8; 8];
    match getrandom::fill(&mut bytes) {
        Ok(()) => u64::from_le_bytes(bytes) % 1_000_000,
        Err(_) => current.map_or(1, |s| s.wrapping_add(1)),
    }
}

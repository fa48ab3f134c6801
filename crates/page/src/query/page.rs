//! What a page's URL asks for: the page, its section and view, the speed, the motion,
//! and [`PageQuery`], with the writer that puts a query back into a URL.

use super::codec::encode;
use super::read::FALLBACK_STRATEGY;
use crate::shared::params::{spec, PARAMS};
use sim::lab::ExperimentName;
use sim::param_sweep::ParamSweepSpec;
use sim::story::Scene;
use sim::{Scenario, StatField, StrategyName};

sim::named_enum! {
    /// Playback speed: how simulated time maps to wall time.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Speed as "speed" {
        /// The whole run computed at once.
        Instant = "instant",
        /// Ten simulated seconds per wall second: the default, fast enough not to wait
        /// for, slow enough to watch the counters move.
        #[default]
        X10 = "10x",
        /// Real time: one simulated second per wall second.
        X1 = "1x",
        /// A tenth of real time: a burst's milliseconds become visible.
        X01 = "0.1x",
        /// A hundredth of real time: a naive burst's 17 ms take 1.7 s.
        X001 = "0.01x",
    }
}

impl Speed {
    /// A label for buttons.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Instant => "Instant",
            Speed::X10 => "10×",
            Speed::X1 => "1×",
            Speed::X01 => "0.1×",
            Speed::X001 => "0.01×",
        }
    }

    /// Simulated microseconds per wall millisecond, or `None` for instant.
    pub fn sim_us_per_wall_ms(self) -> Option<f64> {
        match self {
            Speed::Instant => None,
            Speed::X10 => Some(10_000.0),
            Speed::X1 => Some(1_000.0),
            Speed::X01 => Some(100.0),
            Speed::X001 => Some(10.0),
        }
    }
}

sim::named_enum! {
    /// The page's sections.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Section as "section" {
        /// Calling theirs: the charges and the client strategies.
        #[default]
        Charges = "charges",
        /// Publishing yours: limiters and the experiments.
        Limits = "limits",
        /// The headers between them: what a limiter tells callers, and how they read it.
        Headers = "headers",
    }
}

sim::named_enum! {
    /// The views of the charges section.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum View as "view" {
        /// One strategy, played back, with its timeline, customers and code.
        #[default]
        Run = "run",
        /// Every strategy on one seed, side by side.
        Compare = "compare",
        /// Many seeds, and each stat's distribution.
        Sweep = "sweep",
        /// Every strategy against every incident, from one seed.
        Matrix = "matrix",
        /// A client the reader writes, run in the sandbox on the simulated clock.
        Client = "client",
    }
}

/// The lab's pages. Each is built as a WebAssembly module of its own (docs/sizes-and-speeds.md):
/// `rate-limit-lab`, `rate-limit-lab-compare`, `-sweep`, `-matrix`, `-limits`, `-headers`,
/// `-client` and `-embed`, so a reader downloads only the page they open. `assets/loader.js` picks the module from the same
/// keys, and a module given another page's query shows its own page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The charges, one strategy played back: the first page most readers see.
    Run,
    /// Every strategy side by side.
    Compare,
    /// Many seeds, and each stat's distribution.
    Sweep,
    /// Every strategy against every incident.
    Matrix,
    /// Publishing a limit: limiters and the experiments.
    Limits,
    /// The headers a limiter sends, and a reader for them.
    Headers,
    /// The reader's own client: an editor, the sandbox, and the run it makes.
    Client,
    /// One widget, for an iframe (`embed=1`) or a `<div data-rate-limit-lab>`.
    Embed,
}

impl Page {
    /// The file a link to this page opens: each page has an HTML file of its own
    /// (`run.html`, `compare.html`, …), which is `index.html` with a hint in its head that
    /// starts this page's module at once, rather than after the loader has read the link
    /// (docs/sizes-and-speeds.md, "Time to ready"; `scripts/entry-pages.mjs` writes them). A link into the
    /// guided walk is the exception ([`PageQuery::href`]): the lab's bare address, whose
    /// `index.html` starts the walk's module. Given another page's link, a page's file
    /// opens that page's file instead (`assets/loader.js`).
    pub const fn entry_file(self) -> &'static str {
        match self {
            Page::Run => "run.html",
            Page::Compare => "compare.html",
            Page::Sweep => "sweep.html",
            Page::Matrix => "matrix.html",
            Page::Limits => "limits.html",
            Page::Headers => "headers.html",
            Page::Client => "client.html",
            Page::Embed => "embed.html",
        }
    }

    /// The page's WebAssembly module: the binary of `crates/web` that mounts it, and the
    /// shipped `<module>_bg.wasm` and `<module>.js`. A blog links these names, so they stay.
    pub const fn module(self) -> &'static str {
        match self {
            Page::Run => "rate-limit-lab",
            Page::Compare => "rate-limit-lab-compare",
            Page::Sweep => "rate-limit-lab-sweep",
            Page::Matrix => "rate-limit-lab-matrix",
            Page::Limits => "rate-limit-lab-limits",
            Page::Headers => "rate-limit-lab-headers",
            Page::Client => "rate-limit-lab-client",
            Page::Embed => "rate-limit-lab-embed",
        }
    }

    /// The one query key and value that ask for this page ([`PageQuery::page`] reads
    /// them; `None` for the run page, which a query naming no page opens).
    pub const fn key(self) -> Option<(&'static str, &'static str)> {
        match self {
            Page::Run => None,
            Page::Compare => Some(("view", "compare")),
            Page::Sweep => Some(("view", "sweep")),
            Page::Matrix => Some(("view", "matrix")),
            Page::Limits => Some(("section", "limits")),
            Page::Headers => Some(("section", "headers")),
            Page::Client => Some(("view", "client")),
            Page::Embed => Some(("embed", "1")),
        }
    }

    /// Every page, in the order of the enum.
    pub const ALL: [Page; 8] = [
        Page::Run,
        Page::Compare,
        Page::Sweep,
        Page::Matrix,
        Page::Limits,
        Page::Headers,
        Page::Client,
        Page::Embed,
    ];
}

/// The module of the run page with its guided walk, which `tour=1` opens
/// (`run::tour::opens_walk`) in its own file, [`WALK_FILE`].
pub const WALK_MODULE: &str = "rate-limit-lab-tour";

/// The guided walk's own file, whose head starts [`WALK_MODULE`].
pub const WALK_FILE: &str = "walk.html";

/// The module of the lab's bare address (`index.html`): the run page and the opening
/// story (`run::opening`), without the walk, whose button opens [`WALK_FILE`]. The first
/// visit downloads the least it needs to show the story (docs/sizes-and-speeds.md).
pub const FIRST_MODULE: &str = "rate-limit-lab-first";

/// The lab's pages as `assets/loader.js` and `scripts/entry-pages.mjs` must treat them,
/// as JSON: for each page its module, its own file and the query key that asks for it,
/// then the bare address's module and the walk's. The browser tests read this table
/// (`tests/browser/fixtures/pages.json`, which a test holds equal to it) and check by
/// behaviour that each file and each link opens its page.
pub fn pages_json() -> String {
    let pages: Vec<serde_json::Value> = Page::ALL
        .iter()
        .map(|p| {
            serde_json::json!({
                "module": p.module(),
                "file": p.entry_file(),
                "key": p.key().map(|(k, v)| [k, v]),
            })
        })
        .collect();
    let table = serde_json::json!({
        "pages": pages,
        "first": { "module": FIRST_MODULE, "file": "index.html" },
        "walk": { "module": WALK_MODULE, "file": WALK_FILE },
    });
    serde_json::to_string_pretty(&table).expect("plain values serialise") + "\n"
}

sim::named_enum! {
    /// Whether the page animates: the reader's system setting, or the URL's override.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Motion as "motion" {
        /// Follow the reader's `prefers-reduced-motion` setting.
        #[default]
        Auto = "auto",
        /// Animate playback, whatever the setting.
        On = "on",
        /// Never animate: runs play back instantly.
        Off = "off",
    }
}

impl Motion {
    /// True if the page may animate, given the reader's `prefers-reduced-motion`.
    pub fn animates(self, prefers_reduced_motion: bool) -> bool {
        match self {
            Motion::Auto => !prefers_reduced_motion,
            Motion::On => true,
            Motion::Off => false,
        }
    }
}

/// Seeds a sweep runs unless the URL says otherwise.
pub const DEFAULT_SWEEP_SEEDS: u64 = 200;

/// The most counters a widget's `counters=` may name.
pub const MAX_COUNTERS: usize = 6;

/// What the URL asks the page to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageQuery {
    /// Which half of the page.
    pub section: Section,
    /// Which view of the charges section.
    pub view: View,
    /// The strategy, if the URL names one.
    pub strategy: Option<StrategyName>,
    /// `strategy=all`: a sweep of every strategy.
    pub all_strategies: bool,
    /// The seed (1 if not given).
    pub seed: u64,
    /// Seeds in a sweep.
    pub seeds: u64,
    /// The playback speed.
    pub speed: Speed,
    /// A customer whose story to open (always one of the run's customers).
    pub customer: Option<u32>,
    /// `customer=<scene>`: open the story of the first customer showing this scene (as
    /// the CLI's `--customer double-charge` does), once the run has found one.
    pub scene: Option<Scene>,
    /// `counters=a,b,c`: the counters an embedded widget shows (by their JSON names);
    /// `None`: the ones that matter for its strategy.
    pub counters: Option<Vec<StatField>>,
    /// An experiment of the limits section to run on load.
    pub experiment: Option<ExperimentName>,
    /// The numbers the limits experiments run with (`burstGapMs`, `herdJitter`, …).
    pub lab: crate::limits::settings::LabSettings,
    /// `embed=1`: show the page without its surroundings, for embedding in an article.
    pub embed: bool,
    /// `present=1`: the presenter's layout for a room: large text and controls, the
    /// prose folded away.
    pub present: bool,
    /// Whether playback may animate.
    pub motion: Motion,
    /// `tour=1`: the guided walk through the six strategies is open.
    pub tour: bool,
    /// `step=N`: the walk's step, from 0 here (from 1 in the URL).
    pub step: usize,
    /// `param=`: the parameter a sweep steps through (`from`, `to`, `steps`, `stat`),
    /// instead of the seed alone.
    pub sweep_param: Option<ParamSweepSpec>,
    /// `code=`: a client's code as the client view's link carries it (base64url of its
    /// UTF-8 text, `client::code`), not yet read: only that view reads it, and shows it,
    /// never running it until the reader presses Run.
    pub code: Option<String>,
    /// The run the URL describes, always valid: every parameter, with `seed` and the
    /// strategy (`strategy`, or [`FALLBACK_STRATEGY`] when none is named) filled in.
    pub scenario: Scenario,
    /// One sentence for each value that could not be used, saying what was used instead.
    pub problems: Vec<String>,
}

impl Default for PageQuery {
    /// What an empty query asks for: the same as `parse(&[])`.
    fn default() -> Self {
        Self {
            section: Section::default(),
            view: View::default(),
            strategy: None,
            all_strategies: false,
            seed: 1,
            seeds: DEFAULT_SWEEP_SEEDS,
            speed: Speed::default(),
            customer: None,
            scene: None,
            counters: None,
            experiment: None,
            lab: crate::limits::settings::LabSettings::default(),
            embed: false,
            present: false,
            motion: Motion::default(),
            tour: false,
            step: 0,
            sweep_param: None,
            code: None,
            scenario: Scenario::article(FALLBACK_STRATEGY, 1),
            problems: Vec::new(),
        }
    }
}

impl PageQuery {
    /// The page playing `scenario` at `speed` in the run view: write it with
    /// [`PageQuery::to_query`] to name that run in the address bar.
    pub fn for_run(scenario: &Scenario, speed: Speed) -> Self {
        Self {
            strategy: Some(scenario.strategy),
            seed: scenario.seed,
            speed,
            // A URL cannot turn the record off (the page always keeps one), so neither
            // does a page state, or it would not read back equal to itself.
            scenario: Scenario {
                record: true,
                ..scenario.clone()
            },
            ..Self::default()
        }
    }

    /// The numbers the link names, with its seed: what the compare, sweep, limits and
    /// headers pages show, and what their links to other pages carry.
    pub fn seeded_scenario(&self) -> Scenario {
        Scenario {
            seed: self.seed,
            ..self.scenario.clone()
        }
    }

    /// A link to this page: its [`Page::entry_file`] and its query. A step of the guided
    /// walk opens in the walk's own file ([`WALK_FILE`]): the walk has a module of its own.
    pub fn href(&self) -> String {
        let file = match self.page() {
            Page::Run if self.tour => WALK_FILE,
            page => page.entry_file(),
        };
        format!("{file}{}", self.to_query())
    }

    /// The page this query opens: `embed=1` first, then the limits section, then the
    /// charges section's views.
    pub fn page(&self) -> Page {
        match (self.embed, self.section, self.view) {
            (true, _, _) => Page::Embed,
            (false, Section::Limits, _) => Page::Limits,
            (false, Section::Headers, _) => Page::Headers,
            (false, Section::Charges, View::Run) => Page::Run,
            (false, Section::Charges, View::Compare) => Page::Compare,
            (false, Section::Charges, View::Sweep) => Page::Sweep,
            (false, Section::Charges, View::Matrix) => Page::Matrix,
            (false, Section::Charges, View::Client) => Page::Client,
        }
    }

    /// True if the sweep view should start as soon as the page loads: the URL opens it
    /// and names what to sweep (a strategy, or `all`). A tab that links to the sweep
    /// names nothing, so the reader starts it.
    pub fn sweep_autostart(&self) -> bool {
        self.view == View::Sweep
            && (self.strategy.is_some() || self.all_strategies || self.sweep_param.is_some())
    }

    /// The strategies a parameter sweep runs: the one named, all six for `all`, else
    /// every strategy whose plan reads the parameter.
    pub fn param_sweep_strategies(&self, param: sim::Param) -> Vec<StrategyName> {
        match (self.all_strategies, self.strategy) {
            (true, _) => StrategyName::ALL.to_vec(),
            (false, Some(one)) => vec![one],
            (false, None) => sim::param_sweep::strategies_using(param),
        }
    }

    /// The one strategy a seed sweep runs, or `None` for every strategy (`strategy=all`,
    /// or none named).
    pub fn seed_sweep_strategy(&self) -> Option<StrategyName> {
        (!self.all_strategies).then_some(self.strategy).flatten()
    }

    /// The strategies a seed sweep runs ([`PageQuery::seed_sweep_strategy`]).
    pub fn seed_sweep_strategies(&self) -> Vec<StrategyName> {
        self.seed_sweep_strategy()
            .map_or_else(|| StrategyName::ALL.to_vec(), |one| vec![one])
    }

    /// True if the run view should start a run as soon as the page loads: a linked
    /// run, unless it is a step of the walk, which asks its question first.
    pub fn autostart(&self) -> bool {
        self.view == View::Run && self.strategy.is_some() && !self.tour
    }

    /// The speed playback should use: instant when motion is off, or when it follows a
    /// reader who prefers reduced motion.
    pub fn playback_speed(&self, prefers_reduced_motion: bool) -> Speed {
        if self.motion.animates(prefers_reduced_motion) {
            self.speed
        } else {
            Speed::Instant
        }
    }

    /// The query string that [`parse`] reads back into this page: section, view,
    /// strategy, seed and speed, then only what differs from the defaults, in a fixed
    /// order. The parameters come from `scenario`; `seed` and `strategy` from the fields
    /// of the same names.
    pub fn to_query(&self) -> String {
        let mut parts: Vec<(&str, String)> = vec![
            ("section", self.section.as_str().into()),
            ("view", self.view.as_str().into()),
        ];
        if self.all_strategies {
            parts.push(("strategy", "all".into()));
        } else if let Some(s) = self.strategy {
            parts.push(("strategy", s.as_str().into()));
        }
        parts.push(("seed", self.seed.to_string()));
        parts.push(("speed", self.speed.as_str().into()));
        if self.seeds != DEFAULT_SWEEP_SEEDS {
            parts.push(("seeds", self.seeds.to_string()));
        }
        if let Some(sp) = self.sweep_param {
            parts.push(("param", spec(sp.param).key.into()));
            parts.push((
                "from",
                crate::sweep::param_sweep::value_text(sp.param, sp.from),
            ));
            parts.push(("to", crate::sweep::param_sweep::value_text(sp.param, sp.to)));
            parts.push(("steps", sp.steps.to_string()));
            parts.push(("stat", sp.stat.as_str().into()));
        }
        if let Some(c) = self.customer {
            parts.push(("customer", c.to_string()));
        } else if let Some(scene) = self.scene {
            parts.push(("customer", scene.as_str().into()));
        }
        if let Some(fields) = &self.counters {
            let names: Vec<&str> = fields.iter().map(|f| f.as_str()).collect();
            parts.push(("counters", names.join(",")));
        }
        if let Some(e) = self.experiment {
            parts.push(("experiment", e.as_str().into()));
        }
        for k in self.lab.changed() {
            parts.push((k.key, self.lab.text(k.id)));
        }
        for p in PARAMS.iter().filter(|p| !p.is_default(&self.scenario)) {
            parts.push((p.key, p.read(&self.scenario)));
        }
        if self.embed {
            parts.push(("embed", "1".into()));
        }
        if self.present {
            parts.push(("present", "1".into()));
        }
        if self.motion != Motion::Auto {
            parts.push(("motion", self.motion.as_str().into()));
        }
        if self.tour {
            parts.push(("tour", "1".into()));
            parts.push(("step", (self.step + 1).to_string()));
        }
        if let Some(code) = &self.code {
            parts.push(("code", code.clone()));
        }
        let joined: Vec<String> = parts
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect();
        format!("?{}", joined.join("&"))
    }
}

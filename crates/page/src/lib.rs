//! rate-limit-lab's page layer: the URL, labels, sentences, number formats, markup,
//! exports and the CLI line that reproduces a page, over the core ([`sim`]). It compiles
//! natively and is tested natively; nothing of the browser reaches it.
//!
//! The page's URL query, read into what the page should show, plus a plain sentence for
//! every value it could not use. Pure: the browser decodes the query string into pairs
//! (`URLSearchParams`), and this module decides what they mean, so it is tested natively.
//!
//! The query carries a whole run: besides the page's own keys (section, view, strategy,
//! seed, …) it holds every parameter of [`params::PARAMS`], so a shared link reproduces
//! exactly what its sender saw, and [`PageQuery::to_query`] writes one back.

#![deny(missing_docs, unreachable_pub)]

pub mod budget;
pub mod code;
pub mod controls;
pub mod equivalents;
pub mod explore;
pub mod export;
pub mod export_bar;
pub mod format;
pub mod header_reader;
pub mod headers;
pub mod histogram;
pub mod incident;
pub mod intro;
pub mod keys;
pub mod knobs;
pub mod lab;
pub mod legend;
pub mod limiter;
pub mod links;
pub mod markup;
pub mod matrix;
pub mod names;
pub mod note;
pub mod odds;
pub mod param_sweep;
pub mod param_sweep_chart;
pub mod params;
pub mod params_form;
pub mod sections;
pub mod seeds;
pub mod stage;
pub mod stats;
pub mod story;
pub mod sweep_forms;
pub mod sweep_progress;
pub mod ticks;
pub mod titles;
pub mod tour;
pub mod words;

pub use params::{
    apply_param, apply_params, param, parse_param, read_param, set_param, spec, ParamGroup,
    ParamKind, ParamSpec, ParamValue, PARAMS,
};

use crate::words::Words;
use sim::lab::ExperimentName;
use sim::names::Named;
use sim::param::Rule;
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
    }
}

/// The lab's pages. Each is built as a WebAssembly module of its own (README, "Sizes"):
/// `rate-limit-lab`, `rate-limit-lab-compare`, `-sweep`, `-limits`, `-headers` and
/// `-embed`, so a reader downloads only the page they open. `assets/loader.js` picks the module from the same
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
    /// One widget, for an iframe (`embed=1`) or a `<div data-rate-limit-lab>`.
    Embed,
}

impl Page {
    /// The file a link to this page opens: each page has an HTML file of its own
    /// (`run.html`, `compare.html`, …), which is `index.html` with a hint in its head that
    /// starts this page's module at once, rather than after the loader has read the link
    /// (README, "Time to ready"; `scripts/entry-pages.mjs` writes them). A link into the
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
            Page::Embed => "embed.html",
        }
    }

    /// Every page, in the order of the enum.
    pub const ALL: [Page; 7] = [
        Page::Run,
        Page::Compare,
        Page::Sweep,
        Page::Matrix,
        Page::Limits,
        Page::Headers,
        Page::Embed,
    ];
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
    pub lab: lab::settings::LabSettings,
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
            lab: lab::settings::LabSettings::default(),
            embed: false,
            present: false,
            motion: Motion::default(),
            tour: false,
            step: 0,
            sweep_param: None,
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
    /// walk opens at the lab's own address, `./`: the walk has a module of its own, which
    /// no page file asks for.
    pub fn href(&self) -> String {
        let file = match self.page() {
            Page::Run if self.tour => "./",
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
            parts.push(("from", param_sweep::value_text(sp.param, sp.from)));
            parts.push(("to", param_sweep::value_text(sp.param, sp.to)));
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
        let joined: Vec<String> = parts
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect();
        format!("?{}", joined.join("&"))
    }
}

sim::named_enum! {
    /// The page's own keys; the run's parameters are in [`PARAMS`].
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum PageKey as "key" {
        /// Which section.
        Section = "section",
        /// Which view of the charges.
        View = "view",
        /// The strategy, or `all`.
        Strategy = "strategy",
        /// The seed.
        Seed = "seed",
        /// Seeds in a sweep.
        Seeds = "seeds",
        /// Playback speed.
        Speed = "speed",
        /// The customer whose story is open: an id, or a scene's name.
        Customer = "customer",
        /// The counters an embedded widget shows.
        Counters = "counters",
        /// The limits experiment.
        Experiment = "experiment",
        /// The compact, framed page.
        Embed = "embed",
        /// The presenter's layout.
        Present = "present",
        /// Whether playback animates.
        Motion = "motion",
        /// The guided walk.
        Tour = "tour",
        /// The walk's step.
        Step = "step",
    }
}

sim::named_enum! {
    /// The keys of a parameter sweep: they mean something only together, so they are
    /// read after the others.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum SweepKey as "key" {
        /// The parameter a sweep steps through.
        SweepParam = "param",
        /// Its first value, in its unit.
        From = "from",
        /// Its last value, in its unit.
        To = "to",
        /// How many values.
        Steps = "steps",
        /// The stat a parameter sweep follows.
        Stat = "stat",
    }
}

/// The default strategy when the URL names one we do not know.
pub const FALLBACK_STRATEGY: StrategyName = StrategyName::Keyed;

/// Every key this page understands, page keys first.
fn known_keys() -> impl Iterator<Item = &'static str> {
    PageKey::NAMES
        .into_iter()
        .chain(SweepKey::NAMES)
        .chain(PARAMS.iter().map(|p| p.key))
        .chain(lab::settings::KNOBS.iter().map(|k| k.key))
}

/// The sentence for a key this page does not understand.
fn unknown_key(key: &str, value: &str) -> String {
    if key.is_empty() {
        return format!(
            "Ignored the value '{}': it has no parameter name before its '='.",
            shown(value)
        );
    }
    if let Some(k) = known_keys().find(|k| k.eq_ignore_ascii_case(key)) {
        return format!(
            "Ignored the unknown parameter '{}'; did you mean '{k}'? Names are case-sensitive.",
            shown(key)
        );
    }
    // The page's own keys are listed; the numbers' and the limits experiments' keys
    // would make the sentence too long to read: the CLI's help lists them.
    let page_keys: Vec<&str> = PageKey::NAMES.into_iter().chain(SweepKey::NAMES).collect();
    format!(
        "Ignored the unknown parameter '{}'. Known: {}, and each number's key (customers, timeoutMs, …: `ratelab charges --help` and `ratelab limits --help` list them).",
        shown(key),
        page_keys.join(", ")
    )
}

/// The member named `text`, or the sentence for a name that matches nothing, saying
/// what is used instead.
fn one_of<T: Named + std::fmt::Display>(text: &str, fallback: T) -> Result<T, String> {
    T::by_name(text).map_err(|e| format!("{} Using {fallback} instead.", e.said()))
}

/// Reads decoded `(key, value)` pairs, in URL order.
pub fn parse(pairs: &[(String, String)]) -> PageQuery {
    let mut q = PageQuery::default();
    let mut seen: Vec<&str> = Vec::new();
    // A parameter sweep's keys mean something only together; read after the others.
    let mut sweep_keys: Vec<(SweepKey, &str)> = Vec::new();
    for (key, value) in pairs {
        let key = key.as_str();
        let Some(known) = Key::of(key) else {
            q.problems.push(unknown_key(key, value));
            continue;
        };
        if seen.contains(&key) {
            q.problems.push(format!(
                "'{key}' appears more than once; the first value is used."
            ));
            continue;
        }
        seen.push(key);
        let problem = match known {
            Key::Sweep(k) => {
                sweep_keys.push((k, value.trim()));
                None
            }
            Key::Page(k) => read_pair(&mut q, k, value.trim()),
            Key::Param(spec) => read_param_pair(&mut q, spec, value.trim()),
            Key::Lab(knob) => q
                .lab
                .read(knob.id, value)
                .err()
                .map(|why| format!("{why} Using the default, {}.", knob.shown(knob.default))),
        };
        q.problems.extend(problem);
    }
    read_param_sweep(&mut q, &sweep_keys);
    check_combination(&mut q);
    q
}

/// Reads `param`, `from`, `to`, `steps` and `stat` together: each bad value gets its
/// sentence and its default, and `from` must be below `to`.
fn read_param_sweep(q: &mut PageQuery, keys: &[(SweepKey, &str)]) {
    let get = |k: SweepKey| keys.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
    let Some(name) = get(SweepKey::SweepParam) else {
        if !keys.is_empty() {
            let names: Vec<&str> = keys.iter().map(|(k, _)| k.as_str()).collect();
            q.problems.push(format!(
                "Ignored {}: they describe a parameter sweep, which needs 'param' too.",
                names.join(", ")
            ));
        }
        return;
    };
    let Some(ps) = param(name).filter(|p| param_sweep::sweepable(p.param)) else {
        q.problems.push(match param(name) {
            Some(p) => param_sweep::not_sweepable(p.param),
            None => format!(
                "There is no parameter called '{}' to sweep; no parameter sweep is run.",
                shown(name)
            ),
        });
        return;
    };
    let (lo, hi) = param_sweep::default_span(ps.param);
    let end = |k: SweepKey, default: u64, problems: &mut Vec<String>| match get(k) {
        None => default,
        Some(text) => match ps.parse(text) {
            Ok(ParamValue::Whole(n)) => n,
            Ok(_) => default,
            Err(why) => {
                problems.push(format!(
                    "The sweep's '{}': {why} Using {}.",
                    k.as_str(),
                    param_sweep::value_text(ps.param, default)
                ));
                default
            }
        },
    };
    let mut from = end(SweepKey::From, lo, &mut q.problems);
    let mut to = end(SweepKey::To, hi, &mut q.problems);
    if from >= to {
        q.problems.push(format!(
            "The sweep's 'from' ({}) must be below its 'to' ({}); using {} to {} {}.",
            param_sweep::value_text(ps.param, from),
            param_sweep::value_text(ps.param, to),
            param_sweep::value_text(ps.param, lo),
            param_sweep::value_text(ps.param, hi),
            ps.unit
        ));
        (from, to) = (lo, hi);
    }
    let steps = match get(SweepKey::Steps)
        .map(|t| parse_count(t, sim::param_sweep::MIN_STEPS, sim::param_sweep::MAX_STEPS))
    {
        None => param_sweep::DEFAULT_STEPS,
        Some(Ok(n)) => n,
        Some(Err(why)) => {
            q.problems.push(format!(
                "The sweep's steps {why}; using {}.",
                param_sweep::DEFAULT_STEPS
            ));
            param_sweep::DEFAULT_STEPS
        }
    };
    let stat = match get(SweepKey::Stat).map(|t| one_of(t, param_sweep::DEFAULT_STAT)) {
        None => param_sweep::DEFAULT_STAT,
        Some(Ok(f)) => f,
        Some(Err(why)) => {
            q.problems.push(why);
            param_sweep::DEFAULT_STAT
        }
    };
    q.sweep_param = Some(ParamSweepSpec {
        param: ps.param,
        from,
        to,
        steps,
        stat,
    });
}

/// A key this page understands: one of its own, or a parameter of the run.
#[derive(Clone, Copy)]
enum Key {
    Page(PageKey),
    Sweep(SweepKey),
    Param(&'static ParamSpec),
    Lab(&'static lab::settings::Knob),
}

impl Key {
    fn of(key: &str) -> Option<Key> {
        match param(key) {
            Some(spec) => Some(Key::Param(spec)),
            None => PageKey::by_name(key)
                .ok()
                .map(Key::Page)
                .or_else(|| SweepKey::by_name(key).ok().map(Key::Sweep))
                .or_else(|| lab::settings::knob(key).map(Key::Lab)),
        }
    }
}

/// Reads one parameter's value into `q`'s scenario; the sentence if it could not be used.
fn read_param_pair(q: &mut PageQuery, spec: &ParamSpec, value: &str) -> Option<String> {
    match spec.parse(value) {
        Ok(v) => {
            // What `parse` accepts the core accepts: nothing is refused here.
            let set = spec.param.set_unchecked(&mut q.scenario, v);
            debug_assert!(set.is_ok(), "parse refuses what the core would");
            None
        }
        Err(why) => Some(format!(
            "{why} Using the default, {}.",
            spec.default_with_unit()
        )),
    }
}

/// Reads one of the page's own keys into `q`; the sentence if it could not be used.
fn read_pair(q: &mut PageQuery, key: PageKey, value: &str) -> Option<String> {
    match key {
        PageKey::Section => one_of(value, Section::Charges).map(|v| q.section = v).err(),
        PageKey::View => one_of(value, View::Run).map(|v| q.view = v).err(),
        PageKey::Strategy if value == "all" => {
            q.all_strategies = true;
            None
        }
        PageKey::Strategy => {
            let (strategy, problem) = match one_of(value, FALLBACK_STRATEGY) {
                Ok(s) => (s, None),
                Err(why) => (FALLBACK_STRATEGY, Some(why)),
            };
            q.strategy = Some(strategy);
            problem
        }
        PageKey::Seed => match parse_seed(value) {
            Ok(seed) => {
                q.seed = seed;
                None
            }
            Err(why) => Some(format!("{why} Using seed 1 instead.")),
        },
        PageKey::Seeds => match parse_count(value, 1, sim::sweep::MAX_SEEDS) {
            Ok(n) => {
                q.seeds = n;
                None
            }
            Err(why) => Some(format!(
                "The number of seeds {why}; using {DEFAULT_SWEEP_SEEDS} instead."
            )),
        },
        PageKey::Speed => one_of(value, Speed::default()).map(|v| q.speed = v).err(),
        PageKey::Customer => match (
            parse_count(value, 1, u64::from(u32::MAX)),
            value.parse::<Scene>(),
        ) {
            (Ok(n), _) => {
                q.customer = u32::try_from(n).ok();
                None
            }
            (_, Ok(scene)) => {
                q.scene = Some(scene);
                None
            }
            (Err(why), Err(_)) => Some(format!(
                "The customer {why}, and not one of the scenes ({}); no story is opened.",
                Scene::NAMES.join(", ")
            )),
        },
        PageKey::Counters => {
            let fields: Result<Vec<StatField>, _> = value
                .split(',')
                .map(|name| name.trim().parse::<StatField>())
                .collect();
            match fields {
                Ok(f) if !f.is_empty() && f.len() <= MAX_COUNTERS => {
                    q.counters = Some(f);
                    None
                }
                Ok(_) => Some(format!(
                    "The counters name {} fields; a widget shows 1 to {MAX_COUNTERS}, so it shows the ones that matter for its strategy.",
                    value.split(',').count()
                )),
                Err(e) => Some(format!(
                    "{} The widget shows the counters that matter for its strategy.",
                    e.said()
                )),
            }
        }
        PageKey::Experiment => match ExperimentName::by_name(value) {
            Ok(e) => {
                q.experiment = Some(e);
                None
            }
            Err(e) => Some(format!("{} Pick one on the page.", e.said())),
        },
        PageKey::Embed => match value {
            "1" => {
                q.embed = true;
                None
            }
            "0" => None,
            _ => Some(format!(
                "The embed '{}' is not 1 or 0; showing the whole page.",
                shown(value)
            )),
        },
        PageKey::Present => match value {
            "1" => {
                q.present = true;
                None
            }
            "0" => None,
            _ => Some(format!(
                "The present '{}' is not 1 or 0; showing the reader's layout.",
                shown(value)
            )),
        },
        PageKey::Motion => one_of(value, Motion::Auto).map(|v| q.motion = v).err(),
        PageKey::Tour => match value {
            "1" => {
                q.tour = true;
                None
            }
            "0" => None,
            _ => Some(format!(
                "The tour '{}' is not 1 or 0; the guided walk stays closed.",
                shown(value)
            )),
        },
        PageKey::Step => match parse_count(value, 1, tour::STEPS as u64) {
            Ok(n) => {
                q.step = n as usize - 1;
                None
            }
            Err(why) => Some(format!(
                "The walk's step {why}; starting at its first step."
            )),
        },
    }
}

/// Once every value is in: rules that span fields, and the seed and strategy copied into
/// the scenario. Leaves `q.scenario` valid whatever the URL said.
fn check_combination(q: &mut PageQuery) {
    if q.step > 0 && !q.tour {
        q.problems.push(
            "Ignored 'step': it is a step of the guided walk, which opens with tour=1.".into(),
        );
        q.step = 0;
    }
    let s = &mut q.scenario;
    // Every value was checked on its own as it was read; each broken rule puts back the
    // parameters it involves, which satisfies it.
    while let Some(rule) = Rule::first_broken(s) {
        let why = params::rule_sentence(rule, s);
        let defaults: Vec<String> = rule
            .params()
            .iter()
            .map(|&p| {
                p.reset(s);
                let spec = spec(p);
                format!("{} {}", spec.key, spec.default_with_unit())
            })
            .collect();
        q.problems.push(format!(
            "{why} Using the defaults, {}.",
            defaults.join(" and ")
        ));
    }
    s.seed = q.seed;
    s.strategy = q.strategy.unwrap_or(FALLBACK_STRATEGY);
    s.record = true;
    debug_assert_eq!(s.validate(), Ok(()), "every value and rule was checked");
    if let Some(c) = q.customer.filter(|&c| c > q.scenario.customers) {
        q.problems.push(format!(
            "There is no customer {c}: this run has customers 1 to {}.",
            q.scenario.customers
        ));
        q.customer = None;
    }
}

/// A whole number in `lo..=hi`, or what is wrong with it (a phrase: "… must be …").
pub fn parse_count(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let t = text.trim();
    match t.parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} is outside {lo}–{hi}")),
        Err(_) => Err(format!(
            "'{}' is not a whole number from {lo} to {hi}",
            shown(t)
        )),
    }
}

/// A seed: a whole number from 0 to 18446744073709551615.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("The seed is empty: it must be a whole number.".into());
    }
    t.parse::<u64>().map_err(|_| {
        if t.bytes().all(|b| b.is_ascii_digit()) {
            format!(
                "The seed {} is too large: the largest is {}.",
                shown(t),
                u64::MAX
            )
        } else {
            format!(
                "The seed '{}' is not a whole number from 0 to {}.",
                shown(t),
                u64::MAX
            )
        }
    })
}

/// A user's value, made safe to quote in a message: shortened so a huge one cannot flood
/// the page, and with control and text-direction characters replaced by `�` so a value
/// cannot reverse or break the sentence around it.
pub fn shown(value: &str) -> String {
    const MAX_CHARS: usize = 40;
    let mut out: String = value
        .chars()
        .take(MAX_CHARS)
        .map(|c| if is_unsafe_to_quote(c) { '\u{FFFD}' } else { c })
        .collect();
    if value.chars().count() > MAX_CHARS {
        out.push('…');
    }
    out
}

/// Controls, and the invisible marks that change the direction of the text after them.
fn is_unsafe_to_quote(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The query string for a run with the article's parameters, e.g.
/// `?section=charges&view=run&strategy=keyed&seed=7&speed=1x`. For a run with its own
/// parameters use [`PageQuery::for_run`] and [`PageQuery::to_query`].
pub fn to_query(strategy: StrategyName, seed: u64, speed: Speed) -> String {
    PageQuery::for_run(&Scenario::article(strategy, seed), speed).to_query()
}

/// Percent-encodes a value for a query string, keeping the characters that need no
/// escape there (our own values: names, numbers, `1/20`).
fn encode(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Splits a query string (`?a=1&b=x+y`) into decoded pairs the way a browser's
/// `URLSearchParams` does: `+` is a space, `%XX` a byte, a malformed `%` stays as it
/// is, bytes that are not UTF-8 become `�`, and empty pieces between `&`s are skipped.
/// The command line and the tests read queries with it; the page has the browser's.
pub fn pairs_of(query: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query
        .split('&')
        .filter(|piece| !piece.is_empty())
        .map(|piece| {
            let (k, v) = piece.split_once('=').unwrap_or((piece, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// `application/x-www-form-urlencoded` decoding of one name or value.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let hex = |b: u8| char::from(b).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', hi, lo]) => hex(*hi).zip(hex(*lo)).map(|(h, l)| (h * 16 + l) as u8),
            _ => None,
        };
        match (escaped, bytes[i]) {
            (Some(b), _) => {
                out.push(b);
                i += 3;
            }
            (None, b'+') => {
                out.push(b' ');
                i += 1;
            }
            (None, b) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use sim::rng::SimRng;

    fn q(s: &[(&str, &str)]) -> PageQuery {
        parse(
            &s.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn a_story_by_scene_the_widget_counters_and_the_presenter_layout_read_and_write_back() {
        let p = q(&[("strategy", "keyed"), ("customer", "conflict")]);
        assert_eq!((p.customer, p.scene), (None, Some(Scene::Conflict)));
        assert!(p.problems.is_empty());
        assert_eq!(parse(&pairs_of(&p.to_query())), p);
        let p = q(&[("customer", "12")]);
        assert_eq!((p.customer, p.scene), (Some(12), None));
        let p = q(&[("customer", "bogus")]);
        assert_eq!((p.customer, p.scene), (None, None));
        assert!(
            p.problems[0].contains("not one of the scenes (double-charge,"),
            "{:?}",
            p.problems
        );
        let p = q(&[("counters", "duplicates,requests")]);
        assert_eq!(
            p.counters,
            Some(vec![StatField::Duplicates, StatField::Requests])
        );
        assert_eq!(parse(&pairs_of(&p.to_query())), p);
        let p = q(&[("counters", "duplicates,typo")]);
        assert_eq!(p.counters, None);
        assert!(p.problems[0].contains("'typo'"), "{:?}", p.problems);
        let seven = ["requests"; MAX_COUNTERS + 1].join(",");
        let p = q(&[("counters", &seven)]);
        assert_eq!(p.counters, None);
        assert!(p.problems[0].contains("1 to 6"), "{:?}", p.problems);
        let p = q(&[("present", "1")]);
        assert!(p.present);
        assert_eq!(parse(&pairs_of(&p.to_query())), p);
        let p = q(&[("present", "yes")]);
        assert!(!p.present && !p.problems.is_empty());
    }

    #[test]
    fn the_walks_step_reads_and_writes_back_and_bad_values_are_named() {
        let p = q(&[("tour", "1"), ("step", "3"), ("strategy", "retry")]);
        assert!(p.tour && p.problems.is_empty(), "{:?}", p.problems);
        assert_eq!(p.step, 2);
        // A linked step asks its question before anything runs.
        assert!(!p.autostart());
        assert!(p.to_query().ends_with("&tour=1&step=3"), "{}", p.to_query());
        assert_eq!(parse(&pairs_of(&p.to_query())), p);
        let p = q(&[("tour", "1"), ("step", "7")]);
        assert_eq!(p.step, 0);
        assert_eq!(
            p.problems,
            vec!["The walk's step 7 is outside 1–6; starting at its first step.".to_string()]
        );
        let p = q(&[("tour", "1"), ("step", "two")]);
        assert!(
            p.problems[0].contains("'two' is not a whole number from 1 to 6"),
            "{:?}",
            p.problems
        );
        let p = q(&[("tour", "yes")]);
        assert!(!p.tour);
        assert!(
            p.problems[0].contains("The tour 'yes' is not 1 or 0"),
            "{:?}",
            p.problems
        );
        let p = q(&[("step", "4")]);
        assert!(!p.tour && p.step == 0);
        assert!(
            p.problems[0].starts_with("Ignored 'step'"),
            "{:?}",
            p.problems
        );
        let p = q(&[("tour", "0")]);
        assert!(!p.tour && p.problems.is_empty());
        assert!(!p.to_query().contains("tour"));
    }

    #[test]
    fn a_good_query_starts_that_run() {
        let p = q(&[("strategy", "pool"), ("seed", "42"), ("speed", "1x")]);
        assert_eq!(
            (p.strategy, p.seed, p.speed),
            (Some(StrategyName::Pool), 42, Speed::X1)
        );
        assert!(p.problems.is_empty() && p.autostart());
        assert!(!q(&[]).autostart());
        assert_eq!(q(&[("seed", "18446744073709551615")]).seed, u64::MAX);
    }

    #[test]
    fn bad_values_fall_back_with_a_sentence_each() {
        let p = q(&[("strategy", "yolo"), ("seed", "-4"), ("speed", "warp")]);
        assert_eq!(
            (p.strategy, p.seed, p.speed),
            (Some(StrategyName::Keyed), 1, Speed::X10)
        );
        assert_eq!(p.problems.len(), 3);
        assert!(
            p.problems[0].contains("no strategy called 'yolo'"),
            "{:?}",
            p.problems
        );
        assert!(p.problems[1].contains("'-4' is not a whole number"));
        assert_eq!(
            p.problems[2],
            "There is no speed called 'warp'; use one of instant, 10x, 1x, 0.1x, 0.01x. Using 10x instead."
        );
    }

    #[test]
    fn unknown_repeated_and_huge_values_are_reported() {
        let p = q(&[
            ("seed", "5"),
            ("seed", "6"),
            ("colour", "red"),
            ("seed", "99999999999999999999"),
        ]);
        assert_eq!(p.seed, 5);
        assert!(p
            .problems
            .iter()
            .any(|m| m.contains("'seed' appears more than once")));
        assert!(p
            .problems
            .iter()
            .any(|m| m.contains("unknown parameter 'colour'")));
        let p = q(&[("seed", "99999999999999999999")]);
        assert!(p.problems[0].contains("too large"), "{:?}", p.problems);
        let long = "x".repeat(10_000);
        let p = q(&[("strategy", &long)]);
        assert!(
            p.problems[0].len() < 300,
            "a huge value is shortened in the message"
        );
    }

    #[test]
    fn the_seeded_scenario_carries_the_links_seed_and_numbers() {
        let s = q(&[("seed", "9"), ("maxInflight", "8")]).seeded_scenario();
        assert_eq!((s.seed, s.provider.max_inflight), (9, 8));
        assert_eq!(q(&[]).seeded_scenario(), Scenario::default());
    }

    #[test]
    fn each_query_opens_one_page() {
        let page = |pairs: &[(&str, &str)]| q(pairs).page();
        assert_eq!(page(&[]), Page::Run);
        assert_eq!(page(&[("strategy", "pool"), ("seed", "3")]), Page::Run);
        assert_eq!(page(&[("view", "compare")]), Page::Compare);
        assert_eq!(page(&[("view", "sweep"), ("strategy", "all")]), Page::Sweep);
        assert_eq!(
            page(&[("section", "limits"), ("view", "compare")]),
            Page::Limits
        );
        assert_eq!(page(&[("section", "headers")]), Page::Headers);
        assert_eq!(page(&[("embed", "1"), ("section", "limits")]), Page::Embed);
        // What cannot be read falls back, and so does the page.
        assert_eq!(page(&[("view", "Compare")]), Page::Run);
        assert_eq!(page(&[("section", "limits!")]), Page::Run);
        assert_eq!(page(&[("embed", "yes")]), Page::Run);
        // The first of a repeated key counts, as in the loader's URLSearchParams.get.
        assert_eq!(page(&[("view", "sweep"), ("view", "run")]), Page::Sweep);
    }

    #[test]
    fn a_sweep_starts_itself_only_when_the_link_names_what_to_sweep() {
        assert!(q(&[("view", "sweep"), ("strategy", "all")]).sweep_autostart());
        assert!(q(&[("view", "sweep"), ("strategy", "keyed")]).sweep_autostart());
        assert!(!q(&[("view", "sweep")]).sweep_autostart());
        assert!(!q(&[("view", "compare"), ("strategy", "all")]).sweep_autostart());
    }

    #[test]
    fn views_sections_sweeps_and_customers() {
        let p = q(&[("view", "sweep"), ("strategy", "all"), ("seeds", "500")]);
        assert_eq!(
            (p.view, p.all_strategies, p.seeds),
            (View::Sweep, true, 500)
        );
        assert!(!p.autostart(), "a sweep is not a playback run");
        let p = q(&[("view", "compare"), ("seed", "9")]);
        assert_eq!((p.view, p.seed), (View::Compare, 9));
        let p = q(&[("strategy", "keyed"), ("customer", "42")]);
        assert_eq!(p.customer, Some(42));
        let p = q(&[("section", "limits"), ("experiment", "burst")]);
        assert_eq!(
            (p.section, p.experiment),
            (Section::Limits, Some(ExperimentName::Burst))
        );
        assert!(q(&[("experiment", "boom")]).problems[0].contains("no experiment called 'boom'"));
        let p = q(&[
            ("view", "graph"),
            ("seeds", "0"),
            ("customer", "-5"),
            ("section", "x"),
        ]);
        assert_eq!(
            (p.view, p.seeds, p.customer, p.section),
            (View::Run, DEFAULT_SWEEP_SEEDS, None, Section::Charges)
        );
        assert_eq!(p.problems.len(), 4, "{:?}", p.problems);
        assert!(
            p.problems[1].contains("0 is outside 1–10000"),
            "{:?}",
            p.problems
        );
    }

    #[test]
    fn a_parameter_sweep_reads_its_keys_in_any_order_and_explains_bad_ones() {
        use sim::time::ms;
        use sim::{Param, StatField};
        let p = q(&[
            ("stat", "duplicates"),
            ("view", "sweep"),
            ("param", "timeoutMs"),
            ("from", "200"),
            ("to", "3000"),
            ("steps", "15"),
            ("seeds", "50"),
        ]);
        assert_eq!(p.problems, Vec::<String>::new());
        assert_eq!(
            p.sweep_param,
            Some(ParamSweepSpec {
                param: Param::Timeout,
                from: ms(200),
                to: ms(3_000),
                steps: 15,
                stat: StatField::Duplicates
            })
        );
        assert!(p.sweep_autostart());
        assert_eq!(
            p.param_sweep_strategies(Param::Timeout),
            [
                StrategyName::TimeoutNoKey,
                StrategyName::Keyed,
                StrategyName::Pool,
                StrategyName::Headers,
                StrategyName::Budget,
                StrategyName::Breaker,
                StrategyName::Adaptive
            ]
        );
        let p = q(&[
            ("param", "workers"),
            ("from", "9"),
            ("to", "3"),
            ("steps", "99"),
            ("stat", "money"),
        ]);
        let sp = p.sweep_param.unwrap();
        assert_eq!(
            (sp.from, sp.to, sp.steps, sp.stat),
            (1, 24, 10, StatField::Duplicates)
        );
        assert_eq!(p.problems.len(), 3, "{:?}", p.problems);
        assert!(
            p.problems[0].contains("'from' (9) must be below its 'to' (3)"),
            "{:?}",
            p.problems
        );
        assert!(
            p.problems[1].contains("99 is outside 2–50"),
            "{:?}",
            p.problems
        );
        assert!(
            p.problems[2].contains("no stat called 'money'"),
            "{:?}",
            p.problems
        );
        let p = q(&[("param", "timeoutMs"), ("from", "-1")]);
        assert!(p.problems[0].contains("negative"), "{:?}", p.problems);
        assert_eq!(p.sweep_param.unwrap().from, ms(250));
        let p = q(&[("param", "jitter")]);
        assert_eq!(p.sweep_param, None);
        assert!(
            p.problems[0].contains("cannot be swept"),
            "{:?}",
            p.problems
        );
        let p = q(&[("from", "1"), ("steps", "3")]);
        assert_eq!(p.sweep_param, None);
        assert!(p.problems[0].contains("needs 'param'"), "{:?}", p.problems);
    }

    #[test]
    fn to_query_round_trips() {
        let text = to_query(StrategyName::TimeoutNoKey, 9, Speed::X10);
        let pairs: Vec<(String, String)> = text[1..]
            .split('&')
            .map(|kv| {
                kv.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .unwrap()
            })
            .collect();
        let p = parse(&pairs);
        assert_eq!(
            (p.strategy, p.seed, p.speed),
            (Some(StrategyName::TimeoutNoKey), 9, Speed::X10)
        );
    }

    /// A page state with every field drawn at random, half the parameters left at
    /// their defaults: what a reader could reach by clicking and typing.
    pub(crate) fn random_page(rng: &mut SimRng) -> PageQuery {
        use sim::rng::Odds;
        let pick = |rng: &mut SimRng, n: usize| rng.below(n as u64) as usize;
        let mut scenario = Scenario::default();
        for spec in PARAMS {
            if rng.chance(Odds::one_in(2)) {
                continue;
            }
            let value = match spec.kind() {
                ParamKind::Count | ParamKind::Micros => {
                    let b = spec.bounds().unwrap();
                    ParamValue::Whole(rng.between(*b.start(), *b.end()))
                }
                ParamKind::Odds => {
                    let den = rng.between(1, u64::from(u32::MAX)) as u32;
                    let num = rng.between(0, u64::from(den)) as u32;
                    ParamValue::Odds(Odds { num, den })
                }
                ParamKind::Switch => ParamValue::Switch(rng.chance(Odds::one_in(2))),
                ParamKind::Choice => ParamValue::Choice(pick(rng, spec.param.choices().len())),
            };
            spec.param.set_unchecked(&mut scenario, value).unwrap();
        }
        let p = &mut scenario.provider;
        p.latency_jitter_us = p.latency_jitter_us.min(p.latency_us);
        let all = rng.chance(Odds::one_in(5));
        let strategy =
            (!all && rng.chance(Odds::one_in(2))).then(|| StrategyName::ALL[pick(rng, 6)]);
        let seed = rng.between(0, u64::MAX);
        scenario.seed = seed;
        scenario.strategy = strategy.unwrap_or(FALLBACK_STRATEGY);
        let customers = u64::from(scenario.customers);
        let customer = rng
            .chance(Odds::one_in(3))
            .then(|| rng.between(1, customers) as u32);
        // A scene names a story only when no customer does (the number wins).
        let scene = (customer.is_none() && rng.chance(Odds::one_in(3)))
            .then(|| Scene::ALL[pick(rng, Scene::ALL.len())]);
        let tour = rng.chance(Odds::one_in(4));
        let counters = rng.chance(Odds::one_in(3)).then(|| {
            (0..rng.between(1, MAX_COUNTERS as u64))
                .map(|_| StatField::ALL[pick(rng, StatField::ALL.len())])
                .collect()
        });
        PageQuery {
            section: [Section::Charges, Section::Limits, Section::Headers][pick(rng, 3)],
            view: View::ALL[pick(rng, 3)],
            strategy,
            all_strategies: all,
            seed,
            seeds: rng.between(1, sim::sweep::MAX_SEEDS),
            speed: Speed::ALL[pick(rng, 3)],
            customer,
            scene,
            counters,
            experiment: rng
                .chance(Odds::one_in(3))
                .then(|| ExperimentName::ALL[pick(rng, 6)]),
            lab: lab::settings::KNOBS
                .iter()
                .fold(Default::default(), |s, k| {
                    let (lo, hi) = k.slider();
                    if rng.chance(Odds::one_in(3)) {
                        s.with_position(k.id, rng.between(lo, hi))
                    } else {
                        s
                    }
                }),
            embed: rng.chance(Odds::one_in(2)),
            present: rng.chance(Odds::one_in(4)),
            motion: Motion::ALL[pick(rng, 3)],
            tour,
            step: if tour { pick(rng, tour::STEPS) } else { 0 },
            sweep_param: rng.chance(Odds::one_in(3)).then(|| random_param_sweep(rng)),
            scenario,
            problems: Vec::new(),
        }
    }

    /// A parameter sweep with every field drawn at random inside what the URL accepts.
    pub(crate) fn random_param_sweep(rng: &mut SimRng) -> ParamSweepSpec {
        use sim::StatField;
        let numeric: Vec<&ParamSpec> = PARAMS
            .iter()
            .filter(|p| param_sweep::sweepable(p.param))
            .collect();
        let p = numeric[rng.below(numeric.len() as u64) as usize];
        let b = p.bounds().unwrap();
        let from = rng.between(*b.start(), *b.end() - 1);
        let to = rng.between(from + 1, *b.end());
        ParamSweepSpec {
            param: p.param,
            from,
            to,
            steps: rng.between(2, 50),
            stat: StatField::ALL[rng.below(StatField::ALL.len() as u64) as usize],
        }
    }

    #[test]
    fn every_page_state_round_trips_through_its_query() {
        let mut rng = SimRng::from_seed(2024);
        for i in 0..2_000 {
            let page = random_page(&mut rng);
            assert_eq!(page.scenario.validate(), Ok(()), "case {i}");
            let text = page.to_query();
            assert!(
                text.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"?&=-._~/%".contains(&b)),
                "{text}"
            );
            assert_eq!(parse(&pairs_of(&text)), page, "case {i}: {text}");
        }
        assert_eq!(
            parse(&pairs_of(&PageQuery::default().to_query())),
            PageQuery::default()
        );
    }

    #[test]
    fn any_parameters_the_url_accepts_make_a_run_that_finishes_and_adds_up() {
        use sim::{Simulation, Stats};
        let mut rng = SimRng::from_seed(77);
        for i in 0..1_500 {
            let mut s = random_page(&mut rng).scenario;
            s.customers = 1 + s.customers % 300;
            s.strategy = StrategyName::ALL[i % StrategyName::ALL.len()];
            let mut sim = Simulation::new(&s).unwrap();
            let stats = sim.run_to_end();
            let why = format!("case {i}: {}", PageQuery::for_run(&s, Speed::X1).to_query());
            assert!(sim.is_finished(), "{why}");
            assert_eq!(
                stats,
                Stats::from_record(sim.record().unwrap(), &s.provider.incident),
                "{why}"
            );
            assert!(stats.max_inflight <= s.provider.max_inflight, "{why}");
            if matches!(s.strategy, StrategyName::Keyed | StrategyName::Pool) {
                assert_eq!(stats.duplicates, 0, "{why}");
            }
            if s.strategy == StrategyName::Pool {
                assert!(
                    stats.client_max_outstanding <= s.client.pool_workers,
                    "{why}"
                );
            }
        }
    }

    #[test]
    fn only_parameters_that_differ_from_the_defaults_are_written() {
        let mut s = Scenario::article(StrategyName::Pool, 7);
        assert_eq!(
            PageQuery::for_run(&s, Speed::X1).to_query(),
            "?section=charges&view=run&strategy=pool&seed=7&speed=1x"
        );
        assert_eq!(
            to_query(StrategyName::Pool, 7, Speed::X1),
            "?section=charges&view=run&strategy=pool&seed=7&speed=1x"
        );
        set_param(&mut s, "workers", "20").unwrap();
        set_param(&mut s, "maxInflight", "3").unwrap();
        set_param(&mut s, "errorRate", "1 in 5").unwrap();
        set_param(&mut s, "jitterMs", "0").unwrap();
        set_param(&mut s, "latencyMs", "2.5").unwrap();
        set_param(&mut s, "jitter", "on").unwrap();
        assert_eq!(
            PageQuery::for_run(&s, Speed::X10).to_query(),
            "?section=charges&view=run&strategy=pool&seed=7&speed=10x\
             &maxInflight=3&errorRate=1/5&latencyMs=2.5&jitterMs=0&jitter=on&workers=20"
        );
    }

    #[test]
    fn parameters_in_the_url_set_the_scenario() {
        let p = q(&[
            ("strategy", "pool"),
            ("seed", "3"),
            ("customers", "50"),
            ("maxInflight", "20"),
            ("rateLimit", "500"),
            ("rateWindowMs", "2000"),
            ("errorRate", "5%"),
            ("slowRate", "1 in 10"),
            ("slowMs", "900"),
            ("latencyMs", "40"),
            ("jitterMs", "10.5"),
            ("declineEvery", "0"),
            ("pacer", "45"),
            ("attempts", "3"),
            ("backoffMs", "250"),
            ("jitter", "on"),
            ("timeoutMs", "700"),
            ("workers", "12"),
        ]);
        assert_eq!(p.problems, Vec::<String>::new());
        let s = &p.scenario;
        assert_eq!(
            (s.seed, s.strategy, s.customers),
            (3, StrategyName::Pool, 50)
        );
        assert_eq!(
            (
                s.provider.max_inflight,
                s.provider.rate_limit,
                s.provider.rate_window_us
            ),
            (20, 500, 2_000_000)
        );
        assert_eq!(s.provider.server_error, sim::rng::Odds { num: 5, den: 100 });
        assert_eq!(s.provider.slow, sim::rng::Odds::one_in(10));
        assert_eq!(
            (
                s.provider.slow_latency_us,
                s.provider.latency_us,
                s.provider.latency_jitter_us
            ),
            (900_000, 40_000, 10_500)
        );
        assert_eq!(s.provider.decline_every, 0);
        let c = &s.client;
        assert_eq!(
            (
                c.pacer_per_s,
                c.max_attempts,
                c.backoff_base_us,
                c.backoff_jitter
            ),
            (45, 3, 250_000, true)
        );
        assert_eq!((c.timeout_us, c.pool_workers), (700_000, 12));
    }

    #[test]
    fn a_bad_parameter_keeps_its_default_and_says_so() {
        let p = q(&[
            ("maxInflight", "-3"),
            ("timeoutMs", "1e30"),
            ("customers", "20000000"),
        ]);
        assert_eq!(p.scenario, Scenario::default());
        assert_eq!(
            p.problems,
            [
                "In-flight limit (maxInflight) must be a whole number from 1 to 10000 requests, \
                 but '-3' is negative. Using the default, 10 requests.",
                "Client timeout (timeoutMs) must be a time from 1 to 600000 ms, but '1e30' is \
                 not a number. Using the default, 1000 ms.",
                "Customers (customers) must be a whole number from 1 to 10000000 customers, but \
                 '20000000' is too large. Using the default, 1000 customers."
            ]
        );
        let p = q(&[("errorRate", "<script>alert(1)</script>")]);
        assert!(
            p.problems[0].ends_with("is not one. Using the default, 1/20."),
            "{:?}",
            p.problems
        );
    }

    #[test]
    fn rules_across_fields_fall_back_for_the_fields_involved() {
        let p = q(&[("latencyMs", "50"), ("jitterMs", "80"), ("workers", "9")]);
        let s = &p.scenario;
        assert_eq!(
            (
                s.provider.latency_us,
                s.provider.latency_jitter_us,
                s.client.pool_workers
            ),
            (15_000, 3_000, 9)
        );
        assert_eq!(
            p.problems,
            ["The latency jitter (jitterMs) is 80 ms, more than the latency (latencyMs) of 50 ms; \
              the jitter cannot exceed the latency. Using the defaults, latencyMs 15 ms and \
              jitterMs 3 ms."]
        );
        let p = q(&[("customers", "10"), ("customer", "11")]);
        assert_eq!(p.customer, None);
        assert!(p.problems[0].contains("no customer 11: this run has customers 1 to 10"));
        assert_eq!(
            q(&[("customers", "10"), ("customer", "10")]).customer,
            Some(10)
        );
    }

    #[test]
    fn embed_and_motion() {
        let p = q(&[("embed", "1"), ("motion", "off"), ("speed", "1x")]);
        assert!(p.embed);
        assert_eq!(p.playback_speed(false), Speed::Instant);
        let p = q(&[("motion", "on"), ("speed", "1x")]);
        assert_eq!(p.playback_speed(true), Speed::X1);
        let p = q(&[("speed", "1x")]);
        assert_eq!(
            (p.playback_speed(true), p.playback_speed(false)),
            (Speed::Instant, Speed::X1)
        );
        let p = q(&[("embed", "yes"), ("motion", "fast")]);
        assert_eq!((p.embed, p.motion), (false, Motion::Auto));
        assert_eq!(p.problems.len(), 2, "{:?}", p.problems);
    }

    #[test]
    fn odd_keys_get_a_helpful_sentence() {
        let p = q(&[("maxinflight", "20"), ("", "7"), ("colour", "red")]);
        assert!(
            p.problems[0].contains("did you mean 'maxInflight'?"),
            "{:?}",
            p.problems
        );
        assert!(
            p.problems[1].contains("no parameter name"),
            "{:?}",
            p.problems
        );
        assert!(
            p.problems[2].contains("strategy, seed") && p.problems[2].contains("--help"),
            "lists the page's keys and says where the rest are: {:?}",
            p.problems
        );
        let emoji_key = "🦀".repeat(100);
        let p = q(&[(emoji_key.as_str(), "1")]);
        // The key is quoted cut short, however long it was.
        let quoted = p.problems[0].matches('🦀').count();
        assert!((1..=40).contains(&quoted), "{}", p.problems[0]);
    }

    #[test]
    fn quoted_values_cannot_turn_the_sentence_around() {
        assert_eq!(shown("abc\u{202E}def\nx"), "abc\u{FFFD}def\u{FFFD}x");
        assert_eq!(shown("שלום 👋"), "שלום 👋");
    }

    #[test]
    fn queries_are_decoded_like_url_search_params() {
        let pairs = pairs_of("?a=1&b=x+y%20z&&c&=v&d=%zz%4&e=%E2%9C%93&f=%FF&a=2&g=1=2");
        let expect: Vec<(String, String)> = [
            ("a", "1"),
            ("b", "x y z"),
            ("c", ""),
            ("", "v"),
            ("d", "%zz%4"),
            ("e", "✓"),
            ("f", "\u{FFFD}"),
            ("a", "2"),
            ("g", "1=2"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(pairs, expect);
        assert!(pairs_of("").is_empty() && pairs_of("?").is_empty());
    }

    #[test]
    fn every_page_file_is_written_after_the_build_with_its_module() {
        // scripts/entry-pages.mjs writes each page's file with a hint for its module, and
        // assets/loader.js opens a page's own file when a link names another page's.
        let script = include_str!("../../../scripts/entry-pages.mjs");
        let loader = include_str!("../../../assets/loader.js");
        for page in Page::ALL {
            let file = page.entry_file();
            let module = match file.trim_end_matches(".html") {
                "run" => "rate-limit-lab".to_string(),
                name => format!("rate-limit-lab-{name}"),
            };
            assert!(
                script.contains(&format!("['{file}', '{module}']")),
                "{page:?}: scripts/entry-pages.mjs writes {file} for {module}"
            );
            assert!(
                loader.contains(&format!("'{module}': '{file}',")),
                "{page:?}: assets/loader.js opens {file} for {module}"
            );
        }
        // The walk's module: at the lab's bare address, index.html.
        assert!(script.contains("['index.html', 'rate-limit-lab-tour']"));
        assert!(loader.contains("'rate-limit-lab-tour': './',"));
        let run = PageQuery::for_run(&Scenario::default(), Speed::X10);
        assert!(run.href().starts_with("run.html?"), "{}", run.href());
        let walk = PageQuery { tour: true, ..run };
        assert!(
            walk.href().starts_with("./?"),
            "the walk's own module: {}",
            walk.href()
        );
    }
}

//! What every page reads from its URL: the page asked for, the run (its numbers, seed and
//! strategy, each held once, in the [`Scenario`]), the speed, the layout and the motion,
//! and a sentence for each value that could not be used.

use super::page::{Motion, Page, Section, Speed, View};
use super::read::{one_of, Pairs};
use crate::input::numbers::parse_seed;
use crate::shared::params::{param, spec, ParamSpec, PARAMS};
use crate::shared::words::shown;
use sim::names::Named;
use sim::param::Rule;
use sim::{Scenario, StrategyName};

/// The default strategy when the URL names one we do not know.
pub const FALLBACK_STRATEGY: StrategyName = StrategyName::Keyed;

/// How the URL names the strategy; the strategy itself is the scenario's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Naming {
    /// No strategy named: the scenario's is [`FALLBACK_STRATEGY`] (or what the page picks).
    #[default]
    Unnamed,
    /// `strategy=<name>`: the scenario's strategy (the fallback if the name was unknown).
    One,
    /// `strategy=all`: every strategy, on a page that runs several.
    All,
}

/// What every page's URL says, read by every page the same way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base {
    /// Which half of the lab.
    pub section: Section,
    /// Which view of the charges section.
    pub view: View,
    /// Whether the URL named the scenario's strategy, or asked for all.
    pub naming: Naming,
    /// The run the URL describes, always valid: every parameter, the seed (1 if not
    /// given) and the strategy (named, or [`FALLBACK_STRATEGY`]).
    pub scenario: Scenario,
    /// The playback speed.
    pub speed: Speed,
    /// `embed=1`: show the page without its surroundings, for embedding in an article.
    pub embed: bool,
    /// `present=1`: the presenter's layout for a room: large text and controls, the
    /// prose folded away.
    pub present: bool,
    /// Whether playback may animate.
    pub motion: Motion,
    /// One sentence for each value that could not be used, saying what was used instead.
    pub problems: Vec<String>,
}

impl Default for Base {
    /// What an empty query asks for.
    fn default() -> Self {
        Self {
            section: Section::default(),
            view: View::default(),
            naming: Naming::Unnamed,
            scenario: Scenario::article(FALLBACK_STRATEGY, 1),
            speed: Speed::default(),
            embed: false,
            present: false,
            motion: Motion::default(),
            problems: Vec::new(),
        }
    }
}

sim::named_enum! {
    /// The keys every page reads; the run's parameters are in [`PARAMS`].
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) enum BaseKey as "key" {
        /// Which section.
        Section = "section",
        /// Which view of the charges.
        View = "view",
        /// The strategy, or `all`.
        Strategy = "strategy",
        /// The seed.
        Seed = "seed",
        /// Playback speed.
        Speed = "speed",
        /// The compact, framed page.
        Embed = "embed",
        /// The presenter's layout.
        Present = "present",
        /// Whether playback animates.
        Motion = "motion",
    }
}

/// A key of the base: one of its own, or a parameter of the run.
#[derive(Clone, Copy)]
pub(crate) enum Key {
    Own(BaseKey),
    Param(&'static ParamSpec),
}

impl Key {
    pub(crate) fn of(key: &str) -> Option<Key> {
        match param(key) {
            Some(spec) => Some(Key::Param(spec)),
            None => BaseKey::by_name(key).ok().map(Key::Own),
        }
    }
}

/// `1` or `0`, or the sentence for anything else (`what` names the key, `else_` says
/// what is shown instead).
pub fn switch(value: &str, what: &str, else_: &str) -> Result<bool, String> {
    match value {
        "1" => Ok(true),
        "0" => Ok(false),
        _ => Err(format!(
            "The {what} '{}' is not 1 or 0; {else_}.",
            shown(value)
        )),
    }
}

impl Base {
    /// The page playing `scenario` at `speed` in the run view.
    pub fn for_run(scenario: &Scenario, speed: Speed) -> Self {
        Self {
            naming: Naming::One,
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

    /// A page of `section` and `view` naming `strategy` (or none), with `scenario`'s seed
    /// and numbers.
    pub fn of(
        section: Section,
        view: View,
        strategy: Option<StrategyName>,
        scenario: &Scenario,
    ) -> Self {
        Self {
            section,
            view,
            naming: match strategy {
                Some(_) => Naming::One,
                None => Naming::Unnamed,
            },
            scenario: Scenario {
                strategy: strategy.unwrap_or(FALLBACK_STRATEGY),
                record: true,
                ..scenario.clone()
            },
            ..Self::default()
        }
    }

    /// The strategy, if the URL names one.
    pub fn strategy(&self) -> Option<StrategyName> {
        (self.naming == Naming::One).then_some(self.scenario.strategy)
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.scenario.seed
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

    /// True if the run view names a run to play as soon as the page loads.
    pub fn names_a_run(&self) -> bool {
        self.view == View::Run && self.naming == Naming::One
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

    /// Reads one of the base's keys; the sentence if its value could not be used.
    pub(crate) fn read(&mut self, key: Key, value: &str) -> Option<String> {
        let key = match key {
            Key::Own(key) => key,
            Key::Param(spec) => return self.read_param(spec, value),
        };
        match key {
            BaseKey::Section => one_of(value, Section::Charges)
                .map(|v| self.section = v)
                .err(),
            BaseKey::View => one_of(value, View::Run).map(|v| self.view = v).err(),
            BaseKey::Strategy if value == "all" => {
                self.naming = Naming::All;
                None
            }
            BaseKey::Strategy => {
                self.naming = Naming::One;
                let (strategy, problem) = match one_of(value, FALLBACK_STRATEGY) {
                    Ok(s) => (s, None),
                    Err(why) => (FALLBACK_STRATEGY, Some(why)),
                };
                self.scenario.strategy = strategy;
                problem
            }
            // The one place a link's seed is read.
            BaseKey::Seed => match parse_seed(value) {
                Ok(seed) => {
                    self.scenario.seed = seed;
                    None
                }
                Err(why) => Some(format!("{why} Using seed 1 instead.")),
            },
            BaseKey::Speed => one_of(value, Speed::default())
                .map(|v| self.speed = v)
                .err(),
            BaseKey::Embed => switch(value, "embed", "showing the whole page")
                .map(|v| self.embed = v)
                .err(),
            BaseKey::Present => switch(value, "present", "showing the reader's layout")
                .map(|v| self.present = v)
                .err(),
            BaseKey::Motion => one_of(value, Motion::Auto).map(|v| self.motion = v).err(),
        }
    }

    /// Reads one parameter's value into the scenario; the sentence if it could not be used.
    fn read_param(&mut self, spec: &ParamSpec, value: &str) -> Option<String> {
        match spec.parse(value) {
            Ok(v) => {
                // What `parse` accepts the core accepts: nothing is refused here.
                let set = spec.param.set_unchecked(&mut self.scenario, v);
                debug_assert!(set.is_ok(), "parse refuses what the core would");
                None
            }
            Err(why) => Some(format!(
                "{why} Using the default, {}.",
                spec.default_with_unit()
            )),
        }
    }

    /// Once every value is in: the rules across the run's numbers. Leaves the scenario
    /// valid whatever the URL said.
    pub(crate) fn settle(&mut self) {
        let s = &mut self.scenario;
        // Every value was checked on its own as it was read; each broken rule puts back
        // the parameters it involves, which satisfies it.
        while let Some(rule) = Rule::first_broken(s) {
            let why = crate::shared::params::rule_sentence(rule, s);
            let defaults: Vec<String> = rule
                .params()
                .iter()
                .map(|&p| {
                    p.reset(s);
                    let spec = spec(p);
                    format!("{} {}", spec.key, spec.default_with_unit())
                })
                .collect();
            self.problems.push(format!(
                "{why} Using the defaults, {}.",
                defaults.join(" and ")
            ));
        }
        s.record = true;
        debug_assert_eq!(s.validate(), Ok(()), "every value and rule was checked");
    }

    /// Its pairs before a page's own: section, view, strategy, seed and speed.
    pub(crate) fn write_head(&self, out: &mut Pairs) {
        out.push("section", self.section.as_str());
        out.push("view", self.view.as_str());
        match self.naming {
            Naming::All => out.push("strategy", "all"),
            Naming::One => out.push("strategy", self.scenario.strategy.as_str()),
            Naming::Unnamed => {}
        }
        out.push("seed", &self.scenario.seed.to_string());
        out.push("speed", self.speed.as_str());
    }

    /// Its pairs after a page's own first ones: the numbers that differ from the
    /// defaults, then the layout and motion away from theirs.
    pub(crate) fn write_tail(&self, out: &mut Pairs) {
        for p in PARAMS.iter().filter(|p| !p.is_default(&self.scenario)) {
            out.push(p.key, &p.read(&self.scenario));
        }
        if self.embed {
            out.push("embed", "1");
        }
        if self.present {
            out.push("present", "1");
        }
        if self.motion != Motion::Auto {
            out.push("motion", self.motion.as_str());
        }
    }
}

//! What the run page's URL says beyond the base: the story open ([`Story`]) and the
//! guided walk ([`Walk`]); and an embedded widget's, the story and its counters
//! ([`Counters`]). [`RunQuery`] and [`EmbedQuery`] are the two pages' query types.

use crate::input::numbers::parse_count;
use crate::query::base::{switch, Base};
use crate::query::page::{Page, WALK_FILE};
use crate::query::page::{Section, View};
use crate::query::read::{Elsewhere, Family, Keys, Pairs, Query};
use crate::shared::words::Words;
use sim::story::Scene;
use sim::StatField;
use sim::{Scenario, StrategyName};

/// The run page's query: the base, the story open and the walk.
pub type RunQuery = Query<(Story, Walk)>;

/// An embedded widget's query: the base, the story open and the counters shown.
pub type EmbedQuery = Query<(Story, Counters)>;

/// The most counters a widget's `counters=` may name.
pub const MAX_COUNTERS: usize = 6;

/// The story the link opens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Story {
    /// A customer whose story to open (always one of the run's customers).
    pub customer: Option<u32>,
    /// `customer=<scene>`: open the story of the first customer showing this scene (as
    /// the CLI's `--customer double-charge` does), once the run has found one.
    pub scene: Option<Scene>,
}

/// [`Story`]'s key.
pub const STORY_KEYS: Keys = Keys {
    names: &["customer"],
    elsewhere: Elsewhere::Checked(|key, value| Story::default().read(key, value)),
};

impl Family for Story {
    fn owns(key: &str) -> bool {
        STORY_KEYS.has(key)
    }

    fn read(&mut self, _: &str, value: &str) -> Option<String> {
        let value = value.trim();
        match (
            parse_count(value, 1, u64::from(u32::MAX)),
            value.parse::<Scene>(),
        ) {
            (Ok(n), _) => {
                self.customer = u32::try_from(n).ok();
                None
            }
            (_, Ok(scene)) => {
                self.scene = Some(scene);
                None
            }
            (Err(why), Err(_)) => Some(format!(
                "The customer {why}, and not one of the scenes ({}); no story is opened.",
                Scene::NAMES.join(", ")
            )),
        }
    }

    fn settle(&mut self, base: &mut Base) {
        let customers = base.scenario.customers;
        if let Some(c) = self.customer.filter(|&c| c > customers) {
            base.problems.push(format!(
                "There is no customer {c}: this run has customers 1 to {customers}."
            ));
            self.customer = None;
        }
    }

    fn write(&self, out: &mut Pairs) {
        if let Some(c) = self.customer {
            out.push("customer", &c.to_string());
        } else if let Some(scene) = self.scene {
            out.push("customer", scene.as_str());
        }
    }
}

/// The guided walk through the six strategies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// `tour=1`: the walk is open.
    pub tour: bool,
    /// `step=N`: the walk's step, from 0 here (from 1 in the URL).
    pub step: usize,
}

/// [`Walk`]'s keys.
pub const WALK_KEYS: Keys = Keys {
    names: &["tour", "step"],
    elsewhere: Elsewhere::Checked(|key, value| Walk::default().read(key, value)),
};

impl Family for Walk {
    fn owns(key: &str) -> bool {
        WALK_KEYS.has(key)
    }

    fn read(&mut self, key: &str, value: &str) -> Option<String> {
        let value = value.trim();
        if key == "tour" {
            return switch(value, "tour", "the guided walk stays closed")
                .map(|v| self.tour = v)
                .err();
        }
        match parse_count(value, 1, super::tour::STEPS as u64) {
            Ok(n) => {
                self.step = n as usize - 1;
                None
            }
            Err(why) => Some(format!(
                "The walk's step {why}; starting at its first step."
            )),
        }
    }

    fn gather(&mut self, base: &mut Base) {
        if self.step > 0 && !self.tour {
            base.problems.push(
                "Ignored 'step': it is a step of the guided walk, which opens with tour=1.".into(),
            );
            self.step = 0;
        }
    }

    fn write_last(&self, out: &mut Pairs) {
        if self.tour {
            out.push("tour", "1");
            out.push("step", &(self.step + 1).to_string());
        }
    }

    /// A step of the guided walk opens in the walk's own file: the walk has a module of
    /// its own.
    fn file(&self, base: &Base) -> Option<&'static str> {
        (self.tour && base.page() == Page::Run).then_some(WALK_FILE)
    }
}

/// `counters=a,b,c`: the counters an embedded widget shows (by their JSON names); `None`:
/// the ones that matter for its strategy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters(pub Option<Vec<StatField>>);

/// [`Counters`]' key.
pub const COUNTERS_KEYS: Keys = Keys {
    names: &["counters"],
    elsewhere: Elsewhere::Checked(|key, value| Counters::default().read(key, value)),
};

impl Family for Counters {
    fn owns(key: &str) -> bool {
        COUNTERS_KEYS.has(key)
    }

    fn read(&mut self, _: &str, value: &str) -> Option<String> {
        let value = value.trim();
        let fields: Result<Vec<StatField>, _> = value
            .split(',')
            .map(|name| name.trim().parse::<StatField>())
            .collect();
        match fields {
            Ok(f) if !f.is_empty() && f.len() <= MAX_COUNTERS => {
                self.0 = Some(f);
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

    fn write(&self, out: &mut Pairs) {
        if let Some(fields) = &self.0 {
            let names: Vec<&str> = fields.iter().map(|f| f.as_str()).collect();
            out.push("counters", &names.join(","));
        }
    }
}

impl RunQuery {
    /// The story open.
    pub fn story(&self) -> Story {
        self.own.0
    }

    /// The walk.
    pub fn walk(&self) -> Walk {
        self.own.1
    }

    /// True if the run view should start a run as soon as the page loads: a linked
    /// run, unless it is a step of the walk, which asks its question first.
    pub fn autostart(&self) -> bool {
        self.base.names_a_run() && !self.own.1.tour
    }
}

impl EmbedQuery {
    /// True if the widget should start its run as soon as it loads: its link names one.
    pub fn autostart(&self) -> bool {
        self.base.names_a_run()
    }
}

/// The run page playing `strategy` with `scenario`'s numbers, opening the story of the
/// first customer who shows `scene` once the run has one.
pub fn scene_href(strategy: StrategyName, scenario: &Scenario, scene: sim::story::Scene) -> String {
    Query {
        base: Base::of(Section::Charges, View::Run, Some(strategy), scenario),
        own: Story {
            customer: None,
            scene: Some(scene),
        },
    }
    .href()
}

//! What the limits page's URL says beyond the base: the experiment open and the knobs'
//! values ([`Lab`]); [`LimitsQuery`] is the page's query type.

use super::settings::{knob, LabSettings, KNOBS};
use crate::query::base::Base;
use crate::query::page::{Section, View};
use crate::query::read::{Elsewhere, Family, Keys, Pairs, Query};
use crate::shared::words::Words;
use sim::lab::ExperimentName;
use sim::names::Named;
use sim::Scenario;

/// The limits page's query: the base, the experiment and its settings.
pub type LimitsQuery = Query<Lab>;

/// The experiment open, and the numbers the experiments run with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lab {
    /// An experiment to run on load.
    pub experiment: Option<ExperimentName>,
    /// The numbers the experiments run with (`burstGapMs`, `herdJitter`, …).
    pub settings: LabSettings,
}

/// The experiment's key: every page reads it, and only the limits page keeps it.
pub const EXPERIMENT_KEYS: Keys = Keys {
    names: &["experiment"],
    elsewhere: Elsewhere::Checked(|_, value| read_experiment(value).err()),
};

/// Every knob's key, in the table's order.
const KNOB_KEYS: [&str; KNOBS.len()] = {
    let mut keys = [""; KNOBS.len()];
    let mut i = 0;
    while i < KNOBS.len() {
        keys[i] = KNOBS[i].key;
        i += 1;
    }
    keys
};

/// The knobs' keys.
pub const SETTINGS_KEYS: Keys = Keys {
    names: &KNOB_KEYS,
    elsewhere: Elsewhere::Said("it is a limits experiment's setting, read with section=limits"),
};

/// The experiment named `value`, or the sentence for a name that is none.
fn read_experiment(value: &str) -> Result<ExperimentName, String> {
    ExperimentName::by_name(value.trim()).map_err(|e| format!("{} Pick one on the page.", e.said()))
}

impl Family for Lab {
    fn owns(key: &str) -> bool {
        EXPERIMENT_KEYS.has(key) || SETTINGS_KEYS.has(key)
    }

    fn read(&mut self, key: &str, value: &str) -> Option<String> {
        let Some(knob) = knob(key) else {
            return read_experiment(value)
                .map(|e| self.experiment = Some(e))
                .err();
        };
        self.settings
            .read(knob.id, value)
            .err()
            .map(|why| format!("{why} Using the default, {}.", knob.shown(knob.default)))
    }

    fn write(&self, out: &mut Pairs) {
        if let Some(e) = self.experiment {
            out.push("experiment", e.as_str());
        }
        for k in self.settings.changed() {
            out.push(k.key, &self.settings.text(k.id));
        }
    }
}

/// The limits page with one experiment open, its settings `lab`, and the numbers of
/// `scenario` kept.
pub fn experiment_query(
    experiment: Option<ExperimentName>,
    scenario: &Scenario,
    lab: &LabSettings,
) -> LimitsQuery {
    Query {
        base: Base::of(Section::Limits, View::Run, None, scenario),
        own: Lab {
            experiment,
            settings: lab.clone(),
        },
    }
}

/// The link of [`experiment_query`].
pub fn experiment_href(
    experiment: Option<ExperimentName>,
    scenario: &Scenario,
    lab: &LabSettings,
) -> String {
    experiment_query(experiment, scenario, lab).href()
}

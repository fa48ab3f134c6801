//! A URL read with every page's families at once: what the command line reads a page's
//! query with (then runs what the page it opens shows), and what the tests read.

use super::keys::{read, REGISTRY};
use crate::client::query::Code;
use crate::limits::query::Lab;
use crate::query::base::Base;
use crate::query::read::{Family, Pairs, Query};
use crate::run::query::{Counters, Story, Walk};
use crate::sweep::query::Sweep;

/// Every page's own keys together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Every {
    /// The sweep page's.
    pub sweep: Sweep,
    /// The run page's and the widget's story.
    pub story: Story,
    /// The widget's counters.
    pub counters: Counters,
    /// The limits page's.
    pub lab: Lab,
    /// The run page's walk.
    pub walk: Walk,
    /// The client view's code.
    pub code: Code,
}

/// A query read with every page's keys.
pub type AnyQuery = Query<Every>;

impl Family for Every {
    fn owns(key: &str) -> bool {
        REGISTRY.families.iter().any(|f| f.has(key))
    }

    fn read(&mut self, key: &str, value: &str) -> Option<String> {
        if Sweep::owns(key) {
            self.sweep.read(key, value)
        } else if Story::owns(key) {
            self.story.read(key, value)
        } else if Counters::owns(key) {
            self.counters.read(key, value)
        } else if Lab::owns(key) {
            self.lab.read(key, value)
        } else if Walk::owns(key) {
            self.walk.read(key, value)
        } else {
            self.code.read(key, value)
        }
    }

    fn gather(&mut self, base: &mut Base) {
        self.sweep.gather(base);
        self.walk.gather(base);
    }

    fn settle(&mut self, base: &mut Base) {
        self.story.settle(base);
    }

    fn write(&self, out: &mut Pairs) {
        self.sweep.write(out);
        self.story.write(out);
        self.counters.write(out);
        self.lab.write(out);
    }

    fn write_last(&self, out: &mut Pairs) {
        self.walk.write_last(out);
        self.code.write_last(out);
    }

    fn file(&self, base: &Base) -> Option<&'static str> {
        self.walk.file(base)
    }
}

/// Reads decoded `(key, value)` pairs, in URL order, with every page's keys.
pub fn parse(pairs: &[(String, String)]) -> AnyQuery {
    read(pairs)
}

impl AnyQuery {
    /// The same query as the run page reads it.
    pub fn as_run(&self) -> crate::run::query::RunQuery {
        Query {
            base: self.base.clone(),
            own: (self.own.story, self.own.walk),
        }
    }

    /// The same query as the sweep page reads it.
    pub fn as_sweep(&self) -> crate::sweep::query::SweepQuery {
        Query {
            base: self.base.clone(),
            own: self.own.sweep.clone(),
        }
    }
}

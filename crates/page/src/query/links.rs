//! The links a page writes to the base of another page: the page, the view, the strategy,
//! the seed and numbers, and no page's own keys, so every page writes them the same way.
//! A link that carries a page's own keys is written in that page's folder, beside the
//! keys (`run::query::scene_href`, `sweep::query::sweep_query`,
//! `limits::query::experiment_query`). (The command line that reproduces a page is
//! [`crate::site::words`]'.)

use crate::query::base::Base;
use crate::query::page::{Section, View};
use crate::query::read::{Family, Query};
use sim::{Scenario, StrategyName};

/// A page of `section` and `view` naming `strategy` (or none), with `scenario`'s seed
/// and numbers, and no keys of its own: shaped as the page reads it back, so a page
/// state and its link always agree.
pub(crate) fn query(
    section: Section,
    view: View,
    strategy: Option<StrategyName>,
    scenario: &Scenario,
) -> Query<()> {
    Query {
        base: Base::of(section, view, strategy, scenario),
        own: (),
    }
}

/// The link to `section`, or to `view` of the charges, carrying `scenario`'s seed and
/// every number that differs from the article's, so nothing changed is lost on the way.
/// It names no strategy, so the page it opens waits for the reader.
pub fn href(section: Section, view: View, scenario: &Scenario) -> String {
    query(section, view, None, scenario).href()
}

/// The compare page for `scenario`'s seed and numbers.
pub fn compare_query(scenario: &Scenario) -> Query<()> {
    query(Section::Charges, View::Compare, None, scenario)
}

/// The matrix page for `scenario`'s seed and numbers.
pub fn matrix_query(scenario: &Scenario) -> Query<()> {
    query(Section::Charges, View::Matrix, None, scenario)
}

/// The run page playing `strategy` with `scenario`'s seed and numbers: where a compare
/// column's heading goes.
pub fn run_href(strategy: StrategyName, scenario: &Scenario) -> String {
    query(Section::Charges, View::Run, Some(strategy), scenario).href()
}

/// The full lab's link for an embedded widget's run: the same query without `embed`.
pub fn full_lab_href<F: Family>(q: &Query<F>) -> String {
    Query {
        base: Base {
            embed: false,
            ..q.base.clone()
        },
        own: q.own.clone(),
    }
    .href()
}

/// The run page playing `strategy` with `param` at `value` (core units) and seed 1: where
/// a click on a parameter sweep's point goes.
pub fn point_href(
    param: sim::Param,
    value: u64,
    strategy: StrategyName,
    scenario: &Scenario,
) -> String {
    let mut s = Scenario {
        seed: 1,
        ..scenario.clone()
    };
    if param
        .set_unchecked(&mut s, sim::param::ParamValue::Whole(value))
        .is_err()
        || s.validate().is_err()
    {
        return href(Section::Charges, View::Run, scenario);
    }
    query(Section::Charges, View::Run, Some(strategy), &s).href()
}

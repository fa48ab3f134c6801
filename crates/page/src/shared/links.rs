//! The links between pages: the only place that writes a link to a page, so every page
//! writes them the same way. (The command line that reproduces a page is
//! [`crate::site::words`]'.)

use crate::limits::query::{Lab, LimitsQuery};
use crate::limits::settings::LabSettings;
use crate::query::base::{Base, Naming};
use crate::query::read::Query;
use crate::run::query::Story;
use crate::sweep::query::{Sweep, SweepQuery};
use crate::{Section, View};
use sim::lab::ExperimentName;
use sim::param_sweep::ParamSweepSpec;
use sim::{Scenario, StrategyName};

/// A page of `section` and `view` naming `strategy` (or none), with `scenario`'s seed
/// and numbers, and no keys of its own: shaped as the page reads it back, so a page
/// state and its link always agree.
fn query(
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

/// The sweep page for one strategy (or all, with `None`) over seeds `1..=seeds`.
pub fn sweep_query(strategy: Option<StrategyName>, seeds: u64, scenario: &Scenario) -> SweepQuery {
    let mut base = Base::of(Section::Charges, View::Sweep, strategy, scenario);
    if strategy.is_none() {
        base.naming = Naming::All;
    }
    Query {
        base,
        own: Sweep::new(seeds, None),
    }
}

/// The link of [`sweep_query`].
pub fn sweep_href(strategy: Option<StrategyName>, seeds: u64, scenario: &Scenario) -> String {
    sweep_query(strategy, seeds, scenario).href()
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

/// The full lab's link for an embedded widget's run: the same query without `embed`.
pub fn full_lab_href<F: crate::Family>(q: &Query<F>) -> String {
    Query {
        base: Base {
            embed: false,
            ..q.base.clone()
        },
        own: q.own.clone(),
    }
    .href()
}

/// The sweep page stepping `spec`'s parameter for one strategy (or, with `None`, every
/// strategy that reads it) over seeds `1..=seeds`.
pub fn param_sweep_query(
    spec: ParamSweepSpec,
    strategy: Option<StrategyName>,
    seeds: u64,
    scenario: &Scenario,
) -> SweepQuery {
    Query {
        base: Base::of(Section::Charges, View::Sweep, strategy, scenario),
        own: Sweep::new(seeds, Some(spec)),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::settings::KnobId;
    use crate::set_param;

    use crate::site::keys::link::{page, page_as};

    #[test]
    fn links_between_pages_keep_every_number() {
        let mut s = Scenario::article(StrategyName::Pool, 5);
        set_param(&mut s, "maxInflight", "8").unwrap();
        set_param(&mut s, "jitter", "on").unwrap();
        for (section, view) in [
            (Section::Charges, View::Run),
            (Section::Charges, View::Compare),
            (Section::Charges, View::Sweep),
            (Section::Limits, View::Run),
            (Section::Headers, View::Run),
        ] {
            let back = page(&href(section, view, &s));
            assert!(back.base.problems.is_empty(), "{:?}", back.base.problems);
            assert_eq!((back.base.section, back.base.view), (section, view));
            assert_eq!(back.base.scenario.clone().provider, s.provider);
            assert_eq!(back.base.scenario.clone().client, s.client);
            assert_eq!(back.base.seed(), 5);
        }
        let mut lab = LabSettings::default();
        lab.read(KnobId::BurstGap, "400").unwrap();
        lab.read(KnobId::HerdJitter, "equal").unwrap();
        let back = page(&experiment_href(Some(ExperimentName::Burst), &s, &lab));
        assert_eq!(back.own.lab.experiment, Some(ExperimentName::Burst));
        assert_eq!(back.own.lab.settings, lab);
        assert_eq!(back.base.scenario.provider.max_inflight, 8);
        let embedded = page("?embed=1&strategy=pool&seed=5&maxInflight=8");
        let full = page(&full_lab_href(&embedded));
        assert!(!full.base.embed && full.base.scenario == embedded.base.scenario);
        let back = page(&sweep_href(None, 40, &s));
        assert!(
            back.base.naming == Naming::All
                && back.own.sweep.seeds == 40
                && back.as_sweep().sweep_autostart()
        );
        let back = page(&sweep_href(Some(StrategyName::Retry), 40, &s));
        assert_eq!(back.base.strategy(), Some(StrategyName::Retry));
        assert_ne!(back.base.naming, Naming::All);
        for q in [
            sweep_query(None, 7, &s),
            sweep_query(Some(StrategyName::Naive), 7, &s),
        ] {
            assert_eq!(
                page_as(&q.to_query()),
                q,
                "the query a page writes is the page it shows"
            );
        }
        for q in [
            experiment_query(Some(ExperimentName::Herd), &s, &lab),
            experiment_query(None, &s, &LabSettings::default()),
        ] {
            assert_eq!(
                page_as(&q.to_query()),
                q,
                "the query a page writes is the page it shows"
            );
        }
    }

    #[test]
    fn every_link_a_page_writes_reads_back_as_that_page() {
        let mut rng = sim::rng::SimRng::from_seed(11);
        for i in 0..1_000 {
            let p = crate::site::tests::random_page(&mut rng);
            let s = p.base.scenario.clone();
            let strategy = p.base.strategy();
            let written = [
                href(Section::Charges, View::Run, &s),
                href(Section::Charges, View::Compare, &s),
                href(Section::Charges, View::Sweep, &s),
                href(Section::Limits, View::Run, &s),
                href(Section::Headers, View::Run, &s),
                experiment_href(p.own.lab.experiment, &s, &p.own.lab.settings),
                sweep_href(strategy, p.own.sweep.seeds, &s),
            ];
            for link in written {
                let back = page(&link);
                // Through the file whose head starts that page's module.
                let file = back.page().entry_file();
                assert!(link.starts_with(&format!("{file}?")), "case {i}: {link}");
                assert!(
                    back.base.problems.is_empty(),
                    "case {i}: {link}: {:?}",
                    back.base.problems
                );
                assert_eq!(
                    back.base.scenario.clone().provider,
                    s.provider,
                    "case {i}: {link}"
                );
                assert_eq!(
                    back.base.scenario.clone().client,
                    s.client,
                    "case {i}: {link}"
                );
                assert_eq!(
                    back.base.scenario.customers, s.customers,
                    "case {i}: {link}"
                );
                assert_eq!(back.base.seed(), s.seed, "case {i}: {link}");
                assert_eq!(page(&back.to_query()), back, "case {i}: {link}");
            }
            let q = sweep_query(strategy, p.own.sweep.seeds, &s);
            assert_eq!(page_as(&q.to_query()), q, "case {i}");
            let sp = crate::site::tests::random_param_sweep(&mut rng);
            let q = param_sweep_query(sp, strategy, p.own.sweep.seeds, &s);
            assert_eq!(page_as(&q.to_query()), q, "case {i}");
            let q = compare_query(&s);
            assert_eq!(page_as(&q.to_query()), q, "case {i}");
            assert_eq!(q.href(), href(Section::Charges, View::Compare, &s));
            let run = page(&run_href(StrategyName::Retry, &s));
            assert_eq!(run.base.strategy(), Some(StrategyName::Retry), "case {i}");
            assert_eq!(run.base.scenario.clone().provider, s.provider, "case {i}");
            assert_eq!(run.base.scenario.clone().client, s.client, "case {i}");
            assert_eq!(run.base.seed(), s.seed, "case {i}");
            let run = page(&point_href(sp.param, sp.to, StrategyName::Pool, &s));
            assert!(
                run.base.problems.is_empty(),
                "case {i}: {:?}",
                run.base.problems
            );
            let mut at = s.clone();
            let to = sim::param::ParamValue::Whole(sp.to);
            if sp.param.set(&mut at, to).is_ok() {
                assert_eq!(run.base.scenario.seed, 1);
                assert_eq!(run.base.strategy(), Some(StrategyName::Pool));
                assert_eq!(sp.param.get(&run.base.scenario), to, "case {i}");
            }
        }
    }
}

//! The sweep page's two views as markup, each set once: the seed sweep (its caption, its
//! form, its progress and where its results go) and the parameter sweep (its heading,
//! caption, presets and form, its progress and where its chart goes). The UI writes what
//! a sweep changes into the nodes named here and in [`super::sweep_forms`].

use crate::shared::slot::Slot;
use crate::slot;
use crate::sweep::sweep_forms::{ParamSweepForm, SeedSweepForm};
use crate::sweep::sweep_progress::{sweep_progress_markup, PARAM_SWEEP_RUNS, SEEDS_RUN};
use maud::{html, Markup};

/// The sweep page's heading.
pub const SWEEP_TITLE: &str = "Sweep seeds";

/// Where the seed sweep's results go: one table per strategy swept.
pub const RESULTS: Slot = slot!("sweep-results");

/// Where the parameter sweep's chart goes, once a sweep has ended.
pub const CHART: Slot = slot!("sweep-chart");

/// The seed sweep as it opens: what a sweep is, the form holding `form`'s values, the
/// progress bar and an empty place for the results.
pub fn seed_sweep_markup(form: &SeedSweepForm) -> Markup {
    html! {
        p.rll-caption {
            "One seed is one roll of the dice. A sweep runs many seeds and shows how much each number moves: "
            "which results are the strategy, and which are luck."
        }
        div { (form.markup()) }
        (sweep_progress_markup(SEEDS_RUN))
        div data-slot=(RESULTS) {}
    }
}

/// The parameter sweep as it opens: its heading and caption, the presets and the form
/// holding `form`'s values, the progress bar and an empty place for the chart.
pub fn param_sweep_markup(form: &ParamSweepForm) -> Markup {
    html! {
        h3 { "Sweep a parameter" }
        p.rll-caption {
            "Step one number from one value to another and run every value over many seeds: "
            "each line is a strategy's median, its band the lowest and highest seed. Click a point to open that run."
        }
        div { (form.markup()) }
        (sweep_progress_markup(PARAM_SWEEP_RUNS))
        div.rll-psweep-chart data-slot=(CHART) {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::progress::{BAR, BAR_FILL};
    use crate::sweep::query::SweepQuery;
    use crate::sweep::sweep_forms::{Field, Fields, CANCEL, HELP, RUN};
    use crate::sweep::sweep_progress::PROGRESS_LINE;

    /// How many nodes of `m` a slot names.
    fn count(m: &str, slot: Slot) -> usize {
        m.matches(&format!("data-slot=\"{}\"", slot.name())).count()
    }

    #[test]
    fn each_view_names_every_node_it_writes_once() {
        let seeds = seed_sweep_markup(&SeedSweepForm::new(None, 30)).into_string();
        let params =
            param_sweep_markup(&ParamSweepForm::initial(&SweepQuery::default())).into_string();
        for (m, fields, place) in [
            (&seeds, SeedSweepForm::FIELDS, RESULTS),
            (&params, ParamSweepForm::FIELDS, CHART),
        ] {
            let shared = [BAR, BAR_FILL, PROGRESS_LINE, HELP, RUN, CANCEL, place];
            for slot in fields.iter().map(|f: &Field| f.slot()).chain(shared) {
                assert_eq!(count(m, slot), 1, "{slot:?}: {m}");
            }
        }
        assert!(seeds.contains(&format!("aria-label=\"{SEEDS_RUN}\"")));
        assert!(params.contains(&format!("aria-label=\"{PARAM_SWEEP_RUNS}\"")));
    }
}

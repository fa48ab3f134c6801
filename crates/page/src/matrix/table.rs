//! The matrix page's words and markup: every strategy (rows) against every incident
//! (columns), one cell per run, each with the customers charged, the extra charges, the
//! requests per charge and the recovery, coloured by how much harm the run did, and
//! linked to that run on the run page.

use crate::shared::format::count;
use crate::shared::links::run_href;
use crate::shared::markup::escape;
use crate::shared::titles::strategy_label;
use sim::incident::Incident;
use sim::matrix::MatrixCell;
use sim::time::whole_ms;
use sim::{Scenario, StrategyName};

/// A column's heading: what goes wrong in it, with the core's own numbers.
pub fn incident_heading(i: Incident) -> String {
    use sim::incident::{CAPACITY_MAX_INFLIGHT, CAPACITY_RATE_LIMIT, ERRORS_ODDS};
    match i {
        Incident::None => "No incident".into(),
        Incident::Errors => format!("Errors: {} in {} fail", ERRORS_ODDS.num, ERRORS_ODDS.den),
        Incident::Slow => "Slow: every charge".into(),
        Incident::Down => "Down: every request 503".into(),
        Incident::Capacity => {
            format!("Capacity: {CAPACITY_MAX_INFLIGHT} in flight, {CAPACITY_RATE_LIMIT} a window")
        }
    }
}

/// How much harm a run did, 0 (none) to 3 (three kinds or more), for its colour.
pub fn harm_level(cell: &MatrixCell) -> usize {
    cell.harms().len().min(3)
}

/// Requests per charge with two decimals, from the stats' per-100 figure (e.g. "1.12").
pub fn per_charge(requests_per_100_charges: u64) -> String {
    format!(
        "{}.{:02}",
        requests_per_100_charges / 100,
        requests_per_100_charges % 100
    )
}

/// The run page playing one cell's run: its strategy, under its incident, on the
/// matrix's seed and numbers.
pub fn cell_href(cell: &MatrixCell, base: &Scenario) -> String {
    run_under(cell.strategy, cell.incident, base)
}

/// The run page playing `strategy` under `incident`, on `base`'s seed and numbers.
pub fn run_under(strategy: StrategyName, incident: Incident, base: &Scenario) -> String {
    let mut s = base.clone();
    s.provider.incident.kind = incident;
    run_href(strategy, &s)
}

/// The incident's span in words, e.g. "from 4.0 s for 3.0 s", for the caption.
pub fn span_text(base: &Scenario) -> String {
    let i = base.provider.incident;
    format!(
        "from {} for {}",
        crate::shared::format::duration_ms(whole_ms(i.start_us)),
        crate::shared::format::duration_ms(whole_ms(i.length_us))
    )
}

/// The table of the cells run so far (rows appear as their runs finish).
pub fn table_markup(cells: &[MatrixCell], base: &Scenario) -> String {
    let mut out = String::from(
        "<table class=\"rll-matrix\" data-testid=\"matrix\"><thead><tr><th scope=\"col\">Strategy</th>",
    );
    for i in Incident::ALL {
        out.push_str(&format!(
            "<th scope=\"col\">{}</th>",
            escape(&incident_heading(i))
        ));
    }
    out.push_str("</tr></thead><tbody>");
    for s in StrategyName::ALL {
        let row: Vec<&MatrixCell> = cells.iter().filter(|c| c.strategy == s).collect();
        if row.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "<tr><th scope=\"row\">{}</th>",
            escape(strategy_label(s))
        ));
        for c in row {
            let st = &c.stats;
            let recovery = match (c.incident, st.recovery_ms) {
                (Incident::None, _) => String::new(),
                (_, 0) => "<span>recovered at once</span>".to_string(),
                (_, ms) => format!(
                    "<span>recovered in {}</span>",
                    crate::shared::format::duration_ms(ms)
                ),
            };
            out.push_str(&format!(
                "<td class=\"rll-matrix-cell rll-harm-{}\" data-cell=\"{}/{}\" data-charged=\"{}\" \
                 data-duplicates=\"{}\" data-per-100=\"{}\" data-recovery-ms=\"{}\" data-harm=\"{}\">\
                 <a href=\"{}\"><strong>{} charged</strong><span>{} extra</span>\
                 <span>{} requests per charge</span>{recovery}</a></td>",
                harm_level(c),
                c.strategy,
                c.incident,
                st.customers_charged,
                st.duplicates,
                st.requests_per_100_charges,
                st.recovery_ms,
                !c.harms().is_empty(),
                escape(&cell_href(c, base)),
                count(st.customers_charged),
                count(st.duplicates),
                per_charge(st.requests_per_100_charges),
            ));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

/// What to ship, after the last rung: each line a practice, and the page that shows why
/// (a run, a run under an incident, a sweep or an experiment), on `base`'s seed and
/// numbers.
pub fn ship_list(base: &Scenario) -> Vec<(&'static str, String)> {
    let under = |strategy, incident| run_under(strategy, incident, base);
    let calm = |strategy| under(strategy, Incident::None);
    let timeouts = crate::sweep::param_sweep::PRESETS[0];
    vec![
        (
            "One idempotency key per operation, saved before the first send: without it a retry after a timeout charges twice.",
            calm(StrategyName::TimeoutNoKey),
        ),
        (
            "Retry only what can succeed on retry: a declined card stays declined.",
            calm(StrategyName::Retry),
        ),
        (
            "Back off with jitter, or the retries arrive together.",
            crate::shared::links::experiment_href(
                Some(sim::lab::ExperimentName::Herd),
                base,
                &crate::limits::settings::LabSettings::default(),
            ),
        ),
        (
            "Honour Retry-After: wait as long as the provider asks, every worker at once.",
            under(StrategyName::Headers, Incident::Down),
        ),
        (
            "A retry budget, so a long outage cannot turn every charge into retries: past it, a charge gives up and says so.",
            {
                // Ten seconds of errors: long enough to empty the bucket.
                let mut s = base.clone();
                s.provider.incident.kind = Incident::Errors;
                s.provider.incident.length_us = sim::time::ms(10_000);
                run_href(StrategyName::Budget, &s)
            },
        ),
        (
            "A timeout shorter than your caller's, and longer than the provider's slow path.",
            crate::shared::links::param_sweep_query(timeouts.spec, timeouts.strategy, crate::sweep::param_sweep::PRESET_SEEDS, base)
                .href(),
        ),
        (
            "Concurrency that adapts to what the provider takes today.",
            under(StrategyName::Adaptive, Incident::Capacity),
        ),
    ]
}

/// The checklist as markup: a numbered list of linked lines.
pub fn ship_markup(base: &Scenario) -> String {
    let items: String = ship_list(base)
        .into_iter()
        .map(|(line, href)| {
            format!(
                "<li><a href=\"{}\">{}</a></li>",
                escape(&href),
                escape(line)
            )
        })
        .collect();
    format!("<ol class=\"rll-ship\" data-testid=\"ship\">{items}</ol>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::matrix::MatrixRun;

    #[test]
    fn each_cell_carries_its_runs_numbers_and_links_to_that_run() {
        let base = Scenario {
            customers: 80,
            seed: 5,
            ..Scenario::default()
        };
        let cells = MatrixRun::new(&base).unwrap().run_to_end();
        let html = table_markup(&cells, &base);
        assert_eq!(html.matches("<td ").count(), cells.len());
        let pool_down = cells
            .iter()
            .find(|c| c.strategy == StrategyName::Pool && c.incident == Incident::Down)
            .unwrap();
        let at = html[..html.find("data-cell=\"pool/down\"").unwrap()]
            .rfind("<td ")
            .unwrap();
        let cell = &html[at..html[at..].find("</td>").unwrap() + at];
        assert!(
            cell.contains(&format!(
                "data-charged=\"{}\"",
                pool_down.stats.customers_charged
            )),
            "{cell}"
        );
        assert!(
            cell.contains(&format!("rll-harm-{}", harm_level(pool_down))),
            "{cell}"
        );
        assert!(
            cell.contains("strategy=pool")
                && cell.contains("incident=down")
                && cell.contains("seed=5"),
            "{cell}"
        );
        assert!(html.contains("<th scope=\"col\">No incident</th>"));
        assert_eq!(incident_heading(Incident::Errors), "Errors: 1 in 2 fail");
        assert_eq!(
            incident_heading(Incident::Capacity),
            "Capacity: 2 in flight, 20 a window"
        );
        assert_eq!(per_charge(112), "1.12");
        assert_eq!(per_charge(10_000), "100.00");
        assert_eq!(span_text(&base), "from 4.0 s for 3.0 s");
        // What to ship: seven lines, each a link the lab reads back without a problem.
        let list = ship_list(&base);
        assert_eq!(list.len(), 7);
        for (line, href) in &list {
            let query = href.split_once('?').map_or(href.as_str(), |(_, q)| q);
            let q = crate::parse(&crate::pairs_of(query));
            assert!(q.problems.is_empty(), "{line}: {href}: {:?}", q.problems);
            assert_eq!(q.seed, 5, "{line}: {href}");
        }
        assert!(list[3].1.contains("strategy=headers") && list[3].1.contains("incident=down"));
        assert!(ship_markup(&base).starts_with("<ol class=\"rll-ship\""));
        // A half-run matrix shows only the rows it has.
        let half = table_markup(&cells[..7], &base);
        assert_eq!(half.matches("<tr><th scope=\"row\">").count(), 2);
    }
}

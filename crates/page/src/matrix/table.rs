//! The matrix page's words and markup: every strategy (rows) against every incident
//! (columns), one cell per run, each with the customers charged, the extra charges, the
//! requests per charge and the recovery, coloured by how much harm the run did, and
//! linked to that run on the run page.

use crate::shared::format::count;
use crate::shared::links::run_href;
use crate::shared::markup::Whole;
use crate::shared::slot::Slot;
use crate::shared::titles::strategy_label;
use crate::slot;
use maud::{html, Markup};
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
pub fn table_markup(cells: &[MatrixCell], base: &Scenario) -> Markup {
    html! {
        table.rll-matrix data-testid="matrix" {
            thead { tr {
                th scope="col" { "Strategy" }
                @for i in Incident::ALL { th scope="col" { (incident_heading(i)) } }
            } }
            tbody {
                @for s in StrategyName::ALL {
                    @let row: Vec<&MatrixCell> = cells.iter().filter(|c| c.strategy == s).collect();
                    @if !row.is_empty() {
                        tr {
                            th scope="row" { (strategy_label(s)) }
                            @for c in row { (cell_markup(c, base)) }
                        }
                    }
                }
            }
        }
    }
}

/// One run's cell: its numbers, as text and as data, its harm as its colour, and the
/// link to the run.
fn cell_markup(c: &MatrixCell, base: &Scenario) -> Markup {
    let st = &c.stats;
    html! {
        td class={ "rll-matrix-cell rll-harm-" (Whole(harm_level(c) as u64)) }
            data-cell={ (c.strategy.as_str()) "/" (c.incident.as_str()) }
            data-charged=(Whole(st.customers_charged)) data-duplicates=(Whole(st.duplicates))
            data-per-100=(Whole(st.requests_per_100_charges)) data-recovery-ms=(Whole(st.recovery_ms))
            data-harm=(if c.harms().is_empty() { "false" } else { "true" }) {
            a href=(cell_href(c, base)) {
                strong { (count(st.customers_charged)) " charged" }
                span { (count(st.duplicates)) " extra" }
                span { (per_charge(st.requests_per_100_charges)) " requests per charge" }
                @match (c.incident, st.recovery_ms) {
                    (Incident::None, _) => {}
                    (_, 0) => span { "recovered at once" },
                    (_, ms) => span { "recovered in " (crate::shared::format::duration_ms(ms)) },
                }
            }
        }
    }
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
pub fn ship_markup(base: &Scenario) -> Markup {
    html! {
        ol.rll-ship data-testid="ship" {
            @for (line, href) in ship_list(base) {
                li { a href=(href) { (line) } }
            }
        }
    }
}

/// What the matrix page says under its heading: what a column, a row and a cell are,
/// with the incident's span (`span`, from [`span_text`]).
pub fn matrix_caption(span: &str) -> String {
    format!(
        "Each column is one incident {span}; each row one client, on the same seed. A cell gives the customers charged, the extra charges, the requests per charge and how long after the incident charges flowed again; its colour says how many kinds of harm the run did. Open a cell to watch that run."
    )
}

/// The matrix page's heading.
pub const MATRIX_TITLE: &str = "Every client against every incident";

/// The heading over what to ship.
pub const SHIP_TITLE: &str = "What to ship";

/// What the checklist is.
pub const SHIP_LEAD: &str = "What the ten rungs add up to, each line with the run that shows why:";

/// The matrix's progress: `done` of all its runs.
pub fn matrix_progress(done: usize) -> String {
    format!("{done} of {} runs", sim::matrix::RUNS)
}

/// The line saying how far the matrix has run, or why it cannot run.
pub const PROGRESS: Slot = slot!("matrix-progress");
/// The matrix's progress bar.
pub const PROGRESS_BAR: Slot = slot!("matrix-progress-bar");
/// Where the table of the cells run so far goes ([`table_markup`]).
pub const TABLE: Slot = slot!("matrix-table");

/// The matrix page's view of `base` as it opens: what a cell is, the progress (none
/// yet), an empty place for the table, and what to ship.
pub fn matrix_view_markup(base: &Scenario) -> Markup {
    html! {
        p.rll-see-note { (matrix_caption(&span_text(base))) }
        p.rll-field-help role="status" data-testid="matrix-progress" data-slot=(PROGRESS) { (matrix_progress(0)) }
        progress max=(Whole(sim::matrix::RUNS as u64)) value="0" data-slot=(PROGRESS_BAR) {}
        div.rll-matrix-wrap data-slot=(TABLE) {}
        h3 { (SHIP_TITLE) }
        p.rll-see-note { (SHIP_LEAD) }
        div { (ship_markup(base)) }
    }
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
        let html = table_markup(&cells, &base).into_string();
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
        assert!(ship_markup(&base)
            .into_string()
            .starts_with("<ol class=\"rll-ship\""));
        assert_eq!(
            matrix_progress(3),
            format!("3 of {} runs", sim::matrix::RUNS)
        );
        assert!(matrix_caption("from 1 s").starts_with("Each column is one incident from 1 s;"));
        let view = matrix_view_markup(&base).into_string();
        for slot in [PROGRESS, PROGRESS_BAR, TABLE] {
            let attr = format!("data-slot=\"{}\"", slot.name());
            assert_eq!(view.matches(&attr).count(), 1, "{slot:?}");
        }
        assert!(view.contains(&span_text(&base)), "{view}");
        assert!(view.contains(&ship_markup(&base).into_string()), "{view}");
        // A half-run matrix shows only the rows it has.
        let half = table_markup(&cells[..7], &base).into_string();
        assert_eq!(half.matches("<tr><th scope=\"row\">").count(), 2);
    }
}

//! Parameter sweeps as readers meet them: the URL's `param`, `from`, `to`, `steps` and
//! `stat`, the CLI's `--sweep-param key=from..=to:steps`, the presets, the axis labels
//! and the sentence for a sweep the core refuses. The stepping is the core's
//! ([`sim::param_sweep`]).

use crate::shared::params::{param, spec, ParamKind, ParamValue};
use crate::shared::stats::stat_text;
use crate::shared::words::Words;
use crate::{parse_count, shown};
use sim::param::Param;
use sim::param_sweep::{ParamSweepError, ParamSweepSpec, MAX_RUNS, MAX_STEPS, MIN_STEPS};
use sim::sweep::MAX_SEEDS;
use sim::time::ms;
use sim::{StatField, StrategyName};
use std::fmt;

/// Values a sweep steps through unless the URL says otherwise.
pub const DEFAULT_STEPS: u64 = 10;

/// The stat a sweep follows unless the URL says otherwise: the lab's first harm.
pub const DEFAULT_STAT: StatField = StatField::Duplicates;

/// True if `param` can be swept: a count or a time.
pub fn sweepable(param: Param) -> bool {
    matches!(param.kind(), ParamKind::Count | ParamKind::Micros)
}

/// The span a sweep of `param` covers unless the URL says otherwise: a quarter of the
/// article's value to four times it, inside the parameter's range.
pub fn default_span(param: Param) -> (u64, u64) {
    let b = param.bounds().unwrap_or(0..=1);
    let v = match param.default_value() {
        ParamValue::Whole(v) => v,
        _ => *b.start(),
    };
    let lo = (v / 4).max(*b.start());
    let hi = v.saturating_mul(4).clamp(lo + 1, *b.end());
    (lo, hi)
}

/// A value of `param` in its reader's unit (ms for times): `200`, `1.5`, `6`.
pub fn value_text(param: Param, value: u64) -> String {
    spec(param).text(ParamValue::Whole(value))
}

/// The x axis's title: the parameter's label and unit, e.g. "Client timeout (ms)".
pub fn axis_label(param: Param) -> String {
    let s = spec(param);
    match s.unit {
        "" => s.label.to_string(),
        unit => format!("{} ({unit})", s.label),
    }
}

/// The y axis's title: the stat's label, e.g. "Extra charges".
pub fn stat_label(stat: StatField) -> &'static str {
    stat_text(stat).label
}

/// The sentence for a parameter that cannot be swept (every page's URL reader may say
/// it, so it stands apart from [`sentence`], which only the sweep page needs).
pub fn not_sweepable(p: Param) -> String {
    format!(
        "{} ({}) cannot be swept: only counts and times can.",
        spec(p).label,
        spec(p).key
    )
}

/// The sentence for a sweep the core will not run.
pub fn sentence(e: &ParamSweepError) -> String {
    match *e {
        ParamSweepError::NotNumeric(p) => not_sweepable(p),
        ParamSweepError::Reversed { from, to } => format!(
            "The sweep must go from a smaller value to a larger one, but it goes from {from} to {to} (in the core's units)."
        ),
        ParamSweepError::Steps(n) => {
            format!("A sweep takes {MIN_STEPS} to {MAX_STEPS} steps, not {n}.")
        }
        ParamSweepError::Empty => {
            format!("A sweep needs a strategy and 1 to {MAX_SEEDS} seeds.")
        }
        ParamSweepError::TooManyRuns(runs) => format!(
            "This sweep would take {runs} runs (values × strategies × seeds); a sweep runs at most {MAX_RUNS}. Use fewer seeds, steps or strategies."
        ),
        ParamSweepError::Scenario(e) => {
            format!("One of the sweep's values cannot run: {}", e.said())
        }
        ParamSweepError::TooManyCustomers(t) => format!(
            "A sweep runs at most {} customers per run; this one asks for {}.",
            t.max_customers, t.asked
        ),
    }
}

impl Words for ParamSweepError {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&sentence(self))
    }
}

/// Reads the CLI's `--sweep-param key=from..=to:steps` (values in the reader's units).
pub fn parse_sweep_flag(text: &str) -> Result<(Param, u64, u64, u64), String> {
    let shape = || {
        format!(
            "--sweep-param expects key=from..=to:steps, e.g. timeoutMs=200..=3000:15, got '{}'",
            shown(text)
        )
    };
    let (key, rest) = text.split_once('=').ok_or_else(shape)?;
    let (range, steps) = rest.rsplit_once(':').ok_or_else(shape)?;
    let (from, to) = range.split_once("..=").ok_or_else(shape)?;
    let s = param(key.trim()).ok_or_else(|| {
        format!(
            "--sweep-param: there is no parameter called '{}'",
            shown(key)
        )
    })?;
    if !sweepable(s.param) {
        return Err(not_sweepable(s.param));
    }
    let whole = |t: &str| match s.parse(t)? {
        ParamValue::Whole(n) => Ok(n),
        _ => Err(shape()),
    };
    let steps = parse_count(steps, MIN_STEPS, MAX_STEPS)
        .map_err(|why| format!("--sweep-param: the number of steps {why}"))?;
    Ok((s.param, whole(from)?, whole(to)?, steps))
}

/// A sweep worth one click: what it shows, and the sweep.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The button's words.
    pub title: &'static str,
    /// What is swept.
    pub spec: ParamSweepSpec,
    /// One strategy, or `None` for every strategy that reads the parameter.
    pub strategy: Option<StrategyName>,
}

/// Seeds a preset runs: enough for a band, quick enough to wait for.
pub const PRESET_SEEDS: u64 = 50;

const fn preset(
    title: &'static str,
    param: Param,
    from: u64,
    to: u64,
    steps: u64,
    stat: StatField,
    strategy: Option<StrategyName>,
) -> Preset {
    Preset {
        title,
        spec: ParamSweepSpec {
            param,
            from,
            to,
            steps,
            stat,
        },
        strategy,
    }
}

/// The presets, in the page's order.
pub const PRESETS: [Preset; 5] = [
    preset(
        "Timeout vs double charges",
        Param::Timeout,
        ms(200),
        ms(3_000),
        15,
        StatField::Duplicates,
        None,
    ),
    preset(
        "Workers vs elapsed time",
        Param::PoolWorkers,
        1,
        20,
        20,
        StatField::ElapsedMs,
        Some(StrategyName::Pool),
    ),
    preset(
        "Workers vs 409s",
        Param::PoolWorkers,
        1,
        20,
        20,
        StatField::InProgressConflicts,
        Some(StrategyName::Pool),
    ),
    preset(
        "Pacer vs 429s",
        Param::Pacer,
        50,
        200,
        16,
        StatField::RateLimited,
        None,
    ),
    preset(
        "Backoff base vs requests",
        Param::BackoffBase,
        0,
        ms(1_000),
        11,
        StatField::Requests,
        Some(StrategyName::Retry),
    ),
];

/// Axis ticks for `lo..=hi`: multiples of 1, 2 or 5 × 10ⁿ, about `want` of them, all
/// inside the span (both ends when the span is one value).
pub fn ticks(lo: u64, hi: u64, want: u64) -> Vec<u64> {
    if hi <= lo {
        return vec![lo];
    }
    let raw = ((hi - lo) / want.max(1)).max(1);
    let mut step = 1u64;
    'find: loop {
        for m in [1, 2, 5] {
            if step.saturating_mul(m) >= raw {
                step = step.saturating_mul(m);
                break 'find;
            }
        }
        step = step.saturating_mul(10);
    }
    let first = lo.div_ceil(step) * step;
    (0..)
        .map(|i| first + i * step)
        .take_while(|t| *t <= hi)
        .collect()
}

/// The top of a y axis that starts at 0 and holds `max`: the next tick at or above it.
pub fn axis_top(max: u64) -> u64 {
    let step = *ticks(0, max.max(1), 4).get(1).unwrap_or(&1);
    max.div_ceil(step).max(1) * step
}

/// A strategy's colour in the charts (Okabe and Ito's palette, which readers with any
/// common colour vision tell apart, and which reads on light and dark backgrounds).
pub const fn colour(strategy: StrategyName) -> &'static str {
    match strategy {
        StrategyName::Naive => "#d55e00",
        StrategyName::Paced => "#e69f00",
        StrategyName::Retry => "#cc79a7",
        StrategyName::TimeoutNoKey => "#c0392b",
        StrategyName::Keyed => "#0072b2",
        StrategyName::Pool => "#009e73",
        StrategyName::Headers => "#56b4e9",
        StrategyName::Budget => "#8c6d00",
        StrategyName::Breaker => "#6a3d9a",
        StrategyName::Adaptive => "#555555",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PARAMS;
    use sim::param_sweep::ParamSweepJob;
    use sim::Scenario;

    #[test]
    fn every_sweepable_parameter_has_a_default_span_inside_its_range() {
        for p in PARAMS.iter().filter(|p| sweepable(p.param)) {
            let (lo, hi) = default_span(p.param);
            let b = p.bounds().unwrap();
            assert!(lo < hi && b.contains(&lo) && b.contains(&hi), "{}", p.key);
        }
        assert_eq!(default_span(Param::Timeout), (ms(250), ms(4_000)));
        assert_eq!(axis_label(Param::Timeout), "Client timeout (ms)");
    }

    #[test]
    fn the_flag_reads_in_the_readers_units_or_explains() {
        assert_eq!(
            parse_sweep_flag("timeoutMs=200..=3000:15"),
            Ok((Param::Timeout, ms(200), ms(3_000), 15))
        );
        assert_eq!(
            parse_sweep_flag("workers=1..=20:20"),
            Ok((Param::PoolWorkers, 1, 20, 20))
        );
        assert!(parse_sweep_flag("timeoutMs=200-3000:15")
            .unwrap_err()
            .contains("key=from..=to:steps"));
        assert!(parse_sweep_flag("nope=1..=2:2")
            .unwrap_err()
            .contains("no parameter called 'nope'"));
        assert!(parse_sweep_flag("jitter=1..=2:2")
            .unwrap_err()
            .contains("cannot be swept"));
        assert!(parse_sweep_flag("workers=0..=2:2")
            .unwrap_err()
            .contains("'0' is too small"));
        assert!(parse_sweep_flag("workers=1..=2:51")
            .unwrap_err()
            .contains("51 is outside 2–50"));
    }

    #[test]
    fn ticks_are_round_and_inside_the_span() {
        assert_eq!(ticks(0, 1_000, 5), [0, 200, 400, 600, 800, 1_000]);
        assert_eq!(ticks(1, 20, 5), [5, 10, 15, 20]);
        assert_eq!(
            ticks(ms(200), ms(3_000), 5),
            [ms(1_000), ms(2_000), ms(3_000)]
        );
        assert_eq!(ticks(7, 7, 5), [7]);
        assert_eq!(axis_top(47), 60);
        assert_eq!(axis_top(0), 1);
        assert_eq!(axis_top(69_116), 80_000);
    }

    #[test]
    fn every_preset_runs_within_the_limits() {
        for p in PRESETS {
            let strategies = p.strategy.map_or_else(
                || sim::param_sweep::strategies_using(p.spec.param),
                |s| vec![s],
            );
            let job = ParamSweepJob::new(
                &Scenario::default(),
                p.spec,
                &strategies,
                PRESET_SEEDS,
                crate::shared::budget::SWEEP_MAX_CUSTOMERS,
            );
            assert!(job.is_ok(), "{}", p.title);
        }
    }
}

//! The code next to the run: the strategy's own source file from the core, with the
//! lines that differ from the previous strategy marked, the shared loop, and a one-line
//! equivalent in a library people know.

use super::strategy_picker::label;
use crate::page::format::duration_ms;
use crate::sim::strategy::pacer::Pacer;
use crate::sim::strategy::ClientParams;
use crate::sim::time::whole_ms;
use crate::sim::{Scenario, StrategyName};
use leptos::prelude::*;

/// The source of each strategy's file, exactly as compiled into the core.
fn source(s: StrategyName) -> &'static str {
    match s {
        StrategyName::Naive => include_str!("../sim/strategy/naive.rs"),
        StrategyName::Paced => include_str!("../sim/strategy/paced.rs"),
        StrategyName::Retry => include_str!("../sim/strategy/retry.rs"),
        StrategyName::TimeoutNoKey => include_str!("../sim/strategy/timeout_no_key.rs"),
        StrategyName::Keyed => include_str!("../sim/strategy/keyed.rs"),
        StrategyName::Pool => include_str!("../sim/strategy/pool.rs"),
    }
}

/// The loop all strategies share, without its tests.
fn shared_loop() -> &'static str {
    let all = include_str!("../sim/strategy/charge.rs");
    all.split("#[cfg(test)]").next().unwrap_or(all).trim_end()
}

/// Which lines of a strategy's file are its one change: the fields set inside
/// `ClientPlan { … }` before `..previous::plan(p)`. The first strategy changes nothing.
pub fn changed_lines(s: StrategyName) -> Vec<bool> {
    let lines: Vec<&str> = source(s).lines().collect();
    let mut marks = vec![false; lines.len()];
    if s.previous().is_none() {
        return marks;
    }
    let mut inside = false;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with("ClientPlan {") {
            inside = true;
        } else if inside && t.starts_with("..") {
            break;
        } else if inside {
            marks[i] = true;
        }
    }
    marks
}

/// A well-known library configured the same way, as (library, code).
fn equivalent(s: StrategyName, c: &ClientParams) -> Vec<(&'static str, String)> {
    let gap_ms = whole_ms(Pacer::new(c.pacer_per_s.max(1)).gap_us());
    let base_ms = whole_ms(c.backoff_base_us);
    let timeout_ms = whole_ms(c.timeout_us);
    let retries = c.max_attempts.saturating_sub(1);
    match s {
        StrategyName::Naive => vec![("JavaScript", "await Promise.all(ids.map((id) => charge(id)))".into())],
        StrategyName::Paced => vec![
            ("Bottleneck (Node)", format!("new Bottleneck({{ minTime: {gap_ms} }})")),
            ("governor (Rust)", format!("RateLimiter::direct(Quota::per_second(nonzero!({}u32)))", c.pacer_per_s)),
        ],
        StrategyName::Retry => vec![(
            "backon (Rust)",
            format!(
                "charge.retry(ExponentialBuilder::default().with_min_delay(Duration::from_millis({base_ms})).with_max_times({retries}))"
            ),
        )],
        StrategyName::TimeoutNoKey => vec![(
            "tower (Rust)",
            format!("ServiceBuilder::new().timeout(Duration::from_millis({timeout_ms})).service(charge_client)"),
        )],
        StrategyName::Keyed => vec![(
            "stripe-node",
            "stripe.charges.create(params, { idempotencyKey: `ck-${id}` })".into(),
        )],
        StrategyName::Pool => vec![
            ("tower (Rust)", format!("ServiceBuilder::new().concurrency_limit({}).service(charge_client)", c.pool_workers)),
            ("Bottleneck (Node)", format!("new Bottleneck({{ maxConcurrent: {}, minTime: {gap_ms} }})", c.pool_workers)),
        ],
    }
}

/// The strategy's file, its change marked, and its equivalents.
#[component]
pub fn CodeView(strategy: Signal<StrategyName>, scenario: Signal<Scenario>) -> impl IntoView {
    let file = move || {
        let s = strategy.get();
        format!("src/sim/strategy/{}.rs", s.as_str().replace('-', "_"))
    };
    let backoff = move || scenario.with(|s| duration_ms(whole_ms(s.client.backoff_base_us)));
    view! {
        <div class="rll-code-view" data-testid="code-view">
            <p>
                "This is the code that produced the numbers above: "
                <code>{file}</code>
                {move || {
                    strategy
                        .get()
                        .previous()
                        .map(|p| view! { <span>", written as " {label(p)} " plus one change, marked "<mark class="rll-mark-inline">"like this"</mark>"."</span> })
                }}
            </p>
            <pre class="rll-source" tabindex="0" aria-label="Strategy source code">
                <code>
                    {move || {
                        let s = strategy.get();
                        let marks = changed_lines(s);
                        source(s)
                            .lines()
                            .zip(marks)
                            .map(|(line, changed)| {
                                let comment = line.trim_start().starts_with("//");
                                view! {
                                    <span class="rll-line" class:rll-changed=changed class:rll-comment=comment data-changed=changed.to_string()>
                                        {line.to_string()}
                                        "\n"
                                    </span>
                                }
                            })
                            .collect_view()
                    }}
                </code>
            </pre>
            <div class="rll-equivalent">
                <p class="rll-caption">
                    "An equivalent configuration in a library you may know (not the code that ran):"
                </p>
                <ul>
                    {move || {
                        scenario.with(|s| equivalent(strategy.get(), &s.client))
                            .into_iter()
                            .map(|(lib, code)| view! { <li><span class="rll-lib">{lib}</span> <code>{code}</code></li> })
                            .collect_view()
                    }}
                </ul>
            </div>
            <details class="rll-details">
                <summary>"The loop every strategy shares (src/sim/strategy/charge.rs): take a turn, send, back off " {backoff} " · 2^(k−1)"</summary>
                <pre class="rll-source" tabindex="0"><code>{shared_loop()}</code></pre>
            </details>
        </div>
    }
}

//! The introduction: the provider's rules, with every number read from its config.

use crate::page::format::{capitalised, count, duration_ms, odds_text};
use crate::sim::provider::ProviderConfig;
use crate::sim::time::whole_ms;
use crate::sim::Scenario;
use leptos::prelude::*;

/// What the imperfect provider does, in a sentence per rule.
#[component]
pub fn Intro(
    /// The provider's rules and the batch to describe.
    scenario: Signal<Scenario>,
) -> impl IntoView {
    move || scenario.with(|s| rules_view(&s.provider, s.customers))
}

fn rules_view(config: &ProviderConfig, customers: u32) -> impl IntoView + use<> {
    let window = match config.rate_window_us {
        1_000_000 => "second".to_string(),
        us => duration_ms(whole_ms(us)),
    };
    let rules = [
        ("503", format!("At most {} requests in flight; one more is refused as overloaded.", config.max_inflight)),
        ("429", format!("At most {} requests admitted per {window}; the next is refused as too many.", count(config.rate_limit.into()))),
        ("500", format!("{} admitted charges fails. Nothing is charged, so a retry can succeed.", capitalised(&odds_text(config.server_error)))),
        ("slow", format!("{} charges takes {}, and the money moves even if the client has stopped waiting.", capitalised(&odds_text(config.slow)), duration_ms(whole_ms(config.slow_latency_us)))),
        ("400", format!("Every {}th customer's card is declined. Asking again gets the same answer.", config.decline_every)),
        ("409", "It honours idempotency keys: a repeat of a key still being processed gets 409, a repeat of a finished one gets the first answer back, with no new charge.".to_string()),
    ];
    view! {
        <section class="rll-intro" aria-labelledby="rll-intro-title">
            <h2 id="rll-intro-title">"The provider"</h2>
            <p>
                "A payment API that behaves like real ones do on a bad day. A client has "
                {count(customers.into())} " customers to charge, once each. Pick a strategy below and "
                "watch what the provider sees."
            </p>
            <ul class="rll-rules">
                {rules
                    .into_iter()
                    .map(|(code, text)| {
                        view! {
                            <li>
                                <span class="rll-code" data-code=code>{code}</span>
                                <span>{text}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

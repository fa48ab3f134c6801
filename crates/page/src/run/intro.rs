//! The introduction above the charges pages: what the imperfect provider does, one rule
//! a sentence, every number read from its configuration.

use crate::shared::format::{capitalised, count, duration_ms, odds_text};
use crate::shared::links::href;
use crate::shared::markup::{escape, tab_link};
use crate::{Section, View};
use sim::provider::ProviderConfig;
use sim::time::whole_ms;
use sim::Scenario;
use std::fmt::Write;

/// The provider's rules: the status each answers with, and the rule in a sentence.
pub fn rules(config: &ProviderConfig) -> [(&'static str, String); 6] {
    let window = match config.rate_window_us {
        1_000_000 => "second".to_string(),
        us => duration_ms(whole_ms(us)),
    };
    [
        ("503", format!("At most {} requests in flight; one more is refused as overloaded.", config.max_inflight)),
        ("429", format!("At most {} requests admitted per {window}; the next is refused as too many.", count(config.rate_limit.into()))),
        ("500", format!("{} admitted charges fails. Nothing is charged, so a retry can succeed.", capitalised(&odds_text(config.server_error)))),
        ("slow", format!("{} charges takes {}, and the money moves even if the client has stopped waiting.", capitalised(&odds_text(config.slow)), duration_ms(whole_ms(config.slow_latency_us)))),
        ("400", format!("Every {}th customer's card is declined. Asking again gets the same answer.", config.decline_every)),
        ("409", "It honours idempotency keys: a repeat of a key still being processed gets 409, a repeat of a finished one gets the first answer back, with no new charge.".to_string()),
    ]
}

/// The introduction as markup: a heading, what the client has to do, and the rules.
pub fn intro_markup(config: &ProviderConfig, customers: u32) -> String {
    let mut out = format!(
        "<h2 id=\"rll-intro-title\">The provider</h2><p>A payment API that behaves like real \
         ones do on a bad day. A client has {} customers to charge, once each. Pick a strategy \
         below and watch what the provider sees.</p><ul class=\"rll-rules\">",
        count(customers.into())
    );
    for (code, text) in rules(config) {
        let _ = write!(
            out,
            "<li><span class=\"rll-code\" data-code=\"{code}\">{code}</span><span>{}</span></li>",
            escape(&text)
        );
    }
    out.push_str("</ul>");
    out
}

/// A view's tab label ("Compare all ten": as many as there are strategies).
pub fn view_label(v: View) -> String {
    match v {
        View::Run => "Run one strategy".to_string(),
        View::Compare => format!(
            "Compare all {}",
            crate::shared::format::number_word(sim::StrategyName::ALL.len())
        ),
        View::Sweep => "Sweep seeds".to_string(),
        View::Matrix => "Every incident".to_string(),
    }
}

/// The charges section's view tabs as markup: a link per view carrying the seed and
/// numbers, the one on screen marked as the current page.
pub fn tabs_markup(current: View, scenario: &Scenario) -> String {
    View::ALL
        .into_iter()
        .map(|v| {
            let href = href(Section::Charges, v, scenario);
            tab_link(
                "rll-tab",
                crate::shared::markup::TabKey::View(v.as_str()),
                &href,
                v == current,
                maud::html! { (view_label(v)) },
            )
            .into_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::StrategyName;

    #[test]
    fn the_rules_quote_the_providers_numbers() {
        let sc = Scenario::article(StrategyName::Naive, 1);
        let m = intro_markup(&sc.provider, sc.customers);
        assert!(
            m.contains(&format!(
                "A client has {} customers",
                count(sc.customers.into())
            )),
            "{m}"
        );
        assert_eq!(
            m.matches("<li><span class=\"rll-code\" data-code=").count(),
            6
        );
        let mut p = sc.provider.clone();
        p.max_inflight = 7;
        p.rate_window_us = 500_000;
        let m = intro_markup(&p, 12);
        assert!(m.contains("<span>At most 7 requests in flight;"), "{m}");
        assert!(m.contains(" per 500 ms; the next"), "{m}");
        assert!(m.contains("A client has 12 customers"), "{m}");
        // The apostrophe in "customer's" is escaped like every text.
        assert!(m.contains("customer&#39;s card"), "{m}");
    }

    #[test]
    fn the_tabs_link_every_view_with_the_numbers_and_mark_the_current_one() {
        let sc = Scenario {
            seed: 9,
            ..Scenario::article(StrategyName::Pool, 9)
        };
        let m = tabs_markup(View::Compare, &sc);
        assert_eq!(m.matches("<a class=\"rll-tab\"").count(), View::ALL.len());
        assert_eq!(m.matches("aria-current=\"page\"").count(), 1);
        assert!(m.contains("data-view=\"compare\" href="), "{m}");
        let compare = &m[m.find("data-view=\"compare\"").unwrap()..];
        assert!(
            compare[..compare.find("</a>").unwrap()]
                .contains("aria-current=\"page\">Compare all ten"),
            "{m}"
        );
        for v in View::ALL {
            assert!(
                m.contains(&format!(
                    "href=\"{}\"",
                    escape(&href(Section::Charges, v, &sc))
                )),
                "{m}"
            );
        }
    }
}

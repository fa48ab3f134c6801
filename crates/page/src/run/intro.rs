//! The introduction above the charges pages: what the imperfect provider does, one rule
//! a sentence, every number read from its configuration.

use crate::shared::format::{capitalised, count, duration_ms, odds_text};
use crate::shared::links::href;
use crate::shared::markup::{tab_link, TabKey};
use crate::{Section, View};
use maud::{html, Markup};
use sim::provider::ProviderConfig;
use sim::time::whole_ms;
use sim::Scenario;

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
pub fn intro_markup(config: &ProviderConfig, customers: u32) -> Markup {
    html! {
        h2 #rll-intro-title { "The provider" }
        p {
            "A payment API that behaves like real ones do on a bad day. A client has "
            (count(customers.into()))
            " customers to charge, once each. Pick a strategy below and watch what the provider sees."
        }
        ul.rll-rules {
            @for (code, text) in rules(config) {
                li { span.rll-code data-code=(code) { (code) } span { (text) } }
            }
        }
    }
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
pub fn tabs_markup(current: View, scenario: &Scenario) -> Markup {
    html! {
        @for v in View::ALL {
            (tab_link("rll-tab", TabKey::View(v.as_str()), &href(Section::Charges, v, scenario),
                v == current, html! { (view_label(v)) }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::StrategyName;

    #[test]
    fn the_rules_quote_the_providers_numbers() {
        let sc = Scenario::article(StrategyName::Naive, 1);
        let m = intro_markup(&sc.provider, sc.customers).into_string();
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
        let m = intro_markup(&p, 12).into_string();
        assert!(m.contains("<span>At most 7 requests in flight;"), "{m}");
        assert!(m.contains(" per 500 ms; the next"), "{m}");
        assert!(m.contains("A client has 12 customers"), "{m}");
        // Each rule is text: what markup would read is escaped.
        p.decline_every = 5;
        let m = intro_markup(&p, 12).into_string();
        assert!(
            m.contains("<span>Every 5th customer's card is declined."),
            "{m}"
        );
        let mut rules = rules(&p);
        rules[0].1 = "a <b> & c".into();
        let m = html! { @for (_, t) in &rules { span { (t) } } }.into_string();
        assert!(m.contains("<span>a &lt;b&gt; &amp; c</span>"), "{m}");
    }

    #[test]
    fn the_tabs_link_every_view_with_the_numbers_and_mark_the_current_one() {
        let sc = Scenario {
            seed: 9,
            ..Scenario::article(StrategyName::Pool, 9)
        };
        let m = tabs_markup(View::Compare, &sc).into_string();
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
                    html! { (href(Section::Charges, v, &sc)) }.into_string()
                )),
                "{m}"
            );
        }
    }
}

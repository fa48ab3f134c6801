//! The introduction above the charges pages: what the imperfect provider does, one rule
//! a sentence, every number read from its configuration.

use crate::query::links::href;
use crate::shared::format::{capitalised, count, duration_ms, odds_text};
use crate::shared::live::{Fill, Live};
use crate::shared::markup::CURRENT_TAB;
use crate::shared::slot::Slot;
use crate::slot;
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
        ("503", inflight_rule(config)),
        ("429", format!("At most {} requests admitted per {window}; the next is refused as too many.", count(config.rate_limit.into()))),
        ("500", match config.server_error.num {
            0 => "No admitted charge fails with 500.".to_string(),
            _ => format!("{} admitted charges fails. Nothing is charged, so a retry can succeed.", capitalised(&odds_text(config.server_error))),
        }),
        ("slow", match config.slow.num {
            0 => format!("No charge is slow: each takes about {}.", duration_ms(whole_ms(config.latency_us))),
            _ => format!("{} charges takes {}, and the money moves even if the client has stopped waiting.", capitalised(&odds_text(config.slow)), duration_ms(whole_ms(config.slow_latency_us))),
        }),
        ("400", format!("Every {}th customer's card is declined. Asking again gets the same answer.", config.decline_every)),
        ("409", "It honours idempotency keys: a repeat of a key still being processed gets 409, a repeat of a finished one gets the first answer back, with no new charge.".to_string()),
    ]
}

/// The in-flight rule: refused at once, or, with a queue, waiting its turn.
fn inflight_rule(config: &ProviderConfig) -> String {
    let n = config.max_inflight;
    let requests = if n == 1 { "request" } else { "requests" };
    match config.queue_limit {
        0 => format!("At most {n} {requests} in flight; one more is refused as overloaded."),
        q => format!(
            "It works on {n} {requests} at a time; up to {} more wait their turn, even for a client that has left, and one more is refused as overloaded.",
            count(q.into())
        ),
    }
}

/// How the customers come: all at once, or over time at the traffic's rate.
pub fn customers_sentence(scenario: &Scenario) -> String {
    use sim::traffic::{Traffic, SPIKE_FACTOR, SPIKE_LENGTH_US, SPIKE_START_US};
    let n = count(scenario.customers.into());
    let rate = count(scenario.traffic.rate_per_s.into());
    match scenario.traffic.shape {
        Traffic::Batch => format!("A client has {n} customers to charge, once each."),
        Traffic::Steady => {
            format!("{n} customers arrive at random, {rate} a second, each to be charged once.")
        }
        Traffic::Ramp => format!(
            "{n} customers arrive at random, ever faster, up to {rate} a second, each to be charged once."
        ),
        Traffic::Spike => format!(
            "{n} customers arrive at random, {rate} a second but {SPIKE_FACTOR} times that for {} from {}, each to be charged once.",
            duration_ms(whole_ms(SPIKE_LENGTH_US)),
            duration_ms(whole_ms(SPIKE_START_US)),
        ),
    }
}

/// The introduction ([`Live`]): a heading, what the client has to do, and the rules.
/// The same markup is the static shell's (index.html, which a test holds to it), so it
/// carries no slots: new numbers draw it again, its shape being the words themselves
/// (they change only when the reader sets another number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intro;

impl Live for Intro {
    type State = Scenario;

    fn shape(&self, scenario: &Scenario) -> u64 {
        // FNV-1a over the words: a change of any number is a change of shape.
        intro_markup(scenario)
            .into_string()
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            })
    }

    fn draw(&self, scenario: &Scenario, _: &mut Fill) -> Markup {
        intro_markup(scenario)
    }
}

/// The introduction as markup: a heading, what the client has to do, and the rules.
pub fn intro_markup(scenario: &Scenario) -> Markup {
    html! {
        h2 #rll-intro-title { "The provider" }
        p {
            "A payment API that behaves like real ones do on a bad day. "
            (customers_sentence(scenario))
            " Pick a strategy below and watch what the provider sees."
        }
        ul.rll-rules {
            @for (code, text) in rules(&scenario.provider) {
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
        View::Client => "Your own client".to_string(),
    }
}

/// A view's tab other than the one on screen, its link's address live.
pub const VIEW_TAB: Slot = slot!("view-tab");

/// The charges section's view tabs ([`Live`]): a link per view carrying the seed and
/// numbers, the one on screen ([`Tabs::0`]) marked as the current page and named by
/// [`CURRENT_TAB`], the others by [`VIEW_TAB`]. A change of the numbers writes the
/// links' addresses in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tabs(pub View);

impl Live for Tabs {
    type State = Scenario;

    fn shape(&self, _: &Scenario) -> u64 {
        0
    }

    fn draw(&self, scenario: &Scenario, fill: &mut Fill) -> Markup {
        html! {
            @for v in View::ALL {
                @let current = v == self.0;
                @let slot = if current { CURRENT_TAB } else { VIEW_TAB };
                a.rll-tab data-view=(v.as_str())
                    href=[fill.data(slot, "href", Some(href(Section::Charges, v, scenario)))]
                    data-slot=(slot) aria-current=[current.then_some("page")] { (view_label(v)) }
            }
        }
    }
}

/// The charges section's view tabs as markup ([`Tabs`]).
pub fn tabs_markup(current: View, scenario: &Scenario) -> Markup {
    Tabs(current).markup(scenario)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::StrategyName;

    #[test]
    fn the_outage_scenario_is_told_as_it_runs() {
        let s = sim::outage::scenario(StrategyName::Keyed, 1);
        let m = intro_markup(&s).into_string();
        for said in [
            "3,180 customers arrive at random, 53 a second, each to be charged once.",
            "It works on 1 request at a time; up to 1,000 more wait their turn",
            "No charge is slow: each takes about 15 ms.",
        ] {
            assert!(m.contains(said), "{said}: {m}");
        }
        let mut ramp = s.clone();
        ramp.traffic.shape = sim::traffic::Traffic::Spike;
        assert_eq!(
            customers_sentence(&ramp),
            "3,180 customers arrive at random, 53 a second but 10 times that for 1.0 s from 4.0 s, each to be charged once."
        );
        ramp.provider.server_error = sim::rng::Odds::NEVER;
        assert_eq!(
            rules(&ramp.provider)[2].1,
            "No admitted charge fails with 500."
        );
    }

    #[test]
    fn the_rules_quote_the_providers_numbers() {
        let sc = Scenario::article(StrategyName::Naive, 1);
        let m = intro_markup(&sc).into_string();
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
        let mut s = sc.clone();
        s.provider.max_inflight = 7;
        s.provider.rate_window_us = 500_000;
        s.customers = 12;
        let m = intro_markup(&s).into_string();
        assert!(m.contains("<span>At most 7 requests in flight;"), "{m}");
        assert!(m.contains(" per 500 ms; the next"), "{m}");
        assert!(m.contains("A client has 12 customers"), "{m}");
        // Each rule is text: what markup would read is escaped.
        s.provider.decline_every = 5;
        let m = intro_markup(&s).into_string();
        assert!(
            m.contains("<span>Every 5th customer's card is declined."),
            "{m}"
        );
        let mut rules = rules(&s.provider);
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

    #[test]
    fn the_tabs_draw_what_they_fill_and_new_numbers_change_only_the_addresses() {
        let a = Scenario::article(StrategyName::Pool, 9);
        let b = Scenario {
            seed: 10,
            ..a.clone()
        };
        for v in View::ALL {
            crate::shared::live::check_drawn(&Tabs(v), &a).unwrap();
        }
        let fill = |s: &Scenario| {
            let mut fill = Fill::default();
            Tabs(View::Run).draw(s, &mut fill);
            fill
        };
        let (fa, fb) = (fill(&a), fill(&b));
        assert_eq!(fa.writes().len(), View::ALL.len());
        let changed = fa.changed_since(&fb).count();
        assert_eq!(changed, View::ALL.len());
        assert_eq!(Tabs(View::Run).shape(&a), Tabs(View::Run).shape(&b));
        let m = tabs_markup(View::Run, &a).into_string();
        assert_eq!(m.matches("data-slot=\"current-tab\"").count(), 1);
        assert_eq!(
            m.matches("data-slot=\"view-tab\"").count(),
            View::ALL.len() - 1
        );
    }

    #[test]
    fn the_intro_is_drawn_again_when_its_words_change_and_only_then() {
        let a = Scenario::article(StrategyName::Naive, 1);
        let mut b = a.clone();
        b.provider.decline_every += 1;
        let other_seed = Scenario {
            seed: 2,
            ..a.clone()
        };
        assert_ne!(Intro.shape(&a), Intro.shape(&b));
        assert_eq!(Intro.shape(&a), Intro.shape(&other_seed));
        assert_eq!(
            Intro.markup(&a).into_string(),
            intro_markup(&a).into_string()
        );
    }
}

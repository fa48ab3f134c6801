//! The widget a blog embeds: the attribute that marks a host element (the public embed
//! contract: `<div data-rate-limit-lab data-strategy="keyed" …>`), how the host's other
//! `data-*` attributes become the URL's keys, and the widget's head and foot as markup.

use crate::shared::live::{Fill, Live};
use crate::shared::titles::strategy_label;
use maud::{html, Markup};
use sim::StrategyName;

/// The attribute that marks an element of a blog's page as a widget's host.
pub const HOST_ATTR: &str = "data-rate-limit-lab";

/// The host's attributes (`(name, value)`) as URL pairs: each `data-*` but the marker,
/// its name in camel case (`data-max-inflight` → `maxInflight`); any other is skipped.
pub fn host_pairs(attributes: impl IntoIterator<Item = (String, String)>) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for (name, value) in attributes {
        if name == HOST_ATTR {
            continue;
        }
        let Some(key) = name.strip_prefix("data-") else {
            continue;
        };
        let mut camel = String::new();
        let mut upper = false;
        for c in key.chars() {
            if c == '-' {
                upper = true;
            } else if upper {
                camel.push(c.to_ascii_uppercase());
                upper = false;
            } else {
                camel.push(c);
            }
        }
        pairs.push((camel, value));
    }
    pairs
}

/// The widget's head, as markup: what its link could not use (hidden when nothing), then
/// its strategy, seed and customers.
pub fn head_markup(
    problems: &[String],
    strategy: StrategyName,
    seed: u64,
    customers: u32,
) -> Markup {
    html! {
        div.rll-notice role="alert" data-testid="widget-problems" hidden[problems.is_empty()] {
            @if !problems.is_empty() { ul { @for p in problems { li { (p) } } } }
        }
        p.rll-widget-title {
            strong { (strategy_label(strategy)) }
            " · seed " (seed) " · " (customers) " customers"
        }
    }
}

/// The widget's foot, as markup: the link to the same run in the full lab at `href`.
pub fn foot_markup(href: &str) -> Markup {
    html! {
        p.rll-widget-foot { a href=(href) target="_blank" rel="noopener" { "Open in the full lab ↗" } }
    }
}

/// The widget's head ([`Live`]): what its link could not use and what it runs, fixed
/// for the widget's life.
pub struct WidgetHead {
    /// What the link could not use.
    pub problems: Vec<String>,
    /// The strategy it runs.
    pub strategy: StrategyName,
    /// The seed it starts from.
    pub seed: u64,
    /// Its customers.
    pub customers: u32,
}

impl Live for WidgetHead {
    type State = ();

    fn shape(&self, _: &()) -> u64 {
        0
    }

    fn draw(&self, _: &(), _: &mut Fill) -> Markup {
        head_markup(&self.problems, self.strategy, self.seed, self.customers)
    }
}

/// The widget's foot ([`Live`]): the link to the full lab at `href`, fixed.
pub struct WidgetFoot {
    /// The same run in the full lab.
    pub href: String,
}

impl Live for WidgetFoot {
    type State = ();

    fn shape(&self, _: &()) -> u64 {
        0
    }

    fn draw(&self, _: &(), _: &mut Fill) -> Markup {
        foot_markup(&self.href)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_s_data_attributes_are_the_url_s_keys() {
        let attrs = [
            (HOST_ATTR, ""),
            ("data-strategy", "keyed"),
            ("data-max-inflight", "20"),
            ("class", "post-widget"),
        ]
        .map(|(n, v)| (n.to_string(), v.to_string()));
        let pairs = host_pairs(attrs);
        assert_eq!(
            pairs,
            [("strategy", "keyed"), ("maxInflight", "20")]
                .map(|(k, v)| (k.to_string(), v.to_string()))
        );
    }

    #[test]
    fn the_head_and_the_foot_are_their_markup() {
        let head = WidgetHead {
            problems: Vec::new(),
            strategy: StrategyName::Keyed,
            seed: 7,
            customers: 1000,
        };
        crate::shared::live::check_drawn(&head, &()).unwrap();
        assert_eq!(
            head.markup(&()).into_string(),
            head_markup(&[], StrategyName::Keyed, 7, 1000).into_string()
        );
        assert!(head
            .markup(&())
            .into_string()
            .contains(r#"data-testid="widget-problems" hidden>"#));
        let foot = WidgetFoot {
            href: "a?b=1&c=2".into(),
        };
        assert!(foot
            .markup(&())
            .into_string()
            .contains(r#"href="a?b=1&amp;c=2""#));
    }

    #[test]
    fn the_head_lists_the_link_s_problems_as_text_and_names_the_run() {
        let m = head_markup(&["speed <b>".into()], StrategyName::Keyed, 7, 1000).into_string();
        assert!(m.contains("<ul><li>speed &lt;b&gt;</li></ul>"), "{m}");
        assert!(!m.contains(" hidden"), "{m}");
        assert!(
            m.ends_with("<strong>Keyed</strong> · seed 7 · 1000 customers</p>"),
            "{m}"
        );
        let quiet = head_markup(&[], StrategyName::Pool, 1, 5).into_string();
        assert!(
            quiet.contains("data-testid=\"widget-problems\" hidden></div>"),
            "{quiet}"
        );
        let foot = foot_markup("https://x/?a=1&b=2").into_string();
        assert!(foot.contains("href=\"https://x/?a=1&amp;b=2\""), "{foot}");
    }
}

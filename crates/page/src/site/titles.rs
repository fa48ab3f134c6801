//! What a browser tab, a bookmark and a shared link call each page: the `<title>` of a
//! page state. `index.html` carries the run page's title and `og:` words for link
//! previews (which read no script); the app then names each page and run it shows.

use crate::query::base::{Base, Naming};
use crate::run::query::Story;
use crate::shared::params::{spec, PARAMS};
use crate::shared::stats::stat_text;
use crate::shared::titles::{strategy_label, SITE};
use crate::site::every::AnyQuery;
use crate::site::sections::section_text;
use crate::sweep::query::Sweep;
use crate::{Page, Section};

/// The `<title>` of the page `q` shows: what is on screen first, the lab's name last.
/// (Each page's own is in its [`crate::site::words::PageWords`]; this is them all.)
pub fn title_for(q: &AnyQuery) -> String {
    match q.page() {
        Page::Run | Page::Embed => run_title(&q.base, q.own.story),
        Page::Compare => compare_title(&q.base),
        Page::Matrix => matrix_title(&q.base),
        Page::Sweep => sweep_title(&q.base, &q.own.sweep),
        Page::Limits => limits_title(),
        Page::Headers => headers_title(),
        Page::Client => client_title(&q.base),
    }
}

/// `head`, then how many of `q`'s numbers differ from the article's, then the lab's name.
fn charges_title(q: &Base, head: &str) -> String {
    let changed = match PARAMS.iter().filter(|p| !p.is_default(&q.scenario)).count() {
        0 => String::new(),
        1 => ", 1 number changed".to_string(),
        n => format!(", {n} numbers changed"),
    };
    format!("{head}{changed} · {SITE}")
}

/// The run page's title (and an embedded widget's): the strategy, the seed, the story.
pub fn run_title(q: &Base, story: Story) -> String {
    let head = match q.strategy() {
        None => section_text(Section::Charges).title.to_string(),
        Some(one) => {
            let story = story
                .customer
                .map_or(String::new(), |c| format!(", customer {c}"));
            format!("{} on seed {}{story}", strategy_label(one), q.seed())
        }
    };
    charges_title(q, &head)
}

/// The compare page's title.
pub fn compare_title(q: &Base) -> String {
    charges_title(q, &format!("All ten strategies on seed {}", q.seed()))
}

/// The matrix page's title.
pub fn matrix_title(q: &Base) -> String {
    let head = format!("Every client against every incident on seed {}", q.seed());
    charges_title(q, &head)
}

/// The sweep page's title: a sweep of seeds, or a stat against a parameter.
pub fn sweep_title(q: &Base, sweep: &Sweep) -> String {
    let head = match (sweep.param, q.naming) {
        (Some(sp), _) => format!(
            "{} against {}",
            stat_text(sp.stat).label,
            spec(sp.param).label
        ),
        (None, Naming::All) => format!("All ten over {} seeds", sweep.seeds),
        (None, Naming::One) => format!(
            "{} over {} seeds",
            strategy_label(q.scenario.strategy),
            sweep.seeds
        ),
        (None, Naming::Unnamed) => "Sweep seeds".to_string(),
    };
    charges_title(q, &head)
}

/// The client view's title.
pub fn client_title(q: &Base) -> String {
    charges_title(q, &format!("Your own client on seed {}", q.seed()))
}

/// The limits page's title.
pub fn limits_title() -> String {
    format!("{} · {SITE}", section_text(Section::Limits).title)
}

/// The headers page's title.
pub fn headers_title() -> String {
    format!("{} · {SITE}", section_text(Section::Headers).title)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{pairs_of, parse};

    fn title(query: &str) -> String {
        title_for(&parse(&pairs_of(query)))
    }

    #[test]
    fn each_page_and_run_has_its_own_title() {
        assert_eq!(
            title(""),
            "A thousand charges, one imperfect API · rate-limit-lab"
        );
        assert_eq!(
            title("?strategy=timeout-no-key&seed=7"),
            "Timeout, no key on seed 7 · rate-limit-lab"
        );
        assert_eq!(
            title("?strategy=keyed&customer=12&timeoutMs=2500"),
            "Keyed on seed 1, customer 12, 1 number changed · rate-limit-lab"
        );
        assert_eq!(
            title("?view=compare&seed=3&timeoutMs=2500&workers=3"),
            "All ten strategies on seed 3, 2 numbers changed · rate-limit-lab"
        );
        assert_eq!(title("?view=sweep"), "Sweep seeds · rate-limit-lab");
        assert_eq!(
            title("?view=sweep&strategy=all&seeds=30"),
            "All ten over 30 seeds · rate-limit-lab"
        );
        assert_eq!(
            title("?view=sweep&strategy=pool&seeds=50"),
            "Worker pool over 50 seeds · rate-limit-lab"
        );
        assert_eq!(
            title("?view=sweep&param=timeoutMs&from=200&to=3000&steps=15&stat=duplicates&seeds=50"),
            "Extra charges against Client timeout · rate-limit-lab"
        );
        assert_eq!(
            title("?section=limits&experiment=herd"),
            "Publishing a limit · rate-limit-lab"
        );
        assert_eq!(
            title("?section=headers"),
            "The headers between them · rate-limit-lab"
        );
        let mut all: Vec<String> = [
            "",
            "?strategy=naive",
            "?strategy=naive&seed=2",
            "?view=compare",
            "?view=sweep",
            "?section=limits",
            "?section=headers",
        ]
        .map(title)
        .to_vec();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 7, "no two of these pages share a title");
    }

    #[test]
    fn the_static_page_names_itself_as_the_app_then_does() {
        let index = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../index.html"),
        )
        .expect("index.html");
        let first = title("");
        assert!(
            index.contains(&format!("<title>{first}</title>")),
            "index.html's <title> is {first}"
        );
        let meta = |property: &str, content: &str| {
            format!("<meta property=\"{property}\" content=\"{content}\" />")
        };
        let charges = section_text(Section::Charges);
        let description = format!("<meta name=\"description\" content=\"{}\" />", charges.lede);
        assert!(
            index.contains(&description),
            "index.html holds {description}"
        );
        for tag in [
            meta("og:title", &first),
            meta("og:description", charges.lede),
            meta("og:site_name", SITE),
        ] {
            assert!(index.contains(&tag), "index.html holds {tag}");
        }
    }
}

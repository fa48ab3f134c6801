//! What each page says of the query it shows, beside the page itself: its tab's title,
//! the command line that prints the same numbers natively, and (for a charges page) the
//! commands that run it over HTTP: [`PageWords`], one set per page over its own query
//! type, and the footer that shows them.

use crate::client::query::ClientQuery;
use crate::limits::query::{Lab, LimitsQuery};
use crate::query::base::{Base, Naming};
use crate::query::read::Query;
use crate::run::query::{RunQuery, Story};
use crate::shared::live::{Fill, Live};
use crate::shared::slot::Slot;
use crate::site::every::AnyQuery;
use crate::site::titles;
use crate::slot;
use crate::sweep::param_sweep;
use crate::sweep::query::{Sweep, SweepQuery};
use crate::{Page, PARAMS};
use maud::{html, Markup};
use sim::lab::ExperimentName;
use sim::param::ParamGroup;
use sim::Scenario;

/// How the footers start a command: from a checkout, with the native release build.
pub const CLI_PREFIX: &str = "cargo run --release --bin ratelab --";

/// The command that prints what the page for `q` shows: the same run, the same six
/// columns, the same distributions or the same experiment. (Each page's own builder is
/// in its [`PageWords`]; this is them all, for a caller that may show any page.)
pub fn cli_line(q: &AnyQuery) -> String {
    match q.page() {
        Page::Run | Page::Embed => run_cli(&q.base, q.own.story),
        Page::Compare => compare_cli(&q.base),
        Page::Matrix => matrix_cli(&q.base),
        Page::Sweep => sweep_cli(&q.base, &q.own.sweep),
        Page::Limits => limits_cli(&q.base, &q.own.lab),
        Page::Headers => headers_cli(),
        Page::Client => client_cli(&q.base),
    }
}

/// A command's words so far, each quoted as a shell reads it.
struct Command(Vec<String>);

impl Command {
    /// `ratelab` as the footers run it, then `words`.
    fn new(words: &[&str]) -> Self {
        let mut c = Self(vec![CLI_PREFIX.into()]);
        c.push(words);
        c
    }

    fn push(&mut self, words: &[&str]) {
        self.0.extend(words.iter().map(|w| quoted(w)));
    }

    /// One `--<key> <value>` for each of `s`'s numbers away from its default that
    /// `keep` keeps, then the whole line.
    fn with_params(mut self, s: &Scenario, keep: impl Fn(&crate::ParamSpec) -> bool) -> String {
        for p in PARAMS.iter().filter(|p| !p.is_default(s) && keep(p)) {
            self.push(&[&format!("--{}", p.key), &p.read(s)]);
        }
        self.0.join(" ")
    }
}

/// A run page's (or an embedded widget's) command: one strategy, one seed, and the
/// customer whose story is open.
fn run_cli(q: &Base, story: Story) -> String {
    let s = &q.scenario;
    let mut c = Command::new(&["charges", "--strategy", s.strategy.as_str()]);
    c.push(&["--seed", &s.seed.to_string()]);
    if let Some(id) = story.customer {
        c.push(&["--customer", &id.to_string()]);
    } else if let Some(scene) = story.scene {
        c.push(&["--customer", scene.as_str()]);
    }
    c.with_params(s, |_| true)
}

/// The compare page's command: every strategy on one seed.
fn compare_cli(q: &Base) -> String {
    let s = &q.scenario;
    Command::new(&["charges", "--all", "--seed", &s.seed.to_string()]).with_params(s, |_| true)
}

/// The matrix page's command. Each column sets its own incident kind; its start and
/// length are the page's.
fn matrix_cli(q: &Base) -> String {
    let s = &q.scenario;
    Command::new(&["charges", "--matrix", "--seed", &s.seed.to_string()])
        .with_params(s, |p| p.param != sim::Param::Incident)
}

/// The sweep page's command: a sweep of seeds, or of one parameter's values.
fn sweep_cli(q: &Base, sweep: &Sweep) -> String {
    let s = &q.scenario;
    let mut c = Command::new(&["charges"]);
    let Some(sp) = sweep.param else {
        match q.naming {
            Naming::One => c.push(&["--strategy", s.strategy.as_str()]),
            _ => c.push(&["--all"]),
        }
        c.push(&["--seeds", &format!("1..={}", sweep.seeds)]);
        return c.with_params(s, |_| true);
    };
    match q.naming {
        Naming::All => c.push(&["--all"]),
        Naming::One => c.push(&["--strategy", s.strategy.as_str()]),
        Naming::Unnamed => {}
    }
    let key = crate::spec(sp.param).key;
    let flag = format!(
        "{key}={}..={}:{}",
        param_sweep::value_text(sp.param, sp.from),
        param_sweep::value_text(sp.param, sp.to),
        sp.steps
    );
    c.push(&["--sweep-param", &flag]);
    c.push(&["--seeds", &format!("1..={}", sweep.seeds)]);
    c.push(&["--stat", sp.stat.as_str()]);
    c.with_params(s, |p| p.param != sp.param)
}

/// The limits page's command: its experiment (or all), with the knobs it changed.
fn limits_cli(q: &Base, lab: &Lab) -> String {
    let which = lab.experiment.map_or("all", ExperimentName::as_str);
    let mut c = Command::new(&["limits", which, "--seed", &q.scenario.seed.to_string()]);
    for k in lab
        .settings
        .changed()
        .filter(|k| lab.experiment.is_none_or(|e| e == k.experiment))
    {
        c.push(&[&format!("--{}", k.key), &lab.settings.text(k.id)]);
    }
    c.0.join(" ")
}

/// The client view's command: the same provider over real HTTP, judging the reader's
/// client saved as a file (`ratelab judge` sets only the provider's numbers).
fn client_cli(q: &Base) -> String {
    let s = &q.scenario;
    let mut c = Command::new(&["judge", "--seed", &s.seed.to_string()]);
    for p in PARAMS
        .iter()
        .filter(|p| !p.is_default(s) && p.group() == ParamGroup::Provider)
    {
        c.push(&[&format!("--{}", p.key), &p.read(s)]);
    }
    c.push(&["--", "node", "clients/run.mjs", "my-client.js"]);
    c.0.join(" ")
}

/// The headers page's command.
fn headers_cli() -> String {
    Command::new(&["limits", "headers"]).0.join(" ")
}

/// What a page's tab and footer say of the query `Q` it shows: its title, the command
/// that prints the same numbers, and (on a page with a real-time counterpart) the
/// commands that run it over HTTP. One set per page, as function pointers over that
/// page's own query type, so that a page's module carries only its own page's builders.
pub struct PageWords<Q> {
    /// The tab's `<title>`.
    pub title: fn(&Q) -> String,
    /// The command that prints the same numbers natively.
    pub cli: fn(&Q) -> String,
    /// The commands that run it for real, if the page has a real-time counterpart.
    pub http: Option<fn(&Q) -> Option<HttpLines>>,
}

impl<Q> Clone for PageWords<Q> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Q> Copy for PageWords<Q> {}

/// The run page's words.
pub const RUN_WORDS: PageWords<RunQuery> = PageWords {
    title: |q| titles::run_title(&q.base, q.own.0),
    cli: |q| run_cli(&q.base, q.own.0),
    http: Some(|q| http_cli_line(&q.base)),
};

/// The compare page's words.
pub const COMPARE_WORDS: PageWords<Query<()>> = PageWords {
    title: |q| titles::compare_title(&q.base),
    cli: |q| compare_cli(&q.base),
    http: Some(|q| http_cli_line(&q.base)),
};

/// The matrix page's words.
pub const MATRIX_WORDS: PageWords<Query<()>> = PageWords {
    title: |q| titles::matrix_title(&q.base),
    cli: |q| matrix_cli(&q.base),
    http: None,
};

/// The sweep page's words.
pub const SWEEP_WORDS: PageWords<SweepQuery> = PageWords {
    title: |q| titles::sweep_title(&q.base, &q.own),
    cli: |q| sweep_cli(&q.base, &q.own),
    http: None,
};

/// The limits page's words.
pub const LIMITS_WORDS: PageWords<LimitsQuery> = PageWords {
    title: |_| titles::limits_title(),
    cli: |q| limits_cli(&q.base, &q.own),
    http: None,
};

/// The headers page's words.
pub const HEADERS_WORDS: PageWords<Query<()>> = PageWords {
    title: |_| titles::headers_title(),
    cli: |_| headers_cli(),
    http: None,
};

/// The client view's words.
pub const CLIENT_WORDS: PageWords<ClientQuery> = PageWords {
    title: |q| titles::client_title(&q.base),
    cli: |q| client_cli(&q.base),
    http: None,
};

/// Where `ratelab serve` listens unless told otherwise (the second article's port).
pub const HTTP_BASE: &str = "http://127.0.0.1:55541";

/// The two commands that run a charges page for real, over HTTP: the server, with the
/// provider's numbers, and the client, with the strategy, the seed (the client resets
/// the server's dice to it), the customers and the client's numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpLines {
    /// `ratelab serve` with the provider's parameters.
    pub serve: String,
    /// `ratelab charges --http …` with the client's.
    pub client: String,
}

/// The commands that run what the page for `q` shows for real (one strategy, or the six
/// of the compare view); `None` for a page that has no real-time counterpart (a sweep
/// of seeds, the limits and headers pages).
pub fn http_cli_line(q: &Base) -> Option<HttpLines> {
    let s = &q.scenario;
    if !s.traffic.is_batch() {
        return None; // Over HTTP the customers come as one batch.
    }
    let run: &[&str] = match q.page() {
        Page::Run | Page::Embed => &["--strategy", s.strategy.as_str()],
        Page::Compare => &["--all"],
        Page::Sweep | Page::Matrix | Page::Limits | Page::Headers | Page::Client => return None,
    };
    let mut serve = format!("{CLI_PREFIX} serve");
    let mut client = format!("{CLI_PREFIX} charges --http {HTTP_BASE}");
    for word in run {
        client.push(' ');
        client.push_str(word);
    }
    client.push_str(&format!(" --seed {}", s.seed));
    for p in PARAMS.iter().filter(|p| !p.is_default(s)) {
        let line = if p.group() == ParamGroup::Client || p.key == "customers" {
            &mut client
        } else {
            &mut serve
        };
        line.push_str(&format!(" --{} {}", p.key, quoted(&p.read(s))));
    }
    Some(HttpLines { serve, client })
}

/// A word as a POSIX shell reads it: as it is when it is plain, else in single quotes.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Where the footer stands ([`SiteFooter`]).
pub const FOOTER: Slot = slot!("footer");

/// The footer of every page of the full lab, as markup: the command that prints the same
/// numbers natively, then (on a page with a real-time counterpart, per `words`)
/// the two commands that run it for real over HTTP, then what the lab is not.
pub fn footer_markup<Q>(q: &Q, words: PageWords<Q>) -> Markup {
    SiteFooter.markup(&words.lines(q))
}

/// What the footer says for what a page shows: the command that prints the same
/// numbers, and the commands that run it over HTTP, if the page has them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FooterLines {
    /// The command that prints the same numbers natively.
    pub cli: String,
    /// The commands that run it for real, if the page has a real-time counterpart.
    pub http: Option<HttpLines>,
}

impl<Q> PageWords<Q> {
    /// The footer's commands for `q`.
    pub fn lines(&self, q: &Q) -> FooterLines {
        FooterLines {
            cli: (self.cli)(q),
            http: self.http.and_then(|f| f(q)),
        }
    }
}

/// The footer of every page of the full lab ([`Live`], its state the page's
/// [`FooterLines`]). Its commands follow the page's numbers, and their second paragraph
/// comes and goes with the page, so its content is one markup hole ([`Fill::markup`]),
/// written again when they change (an edit, not a frame): a hole per command cost each
/// page's module more than it saves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SiteFooter;

impl Live for SiteFooter {
    type State = FooterLines;

    fn shape(&self, _: &FooterLines) -> u64 {
        0
    }

    fn draw(&self, s: &FooterLines, fill: &mut Fill) -> Markup {
        let inner = html! {
            p { "The same numbers, natively: " code data-testid="cli-command" { (s.cli) } }
            @if let Some(h) = &s.http {
                p {
                    "…for real, over HTTP: " code data-testid="http-serve-command" { (h.serve) }
                    " then, in a second terminal, " code data-testid="http-cli-command" { (h.client) }
                }
            }
            p { "A model, not a benchmark: no network, simulated time, one seeded random generator." }
        };
        html! { footer.rll-footer data-slot=(FOOTER) { (fill.markup(FOOTER, inner)) } }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::query::Sweep;
    use crate::View;

    use crate::site::keys::link::{page, page_as};

    #[test]
    fn each_page_has_its_command() {
        let cli = |q: &str| cli_line(&page(q)).replace(CLI_PREFIX, "ratelab");
        assert_eq!(
            cli("?strategy=pool&seed=3&maxInflight=20&errorRate=1/5"),
            "ratelab charges --strategy pool --seed 3 --maxInflight 20 --errorRate 1/5"
        );
        assert_eq!(
            cli("?strategy=keyed&customer=12"),
            "ratelab charges --strategy keyed --seed 1 --customer 12"
        );
        assert_eq!(
            cli("?view=compare&seed=9&timeoutMs=2500"),
            "ratelab charges --all --seed 9 --timeoutMs 2500"
        );
        assert_eq!(
            cli("?view=sweep&strategy=retry&seeds=50&backoffMs=20"),
            "ratelab charges --strategy retry --seeds 1..=50 --backoffMs 20"
        );
        assert_eq!(
            cli("?view=sweep&seeds=30"),
            "ratelab charges --all --seeds 1..=30"
        );
        assert_eq!(
            cli("?view=sweep&param=timeoutMs&from=200&to=3000&steps=15&stat=duplicates&seeds=50&timeoutMs=700&workers=3"),
            "ratelab charges --sweep-param timeoutMs=200..=3000:15 --seeds 1..=50 --stat duplicates --workers 3"
        );
        assert_eq!(
            cli("?view=sweep&strategy=pool&param=workers&from=1&to=20&steps=20&stat=elapsedMs&seeds=5"),
            "ratelab charges --strategy pool --sweep-param workers=1..=20:20 --seeds 1..=5 --stat elapsedMs"
        );
        assert_eq!(
            cli("?section=limits&experiment=herd&seed=4"),
            "ratelab limits herd --seed 4"
        );
        assert_eq!(cli("?section=limits&seed=4"), "ratelab limits all --seed 4");
        assert_eq!(
            cli("?section=limits&experiment=herd&seed=4&herdJitter=equal&burstGapMs=9&herdClients=300"),
            "ratelab limits herd --seed 4 --herdJitter equal --herdClients 300",
            "only the shown experiment's settings"
        );
        assert_eq!(cli("?section=headers&seed=4"), "ratelab limits headers");
        assert_eq!(
            cli("?embed=1&strategy=naive&seed=2"),
            "ratelab charges --strategy naive --seed 2"
        );
    }

    #[test]
    fn a_charges_page_has_the_commands_that_run_it_for_real() {
        let http = |q: &str| {
            http_cli_line(&page(q).base).map(|l| {
                (
                    l.serve.replace(CLI_PREFIX, "ratelab"),
                    l.client.replace(CLI_PREFIX, "ratelab"),
                )
            })
        };
        assert_eq!(
            http("?strategy=keyed&seed=3"),
            Some((
                "ratelab serve".to_string(),
                "ratelab charges --http http://127.0.0.1:55541 --strategy keyed --seed 3"
                    .to_string()
            ))
        );
        // The provider's numbers go to the server, the client's and the batch size to
        // the client, each exactly once.
        assert_eq!(
            http("?strategy=pool&seed=2&maxInflight=20&errorRate=1/5&workers=3&customers=200&customer=7"),
            Some((
                "ratelab serve --maxInflight 20 --errorRate 1/5".to_string(),
                "ratelab charges --http http://127.0.0.1:55541 --strategy pool --seed 2 --customers 200 --workers 3"
                    .to_string()
            ))
        );
        assert_eq!(
            http("?view=compare&seed=9&timeoutMs=2500").map(|l| l.1),
            Some(
                "ratelab charges --http http://127.0.0.1:55541 --all --seed 9 --timeoutMs 2500"
                    .to_string()
            )
        );
        for q in [
            "?view=sweep&seeds=30",
            "?section=limits&seed=4",
            "?section=headers",
        ] {
            assert_eq!(http(q), None, "{q}");
        }
        let full = "?strategy=naive&seed=1&customers=50&maxInflight=3&rateLimit=20&pacer=40";
        let (serve, client) = http(full).unwrap();
        for p in PARAMS
            .iter()
            .filter(|p| !p.is_default(&page(full).base.scenario))
        {
            let flag = format!("--{} ", p.key);
            assert_eq!(
                serve.contains(&flag) as u8 + client.contains(&flag) as u8,
                1,
                "{flag}"
            );
        }
    }

    #[test]
    fn words_that_a_shell_would_split_are_quoted() {
        assert_eq!(quoted("1..=200"), "1..=200");
        assert_eq!(quoted("a b"), "'a b'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        assert_eq!(quoted(""), "''");
    }

    #[test]
    fn the_footer_names_the_command_and_the_real_run_only_on_pages_that_have_one() {
        let q = RunQuery::for_run(
            &Scenario {
                seed: 4,
                ..Scenario::default()
            },
            crate::Speed::Instant,
        );
        let http = http_cli_line(&q.base).expect("a run has a real-time counterpart");
        let escape = |text: &str| html! { (text) }.into_string();
        let sweep = SweepQuery {
            base: Base {
                view: View::Sweep,
                ..q.base.clone()
            },
            own: Sweep::default(),
        };
        let plain = footer_markup(&sweep, SWEEP_WORDS).into_string();
        crate::shared::live::check_drawn(&SiteFooter, &SWEEP_WORDS.lines(&sweep)).unwrap();
        crate::shared::live::check_drawn(&SiteFooter, &RUN_WORDS.lines(&q)).unwrap();
        let drawn = SiteFooter.markup(&RUN_WORDS.lines(&q)).into_string();
        assert_eq!(
            drawn.matches("data-testid=\"http-cli-command\"").count(),
            1,
            "{drawn}"
        );
        let mut other = q.clone();
        other.base.scenario.seed += 1;
        let (mut before, mut after) = (Fill::default(), Fill::default());
        SiteFooter.draw(&RUN_WORDS.lines(&q), &mut before);
        SiteFooter.draw(&RUN_WORDS.lines(&other), &mut after);
        assert_eq!(after.writes().len(), 1);
        assert_ne!(before, after, "the commands carry the seed");
        assert!(plain.contains(&format!(
            "<code data-testid=\"cli-command\">{}</code>",
            escape(&(SWEEP_WORDS.cli)(&sweep))
        )));
        assert!(!plain.contains("http-serve-command"));
        let both = footer_markup(&q, RUN_WORDS).into_string();
        assert!(both.contains(&format!(
            "<code data-testid=\"cli-command\">{}</code>",
            escape(&(RUN_WORDS.cli)(&q))
        )));
        assert!(both.contains(&format!(
            "<code data-testid=\"http-serve-command\">{}</code>",
            escape(&http.serve)
        )));
        assert!(both.contains(&format!(
            "<code data-testid=\"http-cli-command\">{}</code>",
            escape(&http.client)
        )));
        // Each page's words say what the command line's reading of its link says.
        let link = "?view=sweep&strategy=retry&seeds=50&backoffMs=20";
        assert_eq!((SWEEP_WORDS.cli)(&page_as(link)), cli_line(&page(link)));
        assert_eq!(
            (SWEEP_WORDS.title)(&page_as(link)),
            titles::title_for(&page(link))
        );
        assert!(both.ends_with("one seeded random generator.</p></footer>"));
    }
}

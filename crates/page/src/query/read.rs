//! Reading a URL's query, and writing one back. Every page reads the [`Base`]; each page
//! adds the families of keys it owns (a [`Family`], defined in the page's own folder), and
//! [`Query`] is the two together: a page's own query type. The reader hands each pair to
//! the base or to the page's families, and says of a key that belongs to another page's
//! family what the [`Registry`] says of it; this module names no page.

use super::base::{Base, BaseKey, Key};
use super::codec::encode;
use super::page::{Page, Speed};
use crate::shared::params::PARAMS;
use crate::shared::words::shown;
use crate::shared::words::Words;
use sim::names::Named;
use sim::Scenario;

/// The member named `text`, or the sentence for a name that matches nothing, saying
/// what is used instead.
pub fn one_of<T: Named + std::fmt::Display>(text: &str, fallback: T) -> Result<T, String> {
    T::by_name(text).map_err(|e| format!("{} Using {fallback} instead.", e.said()))
}

/// A family of keys, as every page knows it: its names, and what a page that does not
/// read them makes of one.
#[derive(Clone, Copy)]
pub struct Keys {
    /// The keys.
    pub names: &'static [&'static str],
    /// What a page that does not read them makes of one.
    pub elsewhere: Elsewhere,
}

/// What a page that does not read a family's keys makes of one.
#[derive(Clone, Copy)]
pub enum Elsewhere {
    /// Ignores it with a sentence saying where it belongs: `Ignored '<key>': <this>.`
    Said(&'static str),
    /// Reads it as its own page does, to say so if it is bad, and ignores it (the value
    /// means nothing here, but every page has always told a reader of a bad one).
    Checked(fn(&str, &str) -> Option<String>),
}

impl Keys {
    /// True if `key` is one of these.
    pub fn has(&self, key: &str) -> bool {
        self.names.contains(&key)
    }
}

/// Every family of keys of the lab's pages beyond the base's, and the keys the sentence
/// for an unknown key lists: what a page needs to know of the pages it is not.
#[derive(Clone, Copy)]
pub struct Registry {
    /// Every family.
    pub families: &'static [&'static Keys],
    /// The page keys the sentence for an unknown key lists, in its order.
    pub listed: &'static [&'static str],
}

/// The keys a page reads beyond the base's, and what it makes of them. `()` reads none;
/// a pair of families reads both.
pub trait Family: Clone + Default + PartialEq + std::fmt::Debug {
    /// True if `key` is one of its keys.
    fn owns(key: &str) -> bool;
    /// Reads the value of one of its keys, as the URL gives it; the sentence if it could
    /// not be used.
    fn read(&mut self, key: &str, value: &str) -> Option<String>;
    /// Once every key is read, before the rules across the run's numbers: values that
    /// mean something only together.
    fn gather(&mut self, _base: &mut Base) {}
    /// Once the run is settled: values checked against it.
    fn settle(&mut self, _base: &mut Base) {}
    /// Its pairs written between the base's head and the run's numbers.
    fn write(&self, _out: &mut Pairs) {}
    /// Its pairs written last.
    fn write_last(&self, _out: &mut Pairs) {}
    /// The file a link to its page opens, if not the page's own.
    fn file(&self, _base: &Base) -> Option<&'static str> {
        None
    }
}

impl Family for () {
    fn owns(_: &str) -> bool {
        false
    }
    fn read(&mut self, _: &str, _: &str) -> Option<String> {
        None
    }
}

impl<A: Family, B: Family> Family for (A, B) {
    fn owns(key: &str) -> bool {
        A::owns(key) || B::owns(key)
    }
    fn read(&mut self, key: &str, value: &str) -> Option<String> {
        if A::owns(key) {
            self.0.read(key, value)
        } else {
            self.1.read(key, value)
        }
    }
    fn gather(&mut self, base: &mut Base) {
        self.0.gather(base);
        self.1.gather(base);
    }
    fn settle(&mut self, base: &mut Base) {
        self.0.settle(base);
        self.1.settle(base);
    }
    fn write(&self, out: &mut Pairs) {
        self.0.write(out);
        self.1.write(out);
    }
    fn write_last(&self, out: &mut Pairs) {
        self.0.write_last(out);
        self.1.write_last(out);
    }
    fn file(&self, base: &Base) -> Option<&'static str> {
        self.0.file(base).or_else(|| self.1.file(base))
    }
}

/// What a page's URL asks for: the [`Base`] every page reads, and the page's own
/// families of keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query<F> {
    /// What every page reads.
    pub base: Base,
    /// The page's own keys.
    pub own: F,
}

/// A query string being written: `key=value` pairs in order.
#[derive(Default)]
pub struct Pairs(Vec<(&'static str, String)>);

impl Pairs {
    /// Adds `key=value`.
    pub fn push(&mut self, key: &'static str, value: &str) {
        self.0.push((key, value.to_string()));
    }
}

impl<F: Family> Query<F> {
    /// The page playing `scenario` at `speed` in the run view: write it with
    /// [`Query::to_query`] to name that run in the address bar.
    pub fn for_run(scenario: &Scenario, speed: Speed) -> Self {
        Self {
            base: Base::for_run(scenario, speed),
            own: F::default(),
        }
    }

    /// The query string that [`read`] reads back into this page: section, view,
    /// strategy, seed and speed, then only what differs from the defaults, in a fixed
    /// order.
    pub fn to_query(&self) -> String {
        let mut out = Pairs::default();
        self.base.write_head(&mut out);
        self.own.write(&mut out);
        self.base.write_tail(&mut out);
        self.own.write_last(&mut out);
        let joined: Vec<String> = out
            .0
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect();
        format!("?{}", joined.join("&"))
    }

    /// The page this query opens.
    pub fn page(&self) -> Page {
        self.base.page()
    }

    /// A link to this page: its [`Page::entry_file`] (or the file its families name) and
    /// its query.
    pub fn href(&self) -> String {
        let file = self
            .own
            .file(&self.base)
            .unwrap_or_else(|| self.page().entry_file());
        format!("{file}{}", self.to_query())
    }
}

/// The sentence for a key no page understands.
fn unknown_key(key: &str, value: &str, registry: &Registry) -> String {
    if key.is_empty() {
        return format!(
            "Ignored the value '{}': it has no parameter name before its '='.",
            shown(value)
        );
    }
    let known = BaseKey::NAMES
        .into_iter()
        .chain(
            registry
                .families
                .iter()
                .flat_map(|f| f.names.iter().copied()),
        )
        .chain(PARAMS.iter().map(|p| p.key));
    if let Some(k) = known.into_iter().find(|k| k.eq_ignore_ascii_case(key)) {
        return format!(
            "Ignored the unknown parameter '{}'; did you mean '{k}'? Names are case-sensitive.",
            shown(key)
        );
    }
    // The page's own keys are listed; the numbers' and the limits experiments' keys
    // would make the sentence too long to read: the CLI's help lists them.
    format!(
        "Ignored the unknown parameter '{}'. Known: {}, and each number's key (customers, timeoutMs, …: `ratelab charges --help` and `ratelab limits --help` list them).",
        shown(key),
        registry.listed.join(", ")
    )
}

/// Reads decoded `(key, value)` pairs, in URL order, as a page whose own keys are `F`'s:
/// a key of another page's family is ignored, with the sentence `registry` gives it.
pub fn read<F: Family>(pairs: &[(String, String)], registry: &Registry) -> Query<F> {
    let mut q = Query::<F>::default();
    let mut seen: Vec<&str> = Vec::new();
    for (key, value) in pairs {
        let key = key.as_str();
        let base = Key::of(key);
        let other = registry.families.iter().find(|f| f.has(key));
        if base.is_none() && other.is_none() && !F::owns(key) {
            q.base.problems.push(unknown_key(key, value, registry));
            continue;
        }
        if seen.contains(&key) {
            q.base.problems.push(format!(
                "'{key}' appears more than once; the first value is used."
            ));
            continue;
        }
        seen.push(key);
        let problem = match base {
            Some(k) => q.base.read(k, value.trim()),
            None if F::owns(key) => q.own.read(key, value),
            None => match other.map(|f| f.elsewhere) {
                Some(Elsewhere::Said(why)) => Some(format!("Ignored '{key}': {why}.")),
                Some(Elsewhere::Checked(check)) => check(key, value),
                None => None,
            },
        };
        q.base.problems.extend(problem);
    }
    q.own.gather(&mut q.base);
    q.base.settle();
    q.own.settle(&mut q.base);
    // The presenter's layout plays at 1× unless the link names a speed: a room watches
    // the run happen (the strategy it opens on: `run::stage::opening_strategy`).
    if q.base.present && !seen.contains(&BaseKey::Speed.as_str()) {
        q.base.speed = Speed::X1;
    }
    q
}

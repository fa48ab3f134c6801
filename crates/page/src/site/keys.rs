//! Every family of keys a URL may hold beyond the base's, each defined in its page's own
//! folder: the [`Registry`] each page reads its URL with.

use crate::client::query::CODE_KEYS;
use crate::limits::query::{EXPERIMENT_KEYS, SETTINGS_KEYS};
use crate::query::read::{Family, Query, Registry};
use crate::run::query::{COUNTERS_KEYS, STORY_KEYS, WALK_KEYS};
use crate::sweep::query::{PARAM_KEYS, SEEDS_KEYS};

/// Every page's families of keys, and the keys the sentence for an unknown key lists.
pub const REGISTRY: Registry = Registry {
    families: &[
        &SEEDS_KEYS,
        &STORY_KEYS,
        &COUNTERS_KEYS,
        &EXPERIMENT_KEYS,
        &WALK_KEYS,
        &CODE_KEYS,
        &PARAM_KEYS,
        &SETTINGS_KEYS,
    ],
    listed: &LISTED,
};

/// The keys the sentence for an unknown key lists: the base's and the pages' own (the
/// numbers' and the limits settings' are too many to read; the CLI's help lists them).
const LISTED: [&str; 20] = [
    "section",
    "view",
    "strategy",
    "seed",
    "seeds",
    "speed",
    "customer",
    "counters",
    "experiment",
    "embed",
    "present",
    "motion",
    "tour",
    "step",
    "code",
    "param",
    "from",
    "to",
    "steps",
    "stat",
];

/// Reads decoded `(key, value)` pairs, in URL order, as the page whose own keys are
/// `F`'s reads them ([`crate::query::read::read`]).
pub fn read<F: Family>(pairs: &[(String, String)]) -> Query<F> {
    crate::query::read::read(pairs, &REGISTRY)
}

/// Test helpers: what a link opens, as the page layer's tests read it.
#[cfg(test)]
pub(crate) mod link {
    use crate::query::read::{Family, Query};
    use crate::{pairs_of, parse, AnyQuery};

    /// The query after a link's page file, as decoded pairs.
    fn pairs(link: &str) -> Vec<(String, String)> {
        pairs_of(link.split_once('?').map_or(link, |(_, q)| q))
    }

    /// What a link opens: the query after its page file.
    pub(crate) fn page(link: &str) -> AnyQuery {
        parse(&pairs(link))
    }

    /// What a link opens, read as the page of `F`'s keys reads it.
    pub(crate) fn page_as<F: Family>(link: &str) -> Query<F> {
        super::read(&pairs(link))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listed_keys_are_the_base_s_and_every_page_s_own() {
        let mut listed = LISTED.to_vec();
        let mut every: Vec<&str> = crate::query::base::BaseKey::NAMES.to_vec();
        every.extend(
            REGISTRY
                .families
                .iter()
                .filter(|f| f.names != SETTINGS_KEYS.names)
                .flat_map(|f| f.names.iter().copied()),
        );
        listed.sort_unstable();
        every.sort_unstable();
        assert_eq!(listed, every);
    }
}

//! Every random number a run uses, from two named generators seeded by the scenario.
//!
//! [`KeyedDraws`] serves the charges simulation. Each of its draws is a pure function of
//! the seed and what the draw is for (whose request, which one, which decision), so the
//! order in which a run happens to ask does not matter, and two strategies run on the
//! same seed roll the same dice for the same customer's same request (common random
//! numbers). [`SimRng`], one `Pcg64Mcg` stream, serves the limits page's experiments,
//! where one stream in a fixed order is all that is needed.
//!
//! Both are named algorithms with a fixed output for a given seed, so a seed means the
//! same run natively, in tests and in the browser. The helpers (`below`, `between`,
//! `chance`) use integer arithmetic only, so no float rounding can differ between
//! platforms, and they are shared, rejection loop included, by both generators.

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// A probability written as a fraction, e.g. 1/20 or 5/100.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Odds {
    /// Favourable outcomes.
    pub num: u32,
    /// Out of this many. Never zero.
    pub den: u32,
}

impl Odds {
    /// `1 in n`.
    pub const fn one_in(n: u32) -> Self {
        Self { num: 1, den: n }
    }

    /// Never happens.
    pub const NEVER: Odds = Odds { num: 0, den: 1 };
}

/// A uniform integer in `0..n` from a source of uniform `u64`s. Unbiased: Lemire's
/// multiply-and-reject ("Fast Random Integer Generation in an Interval", ACM TOMACS,
/// 2019), so a draw may take more than one word from `next`.
fn below_from(next: &mut impl FnMut() -> u64, n: u64) -> u64 {
    assert!(n > 0, "below(0) has no values to choose from");
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u128::from(next()) * u128::from(n);
        if (m as u64) >= threshold {
            return (m >> 64) as u64;
        }
    }
}

/// A uniform integer in `lo..=hi` from a source of uniform `u64`s.
fn between_from(next: &mut impl FnMut() -> u64, lo: u64, hi: u64) -> u64 {
    assert!(lo <= hi);
    match (hi - lo).checked_add(1) {
        Some(span) => lo + below_from(next, span),
        None => next(),
    }
}

/// True with probability `odds`, from a source of uniform `u64`s.
fn chance_from(next: &mut impl FnMut() -> u64, odds: Odds) -> bool {
    debug_assert!(odds.is_probability());
    below_from(next, u64::from(odds.den)) < u64::from(odds.num)
}

/// One seeded stream, drawn from in order: the limits page's experiments use it.
pub struct SimRng(Pcg64Mcg);

impl SimRng {
    /// The generator for `seed`.
    pub fn from_seed(seed: u64) -> Self {
        Self(Pcg64Mcg::seed_from_u64(seed))
    }

    /// A uniform integer in `0..n`. Unbiased (Lemire's multiply-and-reject).
    pub fn below(&mut self, n: u64) -> u64 {
        below_from(&mut || self.0.next_u64(), n)
    }

    /// A uniform integer in `lo..=hi`.
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        between_from(&mut || self.0.next_u64(), lo, hi)
    }

    /// True with probability `odds`.
    pub fn chance(&mut self, odds: Odds) -> bool {
        chance_from(&mut || self.0.next_u64(), odds)
    }
}

/// SplitMix64's increment: 2^64 divided by the golden ratio, made odd.
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finalizer, which is David Stafford's "Mix13" variant of MurmurHash3's
/// 64-bit finalizer: a bijection on `u64` in which every input bit affects every output
/// bit. Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators" (OOPSLA
/// 2014); Vigna's reference code is <https://prng.di.unimi.it/splitmix64.c>; Stafford,
/// "Better Bit Mixing" (2011), <https://zimbry.blogspot.com/2011/09/better-bit-mixing-improving-on.html>.
pub const fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The `i`-th output (from 1) of SplitMix64 seeded with `state`, without stepping
/// through the ones before it: SplitMix64's state after `i` steps is `state + i·γ`.
const fn splitmix64(state: u64, i: u64) -> u64 {
    mix64(state.wrapping_add(i.wrapping_mul(GOLDEN_GAMMA)))
}

/// Which decision a draw is for. Each has dice of its own, so drawing (or not drawing)
/// one never shifts another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Draw {
    /// The provider: does this charge fail with 500?
    ServerError,
    /// The provider: is this charge slow?
    Slow,
    /// The provider: this request's processing time, inside the jitter.
    Latency,
    /// The client: how long the full-jitter backoff sleeps after this attempt.
    Backoff,
    /// The provider, during an `errors` incident: does this charge fail with 500?
    IncidentError,
    /// The traffic: the gap before this customer arrives (open-loop shapes only).
    Arrival,
    /// The client: its n-th random number, one stream for the whole client (the lab's
    /// strategies draw a header pause's jitter from it; a reader's own client in the
    /// sandbox draws `Math.random()` from it), keyed by how many draws came before.
    ClientRandom,
}

impl Draw {
    /// The word this kind of draw is told apart by in the hash. Fixed numbers, not the
    /// enum's order, so reordering the variants cannot change a run.
    const fn tag(self) -> u64 {
        match self {
            Draw::ServerError => 1,
            Draw::Slow => 2,
            Draw::Latency => 3,
            Draw::Backoff => 4,
            Draw::IncidentError => 5,
            // 6 was a header wait's jitter, keyed by customer and attempt; the client now
            // draws it from its one stream (`ClientRandom`), as JavaScript's Math.random.
            Draw::Arrival => 7,
            Draw::ClientRandom => 8,
        }
    }
}

/// What one draw is for: a customer, which of that customer's requests (or attempts), and
/// which decision about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DrawKey {
    /// The customer the request charges.
    pub customer: u32,
    /// For the provider's draws, the customer's n-th request to reach the provider (from
    /// 1, refused ones counted); for the client's, the attempt number (from 1).
    pub nth: u32,
    /// Which decision.
    pub draw: Draw,
}

/// A counter-based generator: the dice for a [`DrawKey`] are a hash of the seed and the
/// key, not the next numbers of a shared stream.
///
/// The key's stream is SplitMix64 seeded with
/// `mix64(mix64(s ^ (customer · 2^32 + nth)) ^ tag)`, where `s` is the first output of
/// SplitMix64 seeded with the scenario's seed and [`mix64`] is SplitMix64's finalizer.
/// Mixing the seed first keeps nearby seeds from lining up with nearby keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyedDraws {
    /// The seed, already mixed.
    seed_word: u64,
}

impl KeyedDraws {
    /// The dice of the run seeded with `seed`.
    pub const fn from_seed(seed: u64) -> Self {
        Self {
            seed_word: splitmix64(seed, 1),
        }
    }

    /// The stream of words for one key. The same key always gives the same stream.
    pub const fn stream(&self, key: DrawKey) -> DrawStream {
        let request = ((key.customer as u64) << 32) | key.nth as u64;
        DrawStream {
            state: mix64(mix64(self.seed_word ^ request) ^ key.draw.tag()),
            taken: 0,
        }
    }
}

/// The words one [`DrawKey`] may use: usually one, more if a rejection loop asks again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawStream {
    state: u64,
    taken: u64,
}

impl DrawStream {
    /// The next uniform word of this key's stream.
    pub fn next_u64(&mut self) -> u64 {
        self.taken += 1;
        splitmix64(self.state, self.taken)
    }

    /// A uniform integer in `0..n`. Unbiased (Lemire's multiply-and-reject).
    pub fn below(mut self, n: u64) -> u64 {
        below_from(&mut || self.next_u64(), n)
    }

    /// A uniform integer in `lo..=hi`.
    pub fn between(mut self, lo: u64, hi: u64) -> u64 {
        between_from(&mut || self.next_u64(), lo, hi)
    }

    /// True with probability `odds`.
    pub fn chance(mut self, odds: Odds) -> bool {
        chance_from(&mut || self.next_u64(), odds)
    }

    /// A uniform number in `[0, 1)`, a multiple of 2⁻⁵³: what `Math.random()` gives.
    pub fn unit(mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

impl KeyedDraws {
    /// The client's `n`-th random number (from 0), in `[0, 1)`: one stream per run.
    pub fn client_random(&self, n: u32) -> f64 {
        self.stream(DrawKey {
            customer: 0,
            nth: n,
            draw: Draw::ClientRandom,
        })
        .unit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = SimRng::from_seed(42);
        let mut b = SimRng::from_seed(42);
        let xs: Vec<u64> = (0..100).map(|_| a.below(1000)).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.below(1000)).collect();
        assert_eq!(xs, ys);
        let mut c = SimRng::from_seed(43);
        let zs: Vec<u64> = (0..100).map(|_| c.below(1000)).collect();
        assert_ne!(xs, zs);
    }

    #[test]
    fn stream_is_pinned() {
        // The first draws for seed 1. If this changes, every published figure changes.
        let mut r = SimRng::from_seed(1);
        let xs: Vec<u64> = (0..5).map(|_| r.below(1_000_000)).collect();
        assert_eq!(xs, PINNED_SEED_1);
    }
    const PINNED_SEED_1: [u64; 5] = [856_717, 137_554, 470_461, 726_249, 369_843];

    #[test]
    fn chance_matches_its_odds() {
        let mut r = SimRng::from_seed(7);
        let n = 200_000;
        let hits = (0..n).filter(|_| r.chance(Odds::one_in(20))).count();
        // 1/20 of 200,000 is 10,000; the standard deviation is about 97.
        assert!((9_500..=10_500).contains(&hits), "{hits}");
        assert!(!(0..1000).any(|_| r.chance(Odds::NEVER)));
        assert!((0..1000).all(|_| r.chance(Odds { num: 3, den: 3 })));
    }

    #[test]
    fn between_covers_its_ends() {
        let mut r = SimRng::from_seed(3);
        let xs: Vec<u64> = (0..1000).map(|_| r.between(12, 18)).collect();
        assert_eq!(*xs.iter().min().unwrap(), 12);
        assert_eq!(*xs.iter().max().unwrap(), 18);
        assert_eq!(r.between(5, 5), 5);
    }

    #[test]
    fn splitmix64_matches_the_reference_code() {
        // The first outputs of splitmix64.c seeded with 1477776061723855037, as published
        // in rand_xoshiro's tests (produced there with Vigna's reference implementation).
        let xs: Vec<u64> = (1..=3)
            .map(|i| splitmix64(1_477_776_061_723_855_037, i))
            .collect();
        assert_eq!(
            xs,
            [
                1_985_237_415_132_408_290,
                2_979_275_885_539_914_483,
                13_511_426_838_097_143_398
            ]
        );
    }

    fn key(customer: u32, nth: u32, draw: Draw) -> DrawKey {
        DrawKey {
            customer,
            nth,
            draw,
        }
    }

    #[test]
    fn keyed_draws_are_pinned() {
        // If this changes, every published figure changes.
        let dice = KeyedDraws::from_seed(1);
        let mut s = dice.stream(key(1, 1, Draw::Latency));
        let words = [s.next_u64(), s.next_u64()];
        assert_eq!(words, PINNED_WORDS);
        let draws = [
            dice.stream(key(1, 1, Draw::Latency)).below(1_000_000),
            dice.stream(key(1, 1, Draw::Slow)).below(1_000_000),
            dice.stream(key(1, 2, Draw::Slow)).below(1_000_000),
            dice.stream(key(17, 1, Draw::ServerError)).below(1_000_000),
            dice.stream(key(17, 1, Draw::Backoff)).below(1_000_000),
        ];
        assert_eq!(draws, PINNED_DRAWS);
    }
    // Checked against an independent Python transcription of the formula in the
    // `KeyedDraws` doc comment.
    const PINNED_WORDS: [u64; 2] = [11_791_231_039_280_566_344, 18_072_750_594_507_067_808];
    const PINNED_DRAWS: [u64; 5] = [639_203, 285_456, 327_760, 869_194, 425_601];

    #[test]
    fn each_part_of_the_key_changes_the_dice() {
        let mut words = std::collections::BTreeSet::new();
        let mut n = 0;
        for seed in [0, 1, 2, u64::MAX] {
            let dice = KeyedDraws::from_seed(seed);
            for customer in [0, 1, 2, 17, u32::MAX] {
                for nth in [0, 1, 2, 3, u32::MAX] {
                    for draw in [Draw::ServerError, Draw::Slow, Draw::Latency, Draw::Backoff] {
                        let k = key(customer, nth, draw);
                        let mut a = dice.stream(k);
                        let mut b = dice.stream(k);
                        let first = a.next_u64();
                        assert_eq!(first, b.next_u64(), "the same key gives the same dice");
                        assert_ne!(first, a.next_u64(), "a stream moves on");
                        words.insert(first);
                        n += 1;
                    }
                }
            }
        }
        assert_eq!(words.len(), n, "two keys gave the same first word");
    }

    #[test]
    fn chance_over_many_keys_matches_its_odds() {
        let dice = KeyedDraws::from_seed(7);
        let n = 200_000;
        let hits = (1..=n)
            .filter(|&c| {
                dice.stream(key(c, 1 + c % 5, Draw::ServerError))
                    .chance(Odds::one_in(20))
            })
            .count();
        // 1/20 of 200,000 is 10,000; the standard deviation is about 97.
        assert!((9_500..=10_500).contains(&hits), "{hits}");
        // Neighbouring keys are not correlated: the same customer's next request, and the
        // same request's other draw, hit together about 1/20 of the time, not more.
        let both = |other: &dyn Fn(u32) -> DrawKey| {
            (1..=n)
                .filter(|&c| {
                    dice.stream(key(c, 1, Draw::ServerError))
                        .chance(Odds::one_in(20))
                        && dice.stream(other(c)).chance(Odds::one_in(20))
                })
                .count()
        };
        // 1/400 of 200,000 is 500; the standard deviation is about 22.
        for pairs in [
            both(&|c| key(c, 2, Draw::ServerError)),
            both(&|c| key(c, 1, Draw::Slow)),
            both(&|c| key(c + 1, 1, Draw::ServerError)),
        ] {
            assert!((400..=600).contains(&pairs), "{pairs}");
        }
        assert!(!(1..1000).any(|c| dice.stream(key(c, 1, Draw::Slow)).chance(Odds::NEVER)));
        assert!((1..1000).all(|c| dice
            .stream(key(c, 1, Draw::Slow))
            .chance(Odds { num: 3, den: 3 })));
    }

    #[test]
    fn keyed_below_is_unbiased_and_covers_its_range() {
        let dice = KeyedDraws::from_seed(3);
        let n = 70_000;
        let mut counts = [0u32; 7];
        for c in 1..=n {
            counts[dice.stream(key(c, 1, Draw::Latency)).below(7) as usize] += 1;
        }
        // Each of 7 values expects 10,000 (standard deviation about 93); chi-square with
        // 6 degrees of freedom is above 22.5 with probability 0.001.
        let chi2: f64 = counts
            .iter()
            .map(|&k| (f64::from(k) - 10_000.0).powi(2) / 10_000.0)
            .sum();
        assert!(chi2 < 22.5, "{counts:?}: chi-square {chi2:.1}");
        let xs: Vec<u64> = (1..=1000)
            .map(|c| dice.stream(key(c, 1, Draw::Backoff)).between(12, 18))
            .collect();
        assert_eq!(*xs.iter().min().unwrap(), 12);
        assert_eq!(*xs.iter().max().unwrap(), 18);
        // Half of all words are rejected for this n: the loop must still end in range.
        let big = (1 << 63) + 1;
        assert!((1..=1000).all(|c| dice.stream(key(c, 1, Draw::Slow)).below(big) < big));
    }

    #[test]
    fn below_rejects_the_words_that_would_bias_it() {
        // For n = 3, 2^64 mod 3 = 1 word value must be rejected: 0 (its product's low
        // word, 0, is under the threshold 1). The next word decides.
        let mut words = [0, u64::MAX].into_iter();
        assert_eq!(below_from(&mut || words.next().unwrap(), 3), 2);
        assert_eq!(words.next(), None, "both words were used");
    }
}

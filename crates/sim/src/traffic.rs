//! When customers arrive: all at once (the article's batch) or over time (open loop).
//!
//! Open-loop traffic does not wait for the client: a customer arrives when its time comes,
//! however far behind the client is. Arrivals are a Poisson process whose rate may change
//! over time, drawn from the seed: customer `c` arrives when the expected number of
//! arrivals, `Λ(t) = ∫ rate`, reaches `E₁ + … + E_c`, where each `E_i` is an exponential
//! draw of mean 1 keyed by customer `i` ([`Draw::Arrival`]). The shapes:
//!
//! - **batch**: every customer at t = 0 (the article's).
//! - **steady**: `rate` customers a second, from t = 0 until the last has arrived
//!   (about `customers / rate` seconds).
//! - **ramp**: a rate that rises in a straight line from 0 to `rate`, reached as the
//!   last customer arrives (about `2 · customers / rate` seconds).
//! - **spike**: `rate`, except [`SPIKE_FACTOR`] times it for [`SPIKE_LENGTH_US`] from
//!   [`SPIKE_START_US`].
//!
//! Determinism: the logarithm an exponential draw needs is computed here with additions,
//! multiplications and divisions only, which IEEE 754 rounds the same way on every
//! platform, so a wasm build and a native build draw the same arrivals to the
//! microsecond. (`f64::ln` comes from each platform's maths library, which may differ in
//! its last bit.)

use super::rng::{Draw, DrawKey, KeyedDraws};
use super::time::{secs, US_PER_S};
use serde::{Deserialize, Serialize};

crate::named_enum! {
    /// How customers arrive.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Traffic as "traffic" {
        /// Every customer at t = 0.
        Batch = "batch",
        /// A steady rate.
        Steady = "steady",
        /// A rate rising from 0.
        Ramp = "ramp",
        /// A steady rate with a short burst at ten times it.
        Spike = "spike",
    }
}

/// A spike's rate, as a multiple of the steady rate around it.
pub const SPIKE_FACTOR: u64 = 10;
/// When a spike starts.
pub const SPIKE_START_US: u64 = secs(4);
/// How long a spike lasts.
pub const SPIKE_LENGTH_US: u64 = secs(1);

/// The traffic of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrafficPlan {
    /// How customers arrive.
    pub shape: Traffic,
    /// Customers per second: the steady rate, the ramp's last rate, the rate around a
    /// spike. A batch ignores it.
    pub rate_per_s: u32,
}

impl TrafficPlan {
    /// True for the article's batch: everyone at t = 0.
    pub fn is_batch(&self) -> bool {
        self.shape == Traffic::Batch
    }
}

impl Default for TrafficPlan {
    fn default() -> Self {
        Self {
            shape: Traffic::Batch,
            rate_per_s: 80,
        }
    }
}

/// Every customer's arrival, in microseconds, from the seed: nondecreasing in customer id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arrivals {
    /// Customers `1..=customers`.
    customers: u32,
    /// Index `customer − 1`; empty for a batch (every arrival is 0).
    at_us: Vec<u64>,
}

impl Arrivals {
    /// All `customers` at t = 0.
    pub const fn batch(customers: u32) -> Self {
        Self {
            customers,
            at_us: Vec::new(),
        }
    }

    /// How many customers arrive.
    pub fn customers(&self) -> u32 {
        self.customers
    }

    /// The arrivals of `customers` customers under `plan`, drawn from `seed`.
    pub fn new(plan: &TrafficPlan, customers: u32, seed: u64) -> Self {
        if plan.shape == Traffic::Batch {
            return Self::batch(customers);
        }
        let dice = KeyedDraws::from_seed(seed);
        let rate = f64::from(plan.rate_per_s.max(1));
        let n = f64::from(customers);
        let us = US_PER_S as f64;
        let mut expected = 0.0;
        let at_us = (1..=customers)
            .map(|customer| {
                expected += unit_exponential(&dice, customer);
                // Λ⁻¹(expected), in seconds, for the shape's Λ.
                let t_s = match plan.shape {
                    Traffic::Batch | Traffic::Steady => expected / rate,
                    // Λ(t) = rate·t²/(2T) with T = 2n/rate, so t = √(4n·Λ)/rate.
                    Traffic::Ramp => (4.0 * n * expected).sqrt() / rate,
                    Traffic::Spike => spike_inverse(expected, rate),
                };
                // Whole microseconds, rounded down; far below u64's range for any run.
                (t_s * us) as u64
            })
            .collect();
        Self { customers, at_us }
    }

    /// When `customer` (from 1) arrives.
    pub fn at_us(&self, customer: u32) -> u64 {
        self.at_us.get(customer as usize - 1).copied().unwrap_or(0)
    }

    /// True for a batch: everyone arrived at t = 0.
    pub fn is_batch(&self) -> bool {
        self.at_us.is_empty()
    }

    /// The last arrival (0 for a batch or no customers).
    pub fn last_us(&self) -> u64 {
        self.at_us.last().copied().unwrap_or(0)
    }
}

/// Λ⁻¹ for a spike: rate `r` before `S`, `10r` during `[S, S + L)`, `r` after.
fn spike_inverse(expected: f64, rate: f64) -> f64 {
    let s = SPIKE_START_US as f64 / US_PER_S as f64;
    let l = SPIKE_LENGTH_US as f64 / US_PER_S as f64;
    let k = SPIKE_FACTOR as f64;
    let before = rate * s;
    let during = k * rate * l;
    if expected < before {
        expected / rate
    } else if expected < before + during {
        s + (expected - before) / (k * rate)
    } else {
        s + l + (expected - before - during) / rate
    }
}

/// An exponential draw of mean 1 for `customer`: `−ln u` for a uniform `u` in (0, 1].
fn unit_exponential(dice: &KeyedDraws, customer: u32) -> f64 {
    let word = dice
        .stream(DrawKey {
            customer,
            nth: 0,
            draw: Draw::Arrival,
        })
        .next_u64();
    // 53 random bits, plus one so u is never 0.
    let u = ((word >> 11) + 1) as f64 / (1u64 << 53) as f64;
    -ln(u)
}

/// The natural logarithm of `x` in (0, 1], with IEEE-exact operations only.
///
/// `x = m · 2^e` with `m` in [1, 2), read from the bits; `ln m = 2·atanh(s)` with
/// `s = (m − 1)/(m + 1)` in [0, 1/3), summed as `2(s + s³/3 + s⁵/5 + …)` until a term
/// no longer changes the sum (at most about 17 terms, since `s² < 1/9`).
fn ln(x: f64) -> f64 {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let (mut term, mut sum, mut k) = (s, 0.0, 1.0);
    loop {
        let next = sum + term / k;
        if next == sum {
            break;
        }
        sum = next;
        term *= s2;
        k += 2.0;
    }
    exponent as f64 * std::f64::consts::LN_2 + 2.0 * sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_logarithm_matches_the_platforms_to_within_rounding() {
        for i in 1..=10_000u64 {
            let x = i as f64 / 10_000.0;
            let ours = ln(x);
            let theirs = x.ln();
            assert!(
                (ours - theirs).abs() <= 4.0 * f64::EPSILON * theirs.abs().max(1.0),
                "ln({x}): {ours} vs {theirs}"
            );
        }
        assert_eq!(ln(1.0), 0.0);
        let tiny = 1.0 / (1u64 << 53) as f64;
        assert!((ln(tiny) - tiny.ln()).abs() < 1e-12);
    }

    #[test]
    fn a_batch_arrives_at_once() {
        let a = Arrivals::new(&TrafficPlan::default(), 1_000, 1);
        assert!(a.is_batch());
        assert_eq!(a.at_us(1), 0);
        assert_eq!(a.at_us(1_000), 0);
    }

    fn plan(shape: Traffic, rate_per_s: u32) -> TrafficPlan {
        TrafficPlan { shape, rate_per_s }
    }

    #[test]
    fn steady_arrivals_come_at_the_rate_in_order_and_are_poisson() {
        let a = Arrivals::new(&plan(Traffic::Steady, 80), 80_000, 7);
        assert!(a.at_us.windows(2).all(|w| w[0] <= w[1]));
        // 80,000 arrivals at 80 a second: about 1,000 s (the sum of 80,000 unit
        // exponentials has a standard deviation of √80,000 ≈ 283, 0.35%; 1.5% is over
        // four of them).
        let span_s = a.last_us() as f64 / 1e6;
        assert!((985.0..=1_015.0).contains(&span_s), "{span_s}");
        // Counts per second: a Poisson count's variance equals its mean (80).
        let mut per_s = vec![0u32; span_s as usize + 1];
        for &t in &a.at_us {
            per_s[(t / US_PER_S) as usize] += 1;
        }
        let whole = &per_s[..per_s.len() - 1];
        let mean = whole.iter().map(|&c| f64::from(c)).sum::<f64>() / whole.len() as f64;
        let var = whole
            .iter()
            .map(|&c| (f64::from(c) - mean).powi(2))
            .sum::<f64>()
            / whole.len() as f64;
        assert!((78.0..=82.0).contains(&mean), "mean {mean}");
        assert!(
            (68.0..=92.0).contains(&var),
            "variance {var}, a Poisson count's is 80"
        );
        // Another seed, other arrivals; the same seed, the same ones.
        assert_ne!(a, Arrivals::new(&plan(Traffic::Steady, 80), 80_000, 8));
        assert_eq!(a, Arrivals::new(&plan(Traffic::Steady, 80), 80_000, 7));
    }

    #[test]
    fn a_ramp_rises_to_its_rate_and_a_spike_is_ten_times_it() {
        let n = 40_000;
        let a = Arrivals::new(&plan(Traffic::Ramp, 100), n, 3);
        // It takes about 2n/rate = 800 s; the last tenth of that holds about 19% of
        // the arrivals (1 − 0.9²), the first tenth 1%.
        let span = a.last_us();
        assert!((780..=820).contains(&(span / US_PER_S)), "{span}");
        let first = a.at_us.iter().filter(|&&t| t < span / 10).count();
        let last = a.at_us.iter().filter(|&&t| t >= span / 10 * 9).count();
        assert!((300..=500).contains(&first), "{first}");
        assert!((7_200..=8_000).contains(&last), "{last}");

        let s = Arrivals::new(&plan(Traffic::Spike, 50), 2_000, 3);
        let count = |from_us: u64, to_us: u64| {
            s.at_us
                .iter()
                .filter(|&&t| (from_us..to_us).contains(&t))
                .count()
        };
        let spike = count(SPIKE_START_US, SPIKE_START_US + SPIKE_LENGTH_US);
        let before = count(SPIKE_START_US - secs(1), SPIKE_START_US);
        let after = count(SPIKE_START_US + SPIKE_LENGTH_US, SPIKE_START_US + secs(2));
        assert!(
            (420..=580).contains(&spike),
            "{spike} in the spike's second"
        );
        assert!((25..=75).contains(&before) && (25..=75).contains(&after));
    }
}

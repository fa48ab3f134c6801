//! What a customer waits: the time from its arrival to its charge's end (charged,
//! declined or given up on), kept in a bounded histogram so a ten-million-customer run
//! holds kilobytes, not a wait per customer.

use super::time::whole_ms;

/// Buckets below this value (in whole milliseconds) hold one value each: waits shorter
/// than 1,024 ms are kept exactly.
const EXACT_MS: u64 = 1 << EXACT_BITS;
const EXACT_BITS: u32 = 10;
/// Buckets per doubling above [`EXACT_MS`].
const HALF: u64 = EXACT_MS / 2;

/// Every customer's wait, in whole milliseconds (rounded down, as `elapsed_ms` is), in a
/// log-linear histogram.
///
/// Precision: a wait below 1,024 ms has its own bucket, so it is kept exactly. From
/// 1,024 ms on, each doubling `[2^e, 2^(e+1))` is cut into 512 buckets of equal width
/// `2^(e−9)`, so a bucket is at most 1/512 (about 0.2%) of its lowest value wide. The
/// histogram holds one `u32` per bucket up to the highest one used: 1,024 buckets for
/// waits up to 1 s, 512 more per doubling (about 14 KB for waits up to a minute, 40 KB
/// up to a day, 112 KB at most for any `u64`).
///
/// The maximum is kept exactly. A percentile `p` of `n` waits is the nearest rank: the
/// smallest bucket whose count, with the counts of every bucket below it, reaches
/// `ceil(p·n)`, reported as that bucket's highest value and never above the maximum. So
/// a reported percentile is never below the true nearest-rank wait `v` and at most
/// `v / 512` above it (equal to it below 1,024 ms). No waits: every figure is 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Waits {
    /// Customers per bucket, up to the highest bucket used.
    counts: Vec<u32>,
    /// Waits recorded.
    n: u64,
    /// The longest wait, in whole milliseconds.
    max_ms: u64,
}

impl Waits {
    /// Counts one customer who arrived at `arrival_us` and whose charge ended at
    /// `finished_us` (no earlier than its arrival).
    pub fn add(&mut self, arrival_us: u64, finished_us: u64) {
        assert!(
            finished_us >= arrival_us,
            "a charge ends after its customer arrives"
        );
        self.add_ms(whole_ms(finished_us - arrival_us));
    }

    /// Counts one wait of `wait_ms` whole milliseconds.
    pub fn add_ms(&mut self, wait_ms: u64) {
        let i = bucket(wait_ms);
        if self.counts.len() <= i {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
        self.n += 1;
        self.max_ms = self.max_ms.max(wait_ms);
    }

    /// Waits recorded.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// True if no wait was recorded.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The longest wait, in whole milliseconds (0 with none).
    pub fn max_ms(&self) -> u64 {
        self.max_ms
    }

    /// The `per_cent`th percentile (1 to 100), in whole milliseconds, by the rule in the
    /// type's description (0 with no waits).
    pub fn percentile_ms(&self, per_cent: u64) -> u64 {
        assert!(
            (1..=100).contains(&per_cent),
            "a percentile is 1 to 100, not {per_cent}"
        );
        let rank = (self.n * per_cent).div_ceil(100);
        if rank == 0 {
            return 0;
        }
        let mut seen = 0;
        for (i, &count) in self.counts.iter().enumerate() {
            seen += u64::from(count);
            if seen >= rank {
                return highest(i).min(self.max_ms);
            }
        }
        unreachable!("the counts add up to every wait recorded")
    }

    /// Bytes the histogram holds on the heap now.
    pub fn heap_bytes(&self) -> usize {
        self.counts.capacity() * std::mem::size_of::<u32>()
    }
}

/// The bucket `value_ms` falls in.
fn bucket(value_ms: u64) -> usize {
    if value_ms < EXACT_MS {
        return value_ms as usize;
    }
    let e = 63 - value_ms.leading_zeros(); // ≥ EXACT_BITS
    let shift = e + 1 - EXACT_BITS; // ≥ 1
    let top = value_ms >> shift; // in [HALF, EXACT_MS)
    (EXACT_MS + u64::from(shift - 1) * HALF + (top - HALF)) as usize
}

/// The highest value bucket `i` holds.
fn highest(i: usize) -> u64 {
    let i = i as u64;
    if i < EXACT_MS {
        return i;
    }
    let k = i - EXACT_MS;
    let shift = k / HALF + 1;
    let top = k % HALF + HALF;
    (top << shift) | ((1 << shift) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nearest-rank percentile of `values`, by sorting them all.
    fn brute(values: &[u64], per_cent: u64) -> u64 {
        let mut v = values.to_vec();
        v.sort_unstable();
        let rank = (v.len() as u64 * per_cent).div_ceil(100);
        v[rank as usize - 1]
    }

    fn of(values: &[u64]) -> Waits {
        let mut w = Waits::default();
        for &v in values {
            w.add_ms(v);
        }
        w
    }

    #[test]
    fn buckets_cover_every_value_in_order_and_are_narrow() {
        let mut edges = vec![0, 1, 2, 1_022, 1_023, 1_024, 1_025, 2_047, 2_048, 4_095];
        edges.extend([60_000, 86_400_000, u64::MAX / 2, u64::MAX - 1, u64::MAX]);
        for v in (0..70_000).chain(edges) {
            let i = bucket(v);
            let top = highest(i);
            assert!(v <= top, "{v} is above its bucket's top {top}");
            assert!(i == 0 || highest(i - 1) < v, "{v} belongs below bucket {i}");
            assert!(top - v <= v / 512, "{v}: bucket up to {top} is too wide");
            if v < 1_024 {
                assert_eq!(top, v, "exact below 1,024 ms");
            }
        }
        assert_eq!(
            bucket(u64::MAX),
            1_024 + 53 * 512 + 511,
            "28,672 buckets at most"
        );
    }

    #[test]
    fn small_waits_are_exact_percentiles() {
        // A spread of waits below 1,024 ms, in a scrambled order.
        let values: Vec<u64> = (0..997u64).map(|i| (i * 389 + 17) % 1_013).collect();
        let w = of(&values);
        for p in [1, 10, 50, 90, 99, 100] {
            assert_eq!(w.percentile_ms(p), brute(&values, p), "p{p}");
        }
        assert_eq!(w.max_ms(), *values.iter().max().unwrap());
        assert_eq!(w.percentile_ms(100), w.max_ms());
    }

    #[test]
    fn large_waits_are_within_a_512th() {
        let values: Vec<u64> = (0..20_011u64)
            .map(|i| (i * 7_919 * 7_919 + 3) % 40_000_000)
            .collect();
        let w = of(&values);
        for p in [1, 25, 50, 75, 90, 99, 100] {
            let (got, want) = (w.percentile_ms(p), brute(&values, p));
            assert!(
                want <= got && got - want <= want / 512,
                "p{p}: {got} vs {want}"
            );
        }
        assert_eq!(w.max_ms(), *values.iter().max().unwrap());
        // 40,000 s needs buckets up to 2^26 ms: 1,024 + 16 × 512 of them, 4 bytes each.
        assert!(
            w.heap_bytes() <= (1_024 + 16 * 512) * 4 * 2,
            "{}",
            w.heap_bytes()
        );
    }

    #[test]
    fn everyone_at_once_and_nobody_at_all() {
        let w = of(&[12_942; 1_000]);
        assert_eq!(
            (w.percentile_ms(50), w.percentile_ms(99), w.max_ms()),
            (12_942, 12_942, 12_942),
            "clamped to the maximum, not the bucket's top"
        );
        let none = Waits::default();
        assert!(none.is_empty());
        assert_eq!((none.percentile_ms(50), none.max_ms()), (0, 0));
    }

    #[test]
    fn one_wait_in_a_hundred_sets_the_99th_percentile() {
        // 100 waits: the 99th by rank is the second highest.
        let mut values = vec![5; 98];
        values.extend([700, 900]);
        let w = of(&values);
        assert_eq!(
            (w.percentile_ms(50), w.percentile_ms(99), w.max_ms()),
            (5, 700, 900)
        );
        values.push(1); // 101 waits: rank ceil(99.99) = 100, the second highest still
        assert_eq!(of(&values).percentile_ms(99), 700);
    }

    #[test]
    fn waits_start_at_arrival_and_round_down() {
        let mut w = Waits::default();
        w.add(0, 1_999);
        w.add(2_000, 3_000);
        assert_eq!((w.len(), w.max_ms(), w.percentile_ms(50)), (2, 1, 1));
    }
}

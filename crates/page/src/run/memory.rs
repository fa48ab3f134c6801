//! Whether a tab can hold a run, said before it starts. A run's memory grows with its
//! customers: each has a state, and a strategy that sends every charge at once has all of
//! them in flight. The figures are the most a run held in the browser, measured in the
//! simulation worker (a WebAssembly memory only grows, so its size after a run is its
//! peak), for every strategy at 1, 2, 5 and 10 million customers
//! (docs/sizes-and-speeds.md, "Memory"):
//!
//! | strategy | bytes per customer |
//! |---|---|
//! | naive (every charge in flight at once) | 129 at 1M, 168 at 5M and 10M |
//! | every other strategy | 60 to 78 |
//!
//! The estimate rounds those up; a run is refused when it is over what the tab should
//! take: a 32-bit WebAssembly memory ends at 4 GiB, and where the browser says how much
//! memory the device has (`navigator.deviceMemory`, which Chromium rounds down and caps at
//! 8 GiB), a quarter of that, leaving the rest to the system and the other tabs.

use crate::limits::memory::megabytes;
use crate::shared::format::count;
use crate::shared::words::Words;
use sim::{Scenario, StrategyName};
use std::fmt;

/// What a run holds beside its customers: the module, its stack and the page's own
/// state, rounded up.
pub const BASE_BYTES: u64 = 16 << 20;

/// The most a 32-bit WebAssembly memory can hold.
pub const WASM32_MAX_BYTES: u64 = 4 << 30;

/// The share of a device's memory a run may take: one part in this many.
pub const DEVICE_SHARE: u64 = 4;

/// The bytes one customer costs a run of `strategy`, rounded up from what was measured.
pub const fn bytes_per_customer(strategy: StrategyName) -> u64 {
    match strategy {
        StrategyName::Naive => 170,
        _ => 80,
    }
}

/// What traffic that keeps arriving adds per customer: its arrival time, kept for the
/// run (`sim::traffic::Arrivals`, one `u64` each).
pub const ARRIVAL_BYTES: u64 = std::mem::size_of::<u64>() as u64;

/// The most memory a run of `scenario` is expected to hold in the browser.
pub fn run_bytes(scenario: &Scenario) -> u64 {
    let arrival = if scenario.traffic.is_batch() {
        0
    } else {
        ARRIVAL_BYTES
    };
    BASE_BYTES + u64::from(scenario.customers) * (bytes_per_customer(scenario.strategy) + arrival)
}

/// The most a run may hold in this tab: the WebAssembly limit, or a quarter of the
/// device's memory (`device_gib`, as `navigator.deviceMemory` gives it) if less.
pub fn tab_bytes(device_gib: Option<f64>) -> u64 {
    let device = device_gib
        .filter(|g| g.is_finite() && *g > 0.0)
        .map(|g| (g * f64::from(1u32 << 30)) as u64 / DEVICE_SHARE);
    device.map_or(WASM32_MAX_BYTES, |d| d.min(WASM32_MAX_BYTES))
}

/// A run the tab should not try to hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TooMuchMemory {
    /// The run's strategy.
    pub strategy: StrategyName,
    /// Its customers.
    pub customers: u32,
    /// What it is expected to hold ([`run_bytes`]).
    pub needs_bytes: u64,
    /// What the tab may give it ([`tab_bytes`]).
    pub allowed_bytes: u64,
    /// The device's memory, if the browser says.
    pub device_gib: Option<f64>,
}

/// Checks, before a run starts, that the tab can hold it.
pub fn check(scenario: &Scenario, device_gib: Option<f64>) -> Result<(), TooMuchMemory> {
    let (needs_bytes, allowed_bytes) = (run_bytes(scenario), tab_bytes(device_gib));
    if needs_bytes <= allowed_bytes {
        return Ok(());
    }
    Err(TooMuchMemory {
        strategy: scenario.strategy,
        customers: scenario.customers,
        needs_bytes,
        allowed_bytes,
        device_gib,
    })
}

/// A device's memory as `navigator.deviceMemory` gives it, for people: "8", "0.5",
/// "0.25". Written with integers, as an `f64`'s own formatting would add kilobytes to
/// every page that can refuse a run.
fn gigabytes(gib: f64) -> String {
    let hundredths = (gib * 100.0 + 0.5) as u64;
    match hundredths % 100 {
        0 => (hundredths / 100).to_string(),
        h if h % 10 == 0 => format!("{}.{}", hundredths / 100, h / 10),
        h => format!("{}.{h:02}", hundredths / 100),
    }
}

impl Words for TooMuchMemory {
    fn words(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (needs, allowed) = (megabytes(self.needs_bytes), megabytes(self.allowed_bytes));
        write!(
            f,
            "{} customers of {} need about {needs} of memory, more than this tab should take ({allowed}",
            count(self.customers.into()),
            self.strategy
        )?;
        match self
            .device_gib
            .filter(|_| self.allowed_bytes < WASM32_MAX_BYTES)
        {
            Some(gib) => write!(f, ": a quarter of this device's {} GB)", gigabytes(gib))?,
            None => write!(f, ", the most a WebAssembly memory holds)")?,
        }
        write!(
            f,
            ". Lower “customers”, or run it with the command line, which has no such limit."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(strategy: StrategyName, customers: u32) -> Scenario {
        Scenario {
            strategy,
            customers,
            ..Scenario::default()
        }
    }

    #[test]
    fn a_run_is_refused_only_over_a_quarter_of_the_device_or_the_wasm_limit() {
        let keyed = run(StrategyName::Keyed, 10_000_000);
        let naive = run(StrategyName::Naive, 10_000_000);
        // 10M keyed: 16 MiB + 800 MB, about 817 MB.
        assert_eq!(run_bytes(&keyed), (16 << 20) + 800_000_000);
        // Arriving over time, each customer's arrival is kept as well.
        let mut steady = keyed.clone();
        steady.traffic.shape = sim::traffic::Traffic::Steady;
        assert_eq!(run_bytes(&steady), (16 << 20) + 880_000_000);
        assert_eq!(
            check(&keyed, None),
            Ok(()),
            "no device figure: the wasm limit"
        );
        assert_eq!(check(&keyed, Some(8.0)), Ok(()), "2 GiB allowed");
        assert_eq!(check(&keyed, Some(4.0)), Ok(()), "1 GiB allowed");
        assert!(check(&keyed, Some(2.0)).is_err(), "512 MiB allowed");
        assert!(check(&naive, Some(4.0)).is_err(), "1.7 GB against 1 GiB");
        assert_eq!(check(&naive, Some(8.0)), Ok(()));
        assert_eq!(
            check(&run(StrategyName::Keyed, 5_000_000), Some(2.0)),
            Ok(())
        );
        // The page's own runs, up to a million, fit any device Chromium reports but the
        // smallest.
        for strategy in StrategyName::ALL {
            assert_eq!(
                check(&run(strategy, 1_000_000), Some(1.0)),
                Ok(()),
                "{strategy}"
            );
        }
        // A figure that is no figure is ignored; the wasm limit always holds.
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(tab_bytes(Some(bad)), WASM32_MAX_BYTES, "{bad}");
        }
        assert_eq!(tab_bytes(Some(64.0)), WASM32_MAX_BYTES);
        assert_eq!(tab_bytes(Some(0.25)), 64 << 20);
    }

    #[test]
    fn a_devices_memory_is_written_as_the_browser_gives_it() {
        let said: Vec<String> = [0.25, 0.5, 1.0, 2.0, 8.0, 1.75].map(gigabytes).to_vec();
        assert_eq!(said, ["0.25", "0.5", "1", "2", "8", "1.75"]);
    }

    #[test]
    fn the_refusal_says_what_the_run_needs_what_the_tab_gives_and_what_to_do() {
        let naive = run(StrategyName::Naive, 10_000_000);
        let e = check(&naive, Some(4.0)).unwrap_err();
        assert_eq!(
            e.sentence(),
            "10,000,000 customers of naive need about 1,716.8 MB of memory, more than this \
             tab should take (1,073.7 MB: a quarter of this device's 4 GB). Lower \
             “customers”, or run it with the command line, which has no such limit."
        );
        // Without a device figure, the limit is WebAssembly's.
        let huge = TooMuchMemory {
            device_gib: None,
            allowed_bytes: WASM32_MAX_BYTES,
            ..e
        };
        assert!(huge
            .sentence()
            .contains("(4,295.0 MB, the most a WebAssembly memory holds)"));
    }
}

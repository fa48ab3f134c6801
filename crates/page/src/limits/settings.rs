//! The numbers a reader can move in the limits experiments: one knob per number, with
//! its URL key (which is also its `ratelab limits` flag), its label, its range and its
//! default. The URL, the command line and the page's sliders all read values through
//! [`Knob::parse`], so a value out of range gets the same sentence at every door, and
//! [`LabSettings`] turns the values into each experiment's parameters for the core.

use crate::shared::format::count;
use crate::shared::words::Words;
use sim::fleet::measure::{self as fleet, FleetParams, MAX_BURST};
use sim::fleet::setup::{Balancer, FleetMode, MAX_INSTANCES, MAX_RTT_US};
use sim::lab::burst::BurstParams;
use sim::lab::clients::ClientsParams;
use sim::lab::herd::{HerdParams, Jitter};
use sim::lab::memory::MemoryParams;
use sim::lab::neighbour::NeighbourParams;
use sim::lab::units::UnitsParams;
use sim::lab::{burst, clients, herd, memory, neighbour, units};
use sim::lab::{ExperimentName, LabResult};
use sim::limiter::{LimiterKind, Policy};
use sim::time::{ms, secs};

/// Which number a knob moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnobId {
    /// Burst: how long before the window boundary the first volley starts.
    BurstOffset,
    /// Burst: from the first volley's start to the second's.
    BurstGap,
    /// Units: the wait every header means.
    UnitsWait,
    /// Clients: calls the worker must complete.
    ClientsCalls,
    /// Clients: the server's limit per second (and its bucket's size).
    ClientsLimit,
    /// Clients: how the blind client retries after a 429.
    BlindRetry,
    /// Neighbour: requests the noisy caller sends.
    NoisyRequests,
    /// Neighbour: how many quiet callers there are.
    QuietCallers,
    /// Memory: callers remembered.
    MemoryCallers,
    /// Memory: requests per caller per window.
    MemoryPerWindow,
    /// Herd: the jitter drawn beside none.
    HerdJitter,
    /// Herd: clients refused at once.
    HerdClients,
    /// Fleet: how many instances.
    FleetInstances,
    /// Fleet: how the balancer spreads requests.
    FleetBalancer,
    /// Fleet: how each instance holds the limit.
    FleetMode,
    /// Fleet: the store's round trip, or a hop's.
    FleetRtt,
    /// Fleet: the limiter.
    FleetLimiter,
    /// Fleet: requests in each burst.
    FleetBurst,
}

/// The values a knob takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// A whole number from `min` to `max`; a slider moves it one by one.
    Linear {
        /// The least.
        min: u64,
        /// The most.
        max: u64,
    },
    /// A whole number from `min` to `max` spanning powers of ten; a slider moves it
    /// along 1, 2, 5, 10, 20, 50 … (any number in range can still be typed in a URL).
    Decades {
        /// The least.
        min: u64,
        /// The most.
        max: u64,
    },
    /// One of these names; the value is its index.
    Choice(&'static [&'static str]),
}

/// One number a reader can move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knob {
    /// Which.
    pub id: KnobId,
    /// Its URL key and `ratelab limits` flag, e.g. `burstGapMs`.
    pub key: &'static str,
    /// The experiment it belongs to.
    pub experiment: ExperimentName,
    /// Its label on the page.
    pub label: &'static str,
    /// Its unit, "" for none.
    pub unit: &'static str,
    /// The values it takes.
    pub range: Range,
    /// The article's value (for a choice, the index).
    pub default: u64,
}

/// How the blind client retries: the names of [`KnobId::BlindRetry`]'s two values.
pub const BLIND_RETRY: [&str; 2] = ["now", "1ms"];

/// The quiet callers' names, in arrival order after the noisy one.
pub const QUIET_CALLERS: [&str; 8] = [
    "bakery", "clinic", "dentist", "florist", "grocer", "joiner", "kiosk", "laundry",
];

/// The noisy caller's name.
pub const NOISY_CALLER: &str = "acme";

/// Requests each quiet caller sends.
pub const QUIET_REQUESTS: u32 = 3;

/// Every knob, in the order of [`KnobId`].
pub const KNOBS: [Knob; 18] = [
    Knob {
        id: KnobId::BurstOffset,
        key: "burstOffsetMs",
        experiment: ExperimentName::Burst,
        label: "First volley, before the boundary",
        unit: "ms",
        range: Range::Linear { min: 5, max: 1_000 },
        default: 150,
    },
    Knob {
        id: KnobId::BurstGap,
        key: "burstGapMs",
        experiment: ExperimentName::Burst,
        label: "Gap to the second volley",
        unit: "ms",
        range: Range::Linear { min: 5, max: 1_500 },
        default: 170,
    },
    Knob {
        id: KnobId::UnitsWait,
        key: "unitsWaitS",
        experiment: ExperimentName::Units,
        label: "The wait every header means",
        unit: "s",
        range: Range::Decades {
            min: 1,
            max: 86_400,
        },
        default: 120,
    },
    Knob {
        id: KnobId::ClientsCalls,
        key: "clientsCalls",
        experiment: ExperimentName::Clients,
        label: "Calls to make",
        unit: "calls",
        range: Range::Linear { min: 1, max: 100 },
        default: 40,
    },
    Knob {
        id: KnobId::ClientsLimit,
        key: "clientsLimit",
        experiment: ExperimentName::Clients,
        label: "Limit (a bucket of this many, refilled per second)",
        unit: "per second",
        range: Range::Linear { min: 2, max: 50 },
        default: 10,
    },
    Knob {
        id: KnobId::BlindRetry,
        key: "blindRetry",
        experiment: ExperimentName::Clients,
        label: "The blind client retries",
        unit: "",
        range: Range::Choice(&BLIND_RETRY),
        default: 0,
    },
    Knob {
        id: KnobId::NoisyRequests,
        key: "noisyRequests",
        experiment: ExperimentName::Neighbour,
        label: "The noisy caller's requests",
        unit: "requests",
        range: Range::Linear { min: 1, max: 200 },
        default: 40,
    },
    Knob {
        id: KnobId::QuietCallers,
        key: "quietCallers",
        experiment: ExperimentName::Neighbour,
        label: "Quiet callers (3 requests each)",
        unit: "callers",
        range: Range::Linear { min: 1, max: 8 },
        default: 2,
    },
    Knob {
        id: KnobId::MemoryCallers,
        key: "memoryCallers",
        experiment: ExperimentName::Memory,
        label: "Callers",
        unit: "callers",
        range: Range::Decades {
            min: 1,
            max: 10_000_000,
        },
        default: 10_000,
    },
    Knob {
        id: KnobId::MemoryPerWindow,
        key: "memoryPerWindow",
        experiment: ExperimentName::Memory,
        label: "Requests per caller per window",
        unit: "requests",
        range: Range::Decades {
            min: 1,
            max: 100_000,
        },
        default: 1_000,
    },
    Knob {
        id: KnobId::HerdJitter,
        key: "herdJitter",
        experiment: ExperimentName::Herd,
        label: "Jitter",
        unit: "",
        range: Range::Choice(&Jitter::NAMES),
        default: Jitter::Full as u64,
    },
    Knob {
        id: KnobId::HerdClients,
        key: "herdClients",
        experiment: ExperimentName::Herd,
        label: "Clients refused at once",
        unit: "clients",
        range: Range::Linear { min: 1, max: 1_000 },
        default: 100,
    },
    Knob {
        id: KnobId::FleetInstances,
        key: "fleetInstances",
        experiment: ExperimentName::Fleet,
        label: "Instances",
        unit: "instances",
        range: Range::Linear {
            min: 1,
            max: MAX_INSTANCES as u64,
        },
        default: 4,
    },
    Knob {
        id: KnobId::FleetBalancer,
        key: "fleetBalancer",
        experiment: ExperimentName::Fleet,
        label: "Balancer",
        unit: "",
        range: Range::Choice(&Balancer::NAMES),
        default: Balancer::RoundRobin as u64,
    },
    Knob {
        id: KnobId::FleetMode,
        key: "fleetMode",
        experiment: ExperimentName::Fleet,
        label: "Each instance holds the limit",
        unit: "",
        range: Range::Choice(&FleetMode::NAMES),
        default: FleetMode::Atomic as u64,
    },
    Knob {
        id: KnobId::FleetRtt,
        key: "fleetRttUs",
        experiment: ExperimentName::Fleet,
        label: "Round trip to the store (or to the owner)",
        unit: "µs",
        range: Range::Decades {
            min: 1,
            max: MAX_RTT_US,
        },
        default: 1_000,
    },
    Knob {
        id: KnobId::FleetLimiter,
        key: "fleetLimiter",
        experiment: ExperimentName::Fleet,
        label: "Limiter",
        unit: "",
        range: Range::Choice(&LimiterKind::NAMES),
        default: LimiterKind::Bucket as u64,
    },
    Knob {
        id: KnobId::FleetBurst,
        key: "fleetBurst",
        experiment: ExperimentName::Fleet,
        label: "Requests per burst (each volley, and the noisy caller's)",
        unit: "requests",
        range: Range::Linear {
            min: 1,
            max: MAX_BURST as u64,
        },
        default: 40,
    },
];

/// The knob with this URL key or flag name.
pub fn knob(key: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.key == key)
}

/// The knobs of one experiment, in page order.
pub fn knobs_of(experiment: ExperimentName) -> impl Iterator<Item = &'static Knob> {
    KNOBS.iter().filter(move |k| k.experiment == experiment)
}

impl Knob {
    /// The value of `text`, or what is wrong with it, as a sentence naming the knob.
    pub fn parse(&self, text: &str) -> Result<u64, String> {
        let t = text.trim();
        match self.range {
            Range::Choice(names) => names
                .iter()
                .position(|n| *n == t)
                .map(|i| i as u64)
                .ok_or_else(|| {
                    format!(
                        "{} ({}): '{}' is not one of {}.",
                        self.label,
                        self.key,
                        crate::shown(t),
                        names.join(", ")
                    )
                }),
            Range::Linear { min, max } | Range::Decades { min, max } => {
                crate::parse_count(t, min, max).map_err(|why| {
                    format!(
                        "{} ({}): {why}{}.",
                        self.label,
                        self.key,
                        self.unit_suffix()
                    )
                })
            }
        }
    }

    /// Whether `v` is one of this knob's values (what [`Knob::parse`] can give).
    pub fn admits(&self, v: u64) -> bool {
        match self.range {
            Range::Choice(names) => v < names.len() as u64,
            Range::Linear { min, max } | Range::Decades { min, max } => (min..=max).contains(&v),
        }
    }

    /// " ms", or "" for a knob without a unit.
    fn unit_suffix(&self) -> String {
        match self.unit {
            "" => String::new(),
            u => format!(" {u}"),
        }
    }

    /// A value as the URL and the flag write it: a number, or a choice's name.
    pub fn value_text(&self, v: u64) -> String {
        match self.range {
            Range::Choice(names) => names.get(v as usize).copied().unwrap_or("").to_string(),
            _ => v.to_string(),
        }
    }

    /// A value for people, with its unit: "150 ms", "10,000 callers", "full".
    pub fn shown(&self, v: u64) -> String {
        match self.range {
            Range::Choice(_) => self.value_text(v),
            _ => format!("{}{}", count(v), self.unit_suffix()),
        }
    }

    /// "5–1000 ms", or the choices.
    pub fn range_text(&self) -> String {
        match self.range {
            Range::Choice(names) => names.join(" | "),
            Range::Linear { min, max } | Range::Decades { min, max } => {
                format!("{min}–{max}{}", self.unit_suffix())
            }
        }
    }

    /// The values a slider steps through, in order: every one for a linear knob is too
    /// many to list, so `None` there (the slider's own min, max and step 1 do it).
    pub fn stops(&self) -> Option<Vec<u64>> {
        let Range::Decades { min, max } = self.range else {
            return None;
        };
        let mut stops = Vec::new();
        let mut decade = 1u64;
        while decade <= max {
            for m in [1, 2, 5] {
                let v = decade * m;
                if (min..=max).contains(&v) {
                    stops.push(v);
                }
            }
            decade = decade.saturating_mul(10);
        }
        if stops.last() != Some(&max) {
            stops.push(max);
        }
        Some(stops)
    }

    /// The slider position of `v`: itself on a linear knob or a choice, the last stop not
    /// above it on a decades knob.
    pub fn position(&self, v: u64) -> u64 {
        match self.stops() {
            None => v,
            Some(stops) => stops
                .iter()
                .take_while(|&&s| s <= v)
                .count()
                .saturating_sub(1) as u64,
        }
    }

    /// The value at slider position `pos` (clamped to the slider's ends).
    pub fn at_position(&self, pos: u64) -> u64 {
        match (self.stops(), self.range) {
            (Some(stops), _) => stops[(pos as usize).min(stops.len() - 1)],
            (None, Range::Linear { min, max }) => pos.clamp(min, max),
            (None, _) => pos.min(self.positions() - 1),
        }
    }

    /// The slider's (min, max) positions.
    pub fn slider(&self) -> (u64, u64) {
        match (self.stops(), self.range) {
            (Some(stops), _) => (0, stops.len() as u64 - 1),
            (None, Range::Linear { min, max }) => (min, max),
            (None, _) => (0, self.positions() - 1),
        }
    }

    /// How many values a choice has (1 for a number, which is not asked).
    fn positions(&self) -> u64 {
        match self.range {
            Range::Choice(names) => names.len() as u64,
            _ => 1,
        }
    }
}

/// Every knob's value: what the limits experiments run with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabSettings([u64; KNOBS.len()]);

impl Default for LabSettings {
    /// The article's setup.
    fn default() -> Self {
        Self(KNOBS.map(|k| k.default))
    }
}

impl LabSettings {
    /// A knob's value.
    pub fn get(&self, id: KnobId) -> u64 {
        self.0[id as usize]
    }

    /// Reads `text` into a knob; the knob's sentence if it cannot, leaving it as it was.
    pub fn read(&mut self, id: KnobId, text: &str) -> Result<(), String> {
        let v = KNOBS[id as usize].parse(text)?;
        self.0[id as usize] = v;
        Ok(())
    }

    /// Every knob's value, in [`KNOBS`]' order: what the page hands a module of its own
    /// that runs an experiment ([`LabSettings::from_values`] reads them back).
    pub fn values(&self) -> &[u64] {
        &self.0
    }

    /// The settings of [`LabSettings::values`], or `None` if they are not one value per
    /// knob, each in its range.
    pub fn from_values(values: &[u64]) -> Option<Self> {
        let values: [u64; KNOBS.len()] = values.try_into().ok()?;
        KNOBS
            .iter()
            .zip(values)
            .all(|(k, v)| k.admits(v))
            .then_some(Self(values))
    }

    /// The same settings with one knob at slider position `pos`.
    pub fn with_position(&self, id: KnobId, pos: u64) -> Self {
        let mut next = self.clone();
        next.0[id as usize] = KNOBS[id as usize].at_position(pos);
        next
    }

    /// The knobs that differ from the article's.
    pub fn changed(&self) -> impl Iterator<Item = &'static Knob> + '_ {
        KNOBS.iter().filter(|k| self.get(k.id) != k.default)
    }

    /// A knob's value as its URL key and flag write it.
    pub fn text(&self, id: KnobId) -> String {
        KNOBS[id as usize].value_text(self.get(id))
    }

    /// The burst's parameters.
    pub fn burst(&self) -> BurstParams {
        BurstParams {
            before_us: ms(self.get(KnobId::BurstOffset)),
            gap_us: ms(self.get(KnobId::BurstGap)),
            ..BurstParams::default()
        }
    }

    /// The units experiment's parameters.
    pub fn units(&self) -> UnitsParams {
        UnitsParams {
            wait_s: self.get(KnobId::UnitsWait),
            ..UnitsParams::default()
        }
    }

    /// The clients experiment's parameters: the limit is both the bucket's size and
    /// its refill per second.
    pub fn clients(&self) -> ClientsParams {
        let limit = self.get(KnobId::ClientsLimit) as u32;
        ClientsParams {
            calls: self.get(KnobId::ClientsCalls) as u32,
            capacity: limit,
            policy: Policy {
                limit,
                window_us: secs(1),
            },
            blind_pause_us: if self.get(KnobId::BlindRetry) == 0 {
                0
            } else {
                ms(1)
            },
            ..ClientsParams::default()
        }
    }

    /// The neighbour experiment's parameters: the noisy caller first, then the quiet ones.
    pub fn neighbour(&self) -> NeighbourParams {
        let quiet = self.get(KnobId::QuietCallers) as usize;
        let mut callers = vec![(
            NOISY_CALLER.to_string(),
            self.get(KnobId::NoisyRequests) as u32,
        )];
        callers.extend(
            QUIET_CALLERS
                .iter()
                .take(quiet)
                .map(|name| (name.to_string(), QUIET_REQUESTS)),
        );
        NeighbourParams {
            callers,
            ..NeighbourParams::default()
        }
    }

    /// The memory experiment's parameters.
    pub fn memory(&self) -> MemoryParams {
        MemoryParams {
            callers: self.get(KnobId::MemoryCallers) as u32,
            per_window: self.get(KnobId::MemoryPerWindow) as u32,
            ..MemoryParams::default()
        }
    }

    /// The herd's parameters.
    pub fn herd(&self) -> HerdParams {
        HerdParams {
            clients: self.get(KnobId::HerdClients) as u32,
            jitter: Jitter::ALL[self.get(KnobId::HerdJitter) as usize],
            ..HerdParams::default()
        }
    }
}

impl LabSettings {
    /// The fleet's parameters.
    pub fn fleet(&self) -> FleetParams {
        FleetParams {
            limiter: LimiterKind::ALL[self.get(KnobId::FleetLimiter) as usize],
            instances: self.get(KnobId::FleetInstances) as u32,
            balancer: Balancer::ALL[self.get(KnobId::FleetBalancer) as usize],
            mode: FleetMode::ALL[self.get(KnobId::FleetMode) as usize],
            rtt_us: self.get(KnobId::FleetRtt),
            burst: self.get(KnobId::FleetBurst) as u32,
            ..FleetParams::default()
        }
    }
}

/// Runs one experiment with these settings and `seed`; the core's refusal as a
/// sentence. (Every knob in range gives parameters the core accepts; a run the core
/// calls off, such as a client that never finishes, still says why.)
pub fn run(name: ExperimentName, seed: u64, s: &LabSettings) -> Result<LabResult, String> {
    fn e(error: &impl Words) -> String {
        error.sentence()
    }
    Ok(match name {
        ExperimentName::Burst => LabResult::Burst(burst::run(&s.burst(), seed).map_err(|x| e(&x))?),
        ExperimentName::Units => LabResult::Units(units::run(&s.units()).map_err(|x| e(&x))?),
        ExperimentName::Clients => {
            LabResult::Clients(clients::run(&s.clients(), seed).map_err(|x| e(&x))?)
        }
        ExperimentName::Neighbour => {
            LabResult::Neighbour(neighbour::run(&s.neighbour(), seed).map_err(|x| e(&x))?)
        }
        ExperimentName::Memory => LabResult::Memory(memory::run(&s.memory()).map_err(|x| e(&x))?),
        ExperimentName::Herd => LabResult::Herd(herd::run(&s.herd(), seed).map_err(|x| e(&x))?),
        ExperimentName::Fleet => LabResult::Fleet(fleet::run(&s.fleet(), seed).map_err(|x| e(&x))?),
    })
}

/// [`run`] for the page, whose knobs cannot leave their ranges, so the core never
/// refuses them (a test runs every knob at both ends). Should it all the same, the page
/// names the command that prints the core's sentence, rather than carrying every error's
/// sentence in its module (about 2.4 KB gzip).
///
/// The fleet is not run here: the limits page draws it with a module of its own
/// ([`super::fleet::draw_on_page`]), so the page's module carries none of its engine.
pub fn run_on_page(name: ExperimentName, seed: u64, s: &LabSettings) -> Result<LabResult, String> {
    let shown = |r: Option<LabResult>| r.ok_or_else(|| cannot_run(name, seed));
    match name {
        ExperimentName::Burst => shown(burst::run(&s.burst(), seed).ok().map(LabResult::Burst)),
        ExperimentName::Units => shown(units::run(&s.units()).ok().map(LabResult::Units)),
        ExperimentName::Clients => shown(
            clients::run(&s.clients(), seed)
                .ok()
                .map(LabResult::Clients),
        ),
        ExperimentName::Neighbour => shown(
            neighbour::run(&s.neighbour(), seed)
                .ok()
                .map(LabResult::Neighbour),
        ),
        ExperimentName::Memory => shown(memory::run(&s.memory()).ok().map(LabResult::Memory)),
        ExperimentName::Herd => shown(herd::run(&s.herd(), seed).ok().map(LabResult::Herd)),
        ExperimentName::Fleet => Err(FLEET_ELSEWHERE.to_owned()),
    }
}

/// What [`run_on_page`] says if asked for the fleet, which it never runs.
pub const FLEET_ELSEWHERE: &str = "The fleet is drawn by a module of its own.";

/// The page's sentence for settings the core refused: the command that says why.
pub fn cannot_run(name: ExperimentName, seed: u64) -> String {
    format!("These settings cannot run; `ratelab limits {name} --seed {seed}` with them says why.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::lab;

    #[test]
    fn knobs_are_in_id_order_with_unique_keys_and_defaults_in_range() {
        for (i, k) in KNOBS.iter().enumerate() {
            assert_eq!(k.id as usize, i, "{}", k.key);
            assert_eq!(knob(k.key), Some(k));
            assert_eq!(
                k.parse(&k.value_text(k.default)),
                Ok(k.default),
                "{}",
                k.key
            );
            assert!(crate::shared::params::PARAMS.iter().all(|p| p.key != k.key));
        }
        for e in ExperimentName::ALL {
            assert!(knobs_of(e).count() >= 1, "{e} has a control");
        }
    }

    #[test]
    fn the_defaults_are_the_articles_experiments() {
        let s = LabSettings::default();
        for name in ExperimentName::ALL {
            assert_eq!(run(name, 3, &s), Ok(lab::run(name, 3)), "{name}");
            let on_page = run_on_page(name, 3, &s);
            match name {
                ExperimentName::Fleet => assert_eq!(on_page, Err(FLEET_ELSEWHERE.to_owned())),
                _ => assert_eq!(on_page, run(name, 3, &s), "{name}"),
            }
        }
        assert_eq!(s.changed().count(), 0);
    }

    #[test]
    fn out_of_range_values_get_a_sentence_naming_the_knob() {
        let mut s = LabSettings::default();
        assert_eq!(
            s.read(KnobId::BurstGap, "5000"),
            Err("Gap to the second volley (burstGapMs): 5000 is outside 5–1500 ms.".into())
        );
        assert_eq!(
            s.read(KnobId::HerdJitter, "some"),
            Err(
                "Jitter (herdJitter): 'some' is not one of none, full, equal, decorrelated.".into()
            )
        );
        assert!(s
            .read(KnobId::HerdClients, "-3")
            .unwrap_err()
            .contains("not a whole number"));
        assert_eq!(s, LabSettings::default(), "a refused value changes nothing");
        s.read(KnobId::BlindRetry, "1ms").unwrap();
        assert_eq!(s.clients().blind_pause_us, ms(1));
        assert_eq!(s.text(KnobId::BlindRetry), "1ms");
    }

    #[test]
    fn every_corner_of_every_range_runs() {
        for k in &KNOBS {
            let (lo, hi) = k.slider();
            for pos in [lo, hi] {
                let s = LabSettings::default().with_position(k.id, pos);
                assert!(run(k.experiment, 1, &s).is_ok(), "{} at {pos}", k.key);
            }
        }
        // The slowest corner of the clients: the most calls against the lowest limit.
        let mut s = LabSettings::default();
        s.read(KnobId::ClientsCalls, "100").unwrap();
        s.read(KnobId::ClientsLimit, "2").unwrap();
        assert!(run(ExperimentName::Clients, 1, &s).is_ok());
    }

    #[test]
    fn decades_step_one_two_five() {
        let k = &KNOBS[KnobId::UnitsWait as usize];
        let stops = k.stops().unwrap();
        assert_eq!(&stops[..5], &[1, 2, 5, 10, 20]);
        assert_eq!(stops.last(), Some(&86_400));
        assert_eq!(k.at_position(k.position(120)), 100);
        assert_eq!(k.position(86_400), stops.len() as u64 - 1);
        let m = &KNOBS[KnobId::MemoryCallers as usize];
        assert_eq!(m.stops().unwrap().last(), Some(&10_000_000));
    }

    #[test]
    fn the_knobs_reach_the_core() {
        let mut s = LabSettings::default();
        s.read(KnobId::QuietCallers, "5").unwrap();
        s.read(KnobId::NoisyRequests, "7").unwrap();
        let Ok(LabResult::Neighbour(r)) = run(ExperimentName::Neighbour, 1, &s) else {
            panic!("neighbour runs");
        };
        assert_eq!(r.global.tallies.len(), 6);
        assert_eq!(r.global.tallies[0].caller, "acme");
        assert_eq!(r.global.marks.len(), 7 + 5 * 3);
        s.read(KnobId::BurstOffset, "300").unwrap();
        s.read(KnobId::BurstGap, "100").unwrap();
        let Ok(LabResult::Burst(b)) = run(ExperimentName::Burst, 1, &s) else {
            panic!("burst runs");
        };
        assert_eq!(b.boundary_us - b.first_volley_us, ms(300));
        assert_eq!(b.second_volley_us - b.first_volley_us, ms(100));
    }
}

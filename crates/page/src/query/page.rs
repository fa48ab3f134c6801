//! What a page's URL asks for before any page reads it: the page, its section and view,
//! the speed and the motion.

sim::named_enum! {
    /// Playback speed: how simulated time maps to wall time.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Speed as "speed" {
        /// The whole run computed at once.
        Instant = "instant",
        /// Ten simulated seconds per wall second: the default, fast enough not to wait
        /// for, slow enough to watch the counters move.
        #[default]
        X10 = "10x",
        /// Real time: one simulated second per wall second.
        X1 = "1x",
        /// A tenth of real time: a burst's milliseconds become visible.
        X01 = "0.1x",
        /// A hundredth of real time: a naive burst's 17 ms take 1.7 s.
        X001 = "0.01x",
    }
}

impl Speed {
    /// A label for buttons.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Instant => "Instant",
            Speed::X10 => "10×",
            Speed::X1 => "1×",
            Speed::X01 => "0.1×",
            Speed::X001 => "0.01×",
        }
    }

    /// Simulated microseconds per wall millisecond, or `None` for instant.
    pub fn sim_us_per_wall_ms(self) -> Option<f64> {
        match self {
            Speed::Instant => None,
            Speed::X10 => Some(10_000.0),
            Speed::X1 => Some(1_000.0),
            Speed::X01 => Some(100.0),
            Speed::X001 => Some(10.0),
        }
    }
}

sim::named_enum! {
    /// The page's sections.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Section as "section" {
        /// Calling theirs: the charges and the client strategies.
        #[default]
        Charges = "charges",
        /// Publishing yours: limiters and the experiments.
        Limits = "limits",
        /// The headers between them: what a limiter tells callers, and how they read it.
        Headers = "headers",
    }
}

sim::named_enum! {
    /// The views of the charges section.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum View as "view" {
        /// One strategy, played back, with its timeline, customers and code.
        #[default]
        Run = "run",
        /// Every strategy on one seed, side by side.
        Compare = "compare",
        /// Many seeds, and each stat's distribution.
        Sweep = "sweep",
        /// Every strategy against every incident, from one seed.
        Matrix = "matrix",
        /// A client the reader writes, run in the sandbox on the simulated clock.
        Client = "client",
    }
}

/// The lab's pages. Each is built as a WebAssembly module of its own (docs/sizes-and-speeds.md):
/// `rate-limit-lab`, `rate-limit-lab-compare`, `-sweep`, `-matrix`, `-limits`, `-headers`,
/// `-client` and `-embed`, so a reader downloads only the page they open. `assets/loader.js` picks the module from the same
/// keys, and a module given another page's query shows its own page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The charges, one strategy played back: the first page most readers see.
    Run,
    /// Every strategy side by side.
    Compare,
    /// Many seeds, and each stat's distribution.
    Sweep,
    /// Every strategy against every incident.
    Matrix,
    /// Publishing a limit: limiters and the experiments.
    Limits,
    /// The headers a limiter sends, and a reader for them.
    Headers,
    /// The reader's own client: an editor, the sandbox, and the run it makes.
    Client,
    /// One widget, for an iframe (`embed=1`) or a `<div data-rate-limit-lab>`.
    Embed,
}

impl Page {
    /// The file a link to this page opens: each page has an HTML file of its own
    /// (`run.html`, `compare.html`, …), which is `index.html` with a hint in its head that
    /// starts this page's module at once, rather than after the loader has read the link
    /// (docs/sizes-and-speeds.md, "Time to ready"; `scripts/entry-pages.mjs` writes them). A link into the
    /// guided walk is the exception ([`super::read::Query::href`]): the lab's bare address, whose
    /// `index.html` starts the walk's module. Given another page's link, a page's file
    /// opens that page's file instead (`assets/loader.js`).
    pub const fn entry_file(self) -> &'static str {
        match self {
            Page::Run => "run.html",
            Page::Compare => "compare.html",
            Page::Sweep => "sweep.html",
            Page::Matrix => "matrix.html",
            Page::Limits => "limits.html",
            Page::Headers => "headers.html",
            Page::Client => "client.html",
            Page::Embed => "embed.html",
        }
    }

    /// The page's WebAssembly module: the binary of `crates/web` that mounts it, and the
    /// shipped `<module>_bg.wasm` and `<module>.js`. A blog links these names, so they stay.
    pub const fn module(self) -> &'static str {
        match self {
            Page::Run => "rate-limit-lab",
            Page::Compare => "rate-limit-lab-compare",
            Page::Sweep => "rate-limit-lab-sweep",
            Page::Matrix => "rate-limit-lab-matrix",
            Page::Limits => "rate-limit-lab-limits",
            Page::Headers => "rate-limit-lab-headers",
            Page::Client => "rate-limit-lab-client",
            Page::Embed => "rate-limit-lab-embed",
        }
    }

    /// The one query key and value that ask for this page ([`super::base::Base::page`] reads
    /// them; `None` for the run page, which a query naming no page opens).
    pub const fn key(self) -> Option<(&'static str, &'static str)> {
        match self {
            Page::Run => None,
            Page::Compare => Some(("view", "compare")),
            Page::Sweep => Some(("view", "sweep")),
            Page::Matrix => Some(("view", "matrix")),
            Page::Limits => Some(("section", "limits")),
            Page::Headers => Some(("section", "headers")),
            Page::Client => Some(("view", "client")),
            Page::Embed => Some(("embed", "1")),
        }
    }

    /// Every page, in the order of the enum.
    pub const ALL: [Page; 8] = [
        Page::Run,
        Page::Compare,
        Page::Sweep,
        Page::Matrix,
        Page::Limits,
        Page::Headers,
        Page::Client,
        Page::Embed,
    ];
}

/// The module of the run page with its guided walk, which `tour=1` opens
/// (`run::tour::opens_walk`) in its own file, [`WALK_FILE`].
pub const WALK_MODULE: &str = "rate-limit-lab-tour";

/// The guided walk's own file, whose head starts [`WALK_MODULE`].
pub const WALK_FILE: &str = "walk.html";

/// The module of the lab's bare address (`index.html`): the run page and the opening
/// story (`run::opening`), without the walk, whose button opens [`WALK_FILE`]. The first
/// visit downloads the least it needs to show the story (docs/sizes-and-speeds.md).
pub const FIRST_MODULE: &str = "rate-limit-lab-first";

/// The lab's pages as `assets/loader.js` and `scripts/entry-pages.mjs` must treat them,
/// as JSON: for each page its module, its own file and the query key that asks for it,
/// then the bare address's module and the walk's. The browser tests read this table
/// (`tests/browser/fixtures/pages.json`, which a test holds equal to it) and check by
/// behaviour that each file and each link opens its page.
pub fn pages_json() -> String {
    let pages: Vec<serde_json::Value> = Page::ALL
        .iter()
        .map(|p| {
            serde_json::json!({
                "module": p.module(),
                "file": p.entry_file(),
                "key": p.key().map(|(k, v)| [k, v]),
            })
        })
        .collect();
    let table = serde_json::json!({
        "pages": pages,
        "first": { "module": FIRST_MODULE, "file": "index.html" },
        "walk": { "module": WALK_MODULE, "file": WALK_FILE },
    });
    serde_json::to_string_pretty(&table).expect("plain values serialise") + "\n"
}

sim::named_enum! {
    /// Whether the page animates: the reader's system setting, or the URL's override.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub enum Motion as "motion" {
        /// Follow the reader's `prefers-reduced-motion` setting.
        #[default]
        Auto = "auto",
        /// Animate playback, whatever the setting.
        On = "on",
        /// Never animate: runs play back instantly.
        Off = "off",
    }
}

impl Motion {
    /// True if the page may animate, given the reader's `prefers-reduced-motion`.
    pub fn animates(self, prefers_reduced_motion: bool) -> bool {
        match self {
            Motion::Auto => !prefers_reduced_motion,
            Motion::On => true,
            Motion::Off => false,
        }
    }
}

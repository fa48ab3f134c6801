//! `ratelab serve`: the provider and the limiters as a real local HTTP service, until
//! Ctrl-C or SIGTERM.

use crate::args::Args;
use crate::charges::{params_line, scenario_from_flags, scenario_from_query};
use ratelab::dist::Dist;
use ratelab::doors::{self, Bounds};
use ratelab::server::{serve, ServeConfig, Service, ENDPOINTS};
use ratelab::store::{RedisConfig, StoreConfig, StoreFail, StoreMode, StoreUrl};
use ratelab::DEFAULT_PORT;
use sim::limiter::Policy;
use sim::param::ParamGroup;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// Starts the server, prints where it listens, and when stopped prints the counters.
pub fn main(args: &Args) -> Result<String, String> {
    let scenario = match args.raw("query") {
        Some(text) => {
            if let Some(p) = args.first_given(|_| true) {
                return Err(format!(
                    "--query gives the provider's parameters; give --{} inside it instead",
                    p.key
                ));
            }
            let mut s = scenario_from_query(text)?;
            if !s.traffic.is_batch() {
                return Err(format!(
                    "traffic={}: the server answers whatever arrives; traffic over time runs only in the simulation",
                    s.traffic.shape
                ));
            }
            if s.round != sim::next_month::ChargeRound::First {
                return Err(format!(
                    "charge={}: the server answers whatever arrives; next month's run is the simulation's",
                    s.round
                ));
            }
            if let Some(seed) = args.get::<u64>("seed") {
                s.seed = seed;
            }
            s
        }
        None => {
            if let Some(p) = args.first_given(|p| p.group() == ParamGroup::Client) {
                return Err(format!(
                    "--{} is the client's: give it to `ratelab charges --http`; the server is the provider",
                    p.key
                ));
            }
            if let Some(p) = args.first_given(|p| p.group() == ParamGroup::Traffic) {
                return Err(format!(
                    "--{}: the server answers whatever arrives; traffic over time runs only in the simulation",
                    p.key
                ));
            }
            scenario_from_flags(args)?
        }
    };
    let limit = Policy {
        limit: args.get::<u32>("limit").unwrap_or(10),
        window_us: args.get::<u64>("window-ms").unwrap_or(1_000) * 1_000,
    };
    let bounds = Bounds {
        key_ttl: key_ttl(args, &scenario)?,
        ..bounds(args)
    };
    let dist = match args.raw("dist") {
        Some(path) => Some(Dist::open(std::path::Path::new(path))?),
        None => None,
    };
    let store = store_config(args)?;
    let files_limit = fit_open_files(bounds.max_connections)?;
    let config = ServeConfig {
        provider: scenario.provider.clone(),
        seed: scenario.seed,
        limit,
        bounds,
        dist: dist.clone(),
        store: store.clone(),
    };
    let host = args
        .get::<IpAddr>("host")
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let port = args.get::<u16>("port").unwrap_or(DEFAULT_PORT);
    let service = Service::new(config)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("could not start the async runtime: {e}"))?;
    let stats = runtime.block_on(async {
        let listener = doors::listen(SocketAddr::new(host, port))
            .map_err(|e| format!("could not listen on {host}:{port}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("could not read the address: {e}"))?;
        let stop = stop_signal()?;
        let params = params_line(&scenario);
        let mut out = format!(
            "ratelab serve: listening on http://{addr}   seed: {}   limiters: {} per {} ms\n{params}",
            scenario.seed,
            limit.limit,
            limit.window_us / 1_000
        );
        for (endpoint, what) in ENDPOINTS {
            out.push_str(&format!("  {endpoint:<14} {what}\n"));
        }
        if let Some(dist) = &dist {
            out.push_str(&format!(
                "  GET  /         the app, from {}\n",
                dist.root().display()
            ));
            if host.is_unspecified() {
                out.push_str("Open it from another machine at one of this machine's addresses, e.g.\n");
                for ip in lan_addresses() {
                    out.push_str(&format!("  http://{ip}:{}/\n", addr.port()));
                }
            }
        }
        out.push_str(&format!(
            "Bounds: {} connections ({files_limit} files open at most), header {} s, idle {} s, body {} s; {} keys kept {} s; {} callers per limiter\n",
            bounds.max_connections,
            bounds.header_timeout.as_secs(),
            bounds.idle_timeout.as_secs(),
            bounds.body_timeout.as_secs(),
            bounds.max_keys,
            bounds.key_ttl.as_secs(),
            bounds.max_callers,
        ));
        match (&store, service.store()) {
            (StoreConfig::Redis(redis), Some(s)) => {
                out.push_str(&format!(
                    "Limiters' state: in Redis at {} ({}, fail {}; each key expires on its own, the callers cap is for memory): ",
                    redis.url, redis.mode, redis.fail
                ));
                match s.load_scripts().await {
                    Ok(()) => out.push_str("reached, scripts loaded\n"),
                    Err(e) => out.push_str(&format!(
                        "it {e}; tried again at each request\n"
                    )),
                }
            }
            _ => out.push_str("Limiters' state: in this process (--store memory)\n"),
        }
        out.push_str("Ctrl-C stops it and prints the provider's counters.");
        println!("{out}");
        let _ = std::io::stdout().flush();
        serve(listener, service.clone(), stop)
            .await
            .map_err(|e| format!("the server stopped with an error: {e}"))
    })?;
    Ok(format!(
        "stopped; the provider's counters:\n{}",
        serde_json::to_string_pretty(&stats).expect("counters serialise")
    ))
}

/// Where the limiters' state lives, from `--store`, `--store-mode` and `--store-fail`.
fn store_config(args: &Args) -> Result<StoreConfig, String> {
    match args.get::<StoreUrl>("store") {
        Some(StoreUrl::Redis(url)) => Ok(StoreConfig::Redis(RedisConfig {
            url,
            mode: args.get::<StoreMode>("store-mode").unwrap_or_default(),
            fail: args.get::<StoreFail>("store-fail").unwrap_or_default(),
        })),
        _ => {
            for flag in ["store-mode", "store-fail"] {
                if args.given(flag) {
                    return Err(format!(
                        "--{flag} is for a store in Redis: give --store redis://HOST:PORT too"
                    ));
                }
            }
            Ok(StoreConfig::Memory)
        }
    }
}

/// The bounds from the flags, the defaults where not given.
fn bounds(args: &Args) -> Bounds {
    let d = Bounds::default();
    let secs = |id: &str, default: std::time::Duration| {
        args.get::<u64>(id)
            .map_or(default, std::time::Duration::from_secs)
    };
    let count = |id: &str, default: usize| {
        args.get::<u64>(id)
            .map_or(default, |n| usize::try_from(n).unwrap_or(usize::MAX))
    };
    Bounds {
        header_timeout: secs("header-timeout-s", d.header_timeout),
        idle_timeout: secs("idle-timeout-s", d.idle_timeout),
        body_timeout: secs("body-timeout-s", d.body_timeout),
        max_connections: count("max-connections", d.max_connections),
        max_keys: count("max-keys", d.max_keys),
        key_ttl: secs("key-ttl-s", d.key_ttl),
        max_callers: count("max-callers", d.max_callers),
    }
}

/// How long the server keeps a key: `--key-ttl-s`, or the provider's own `keyTtlS` (the
/// simulation's name for it), or a day. A server cannot keep keys for ever, so the
/// simulation's 0 is refused here.
fn key_ttl(args: &Args, scenario: &sim::Scenario) -> Result<std::time::Duration, String> {
    let flag = args.get::<u64>("key-ttl-s");
    let param = scenario.provider.key_ttl_us / 1_000_000;
    let given = args
        .first_given(|p| p.param == sim::Param::KeyTtl)
        .is_some()
        || scenario.provider.key_ttl_us != 0;
    match (flag, given) {
        (Some(_), true) => Err(
            "--key-ttl-s and keyTtlS both say how long a key is kept; give one".to_string(),
        ),
        (Some(s), false) => Ok(std::time::Duration::from_secs(s)),
        (None, true) if param == 0 => Err(
            "keyTtlS=0 keeps keys for as long as the simulation runs, which a server cannot: give 1 to 31536000 seconds".to_string(),
        ),
        (None, true) => Ok(std::time::Duration::from_secs(param)),
        (None, false) => Ok(Bounds::default().key_ttl),
    }
}

/// Files the server keeps open besides its connections: the listener, the runtime's
/// own, a file being served.
const SPARE_FILES: u64 = 64;

/// Raises this process's open-file limit to fit the connection cap, as far as the hard
/// limit allows (as Go's runtime raises it at start), so that the cap, not the limit,
/// is what a crowd meets. A cap the hard limit cannot fit gets a sentence. Returns the
/// limit now in force.
pub(crate) fn fit_open_files(max_connections: usize) -> Result<u64, String> {
    let needed = max_connections as u64 + SPARE_FILES;
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes one rlimit through a valid pointer.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
            return Ok(needed);
        }
        // rlim_t is 64 bits here and 32 on some targets.
        #[allow(clippy::useless_conversion)]
        let (soft, hard) = (u64::from(limit.rlim_cur), u64::from(limit.rlim_max));
        if soft >= needed {
            return Ok(soft);
        }
        if hard < needed {
            return Err(format!(
                "--max-connections {max_connections} needs {needed} open files and this process may open at most {hard} (ulimit -Hn); give --max-connections {} or less",
                hard.saturating_sub(SPARE_FILES).max(1)
            ));
        }
        limit.rlim_cur = libc::rlim_t::try_from(needed).unwrap_or(limit.rlim_max);
        // SAFETY: setrlimit reads one rlimit through a valid pointer.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
            return Err(format!(
                "--max-connections {max_connections} needs {needed} open files, and raising this process's limit from {soft} failed: {}",
                std::io::Error::last_os_error()
            ));
        }
        Ok(needed)
    }
    #[cfg(not(unix))]
    {
        Ok(needed)
    }
}

/// This machine's IPv4 addresses other than loopback, as `hostname -I` lists them.
fn lan_addresses() -> Vec<String> {
    std::process::Command::new("hostname")
        .arg("-I")
        .output()
        .ok()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .split_whitespace()
                .filter(|a| !a.contains(':'))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A future that completes on Ctrl-C (SIGINT) or SIGTERM. The handlers are in place
/// when this returns, before the address is printed, so a signal sent as soon as the
/// address appears stops the server cleanly rather than killing it.
fn stop_signal() -> Result<impl std::future::Future<Output = ()> + Send + 'static, String> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let listen = |kind| {
            signal(kind).map_err(|e| format!("could not listen for Ctrl-C and SIGTERM: {e}"))
        };
        let mut interrupt = listen(SignalKind::interrupt())?;
        let mut terminate = listen(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {},
                _ = terminate.recv() => {},
            }
            eprintln!("stopping: finishing the requests in flight…");
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
            eprintln!("stopping: finishing the requests in flight…");
        })
    }
}

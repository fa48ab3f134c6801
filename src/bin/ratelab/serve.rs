//! `ratelab serve`: the provider and the limiters as a real local HTTP service, until
//! Ctrl-C or SIGTERM.

use crate::args::Args;
use crate::charges::{params_line, scenario_from_flags, scenario_from_query};
use rate_limit_lab::net::server::{serve, ServeConfig, Service, ENDPOINTS};
use rate_limit_lab::net::DEFAULT_PORT;
use rate_limit_lab::page::PARAMS;
use rate_limit_lab::sim::limiter::Policy;
use rate_limit_lab::sim::param::ParamGroup;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// Starts the server, prints where it listens, and when stopped prints the counters.
pub fn main(args: &Args) -> Result<String, String> {
    let scenario = match args.raw("query") {
        Some(text) => {
            if let Some(p) = PARAMS.iter().find(|p| args.given(p.key)) {
                return Err(format!(
                    "--query gives the provider's parameters; give --{} inside it instead",
                    p.key
                ));
            }
            let mut s = scenario_from_query(text)?;
            if let Some(seed) = args.get::<u64>("seed") {
                s.seed = seed;
            }
            s
        }
        None => {
            if let Some(p) = PARAMS
                .iter()
                .find(|p| p.group() == ParamGroup::Client && args.given(p.key))
            {
                return Err(format!(
                    "--{} is the client's: give it to `ratelab charges --http`; the server is the provider",
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
    let config = ServeConfig {
        provider: scenario.provider.clone(),
        seed: scenario.seed,
        limit,
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
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(host, port))
            .await
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
        out.push_str("Ctrl-C stops it and prints the provider's counters.");
        println!("{out}");
        let _ = std::io::stdout().flush();
        serve(listener, service, stop)
            .await
            .map_err(|e| format!("the server stopped with an error: {e}"))
    })?;
    Ok(format!(
        "stopped; the provider's counters:\n{}",
        serde_json::to_string_pretty(&stats).expect("counters serialise")
    ))
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

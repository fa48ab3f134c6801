//! `ratelab judge -- <command>`: a fresh provider on a free port of this machine, the
//! command run against it, and the report card of what it did to its customers, beside
//! the best the built-in strategies did in the simulation. For a user's own CI: the exit
//! code is 1 when a customer was charged twice or lost a charge.
//!
//! The command is told the provider's address and the batch in its environment
//! ([`ENV_URL`], [`ENV_CUSTOMERS`], [`ENV_SEED`]). It runs in a process group of its
//! own, so that at the time limit (and when it exits, for whatever it left running)
//! judge stops everything it started. Its standard output goes to judge's standard
//! error, so judge's standard output is the card alone.

use crate::args::Args;
use crate::charges::{params_line, scenario_from_flags};
use crate::serve::fit_open_files;
use page::shared::report::{card_text, Note};
use ratelab::doors::{self, Bounds};
use ratelab::report::{Report, ENV_CUSTOMERS, ENV_SEED, ENV_URL};
use ratelab::server::{serve, ServeConfig, Service, MAX_CUSTOMERS};
use serde::Serialize;
use sim::param::ParamGroup;
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;
use tokio::sync::oneshot;

/// The command's time limit unless `--limit-s` says otherwise, in seconds.
pub const DEFAULT_LIMIT_S: u64 = 300;

/// How long judge waits, once the command has ended, for the provider to finish the
/// charges it admitted (and for the answers still being sent): longer than any charge
/// of the provider's parameters takes, a queue's backlog aside.
pub const SETTLE_S: u64 = 60;

/// How long a command stopped at its limit has between SIGTERM and SIGKILL.
const GRACE: Duration = Duration::from_secs(2);

/// What became of the command.
struct Ran {
    /// Its exit status, if it exited on its own.
    status: Option<ExitStatus>,
    /// True if it was stopped at its time limit.
    stopped: bool,
}

/// The card as `--json` prints it: the report, and what became of the command.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Judged<'a> {
    #[serde(flatten)]
    report: &'a Report,
    command: CommandEnd,
}

/// What became of the command, as `--json` prints it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CommandEnd {
    /// Its exit code (`null` if it was stopped or ended by a signal).
    exit_code: Option<i32>,
    /// True if it was still running at the time limit and was stopped.
    stopped_at_limit: bool,
    /// The time limit, in seconds.
    limit_s: u64,
}

/// Runs the command against a fresh provider and prints its card; the `bool` is true
/// when the card fails (exit code 1).
pub fn main(args: &Args) -> Result<(String, bool), String> {
    let command = args.all("command");
    let Some((program, program_args)) = command.split_first() else {
        return Err(
            "give the command to judge after --, e.g. ratelab judge -- node clients/run.mjs my-client.js"
                .to_string(),
        );
    };
    if let Some(p) = args.first_given(|p| p.group() == ParamGroup::Client) {
        return Err(format!(
            "--{} is the client's, and the command you judge is the client: judge sets only the provider's parameters",
            p.key
        ));
    }
    if let Some(p) = args.first_given(|p| p.group() == ParamGroup::Traffic) {
        return Err(format!(
            "--{}: the command sends its customers as it likes; traffic over time runs only in the simulation",
            p.key
        ));
    }
    let scenario = scenario_from_flags(args)?;
    if scenario.customers > MAX_CUSTOMERS {
        return Err(format!(
            "--customers {}: the server takes customers 1 to {MAX_CUSTOMERS}",
            scenario.customers
        ));
    }
    let key_ttl = match scenario.provider.key_ttl_us {
        0 if args.first_given(|p| p.param == sim::Param::KeyTtl).is_some() => {
            return Err(
                "keyTtlS=0 keeps keys for as long as the simulation runs, which a server cannot: give 1 to 31536000 seconds".to_string(),
            )
        }
        0 => Bounds::default().key_ttl,
        us => Duration::from_micros(us),
    };
    let limit_s = args.get::<u64>("limit-s").unwrap_or(DEFAULT_LIMIT_S);
    let bounds = Bounds {
        key_ttl,
        ..Bounds::default()
    };
    fit_open_files(bounds.max_connections)?;
    let service = Service::new(ServeConfig {
        provider: scenario.provider.clone(),
        seed: scenario.seed,
        bounds,
        ..ServeConfig::default()
    })?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("could not start the async runtime: {e}"))?;
    let judged = runtime.block_on(async {
        let listener = doors::listen(SocketAddr::from(([127, 0, 0, 1], 0)))
            .map_err(|e| format!("could not listen on 127.0.0.1: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("could not read the address: {e}"))?;
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(serve(listener, service.clone(), async {
            let _ = stopped.await;
        }));
        // The run, and the provider's clock, start with the command.
        service.reset(scenario.seed)?;
        let mut child = start(program, program_args, addr, &scenario)?;
        let ran = watch(&mut child, Duration::from_secs(limit_s)).await?;
        let still = service.settle_within(Duration::from_secs(SETTLE_S)).await;
        let mut report = service.report(Some(scenario.customers)).await;
        report
            .notes
            .retain(|n| !matches!(n, Note::Answering { .. }));
        if still > 0 {
            report.notes.push(Note::Unsettled {
                requests: still,
                waited_s: SETTLE_S,
            });
        }
        report.notes.push(match ran.status {
            _ if ran.stopped => Note::StoppedAtLimit { limit_s },
            Some(status) => Note::Exited(status.code()),
            None => Note::Exited(None),
        });
        let _ = stop.send(());
        Ok::<_, String>((report, ran))
    });
    // Whatever is still running (a charge past the wait above) is dropped with the
    // runtime, at once.
    runtime.shutdown_background();
    let (report, ran) = judged?;
    let fails = report.card.fails();
    let out = if args.has("json") {
        serde_json::to_string_pretty(&Judged {
            report: &report,
            command: CommandEnd {
                exit_code: if ran.stopped {
                    None
                } else {
                    ran.status.and_then(|s| s.code())
                },
                stopped_at_limit: ran.stopped,
                limit_s,
            },
        })
        .expect("a report serialises")
    } else {
        format!("{}{}", params_line(&scenario), card_text(&report.view()))
    };
    Ok((out, fails))
}

/// Starts the command in a process group of its own, with the provider's address and
/// the batch in its environment, its standard output on judge's standard error and no
/// standard input.
fn start(
    program: &str,
    args: &[String],
    addr: SocketAddr,
    scenario: &sim::Scenario,
) -> Result<Child, String> {
    let mut command = Command::new(program);
    command
        .args(args)
        .env(ENV_URL, format!("http://{addr}"))
        .env(ENV_CUSTOMERS, scenario.customers.to_string())
        .env(ENV_SEED, scenario.seed.to_string())
        .stdin(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        if let Ok(err) = std::io::stderr().as_fd().try_clone_to_owned() {
            command.stdout(Stdio::from(err));
        }
    }
    command
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", page::shown(program)))
}

/// Waits for the command to exit, for at most `limit`; at the limit, or on Ctrl-C or
/// SIGTERM to judge, stops it with everything it started. When it exits on its own,
/// whatever it left running in its group is stopped too, so nothing charges after the
/// card is read.
async fn watch(child: &mut Child, limit: Duration) -> Result<Ran, String> {
    let deadline = tokio::time::Instant::now() + limit;
    let mut signals = Signals::new()?;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                kill_group(child, Kill::Now);
                return Ok(Ran {
                    status: Some(status),
                    stopped: false,
                });
            }
            Ok(None) => {}
            Err(e) => {
                stop(child).await;
                return Err(format!("could not wait for the command: {e}"));
            }
        }
        if tokio::time::Instant::now() >= deadline {
            stop(child).await;
            return Ok(Ran {
                status: None,
                stopped: true,
            });
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(10)) => {}
            _ = signals.recv() => {
                stop(child).await;
                return Err("stopped by a signal; the command was stopped too, and no card was made".to_string());
            }
        }
    }
}

/// Ctrl-C and SIGTERM to judge.
struct Signals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> Result<Self, String> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let listen = |kind| {
                signal(kind).map_err(|e| format!("could not listen for Ctrl-C and SIGTERM: {e}"))
            };
            Ok(Self {
                interrupt: listen(SignalKind::interrupt())?,
                terminate: listen(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        {
            Ok(Self {})
        }
    }

    /// Completes when one arrives.
    async fn recv(&mut self) {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.interrupt.recv() => {},
                _ = self.terminate.recv() => {},
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// How to stop a process group.
#[derive(Clone, Copy)]
enum Kill {
    /// SIGTERM: a chance to close its connections.
    Ask,
    /// SIGKILL.
    Now,
}

/// Signals the command's process group (on Unix; elsewhere the command alone). A group
/// already gone is not an error.
fn kill_group(child: &mut Child, how: Kill) {
    #[cfg(unix)]
    {
        let signal = match how {
            Kill::Ask => libc::SIGTERM,
            Kill::Now => libc::SIGKILL,
        };
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill takes plain integers; a negative pid names the process group
            // the command leads (`process_group(0)` made its id the group's).
            unsafe {
                libc::kill(-pid, signal);
            }
        }
    }
    #[cfg(not(unix))]
    {
        if matches!(how, Kill::Now) {
            let _ = child.kill();
        }
    }
}

/// Stops the command and its group: SIGTERM, up to [`GRACE`] to exit, then SIGKILL.
async fn stop(child: &mut Child) {
    kill_group(child, Kill::Ask);
    let until = tokio::time::Instant::now() + GRACE;
    while tokio::time::Instant::now() < until {
        if matches!(child.try_wait(), Ok(Some(_))) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    kill_group(child, Kill::Now);
    let _ = child.wait();
}

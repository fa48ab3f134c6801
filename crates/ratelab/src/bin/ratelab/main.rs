//! `ratelab`: the simulation core on the command line. It parses arguments, calls the
//! core, and prints; every number it prints is the same one the browser app shows.
//!
//! Native only: clap, which reads the arguments, is not a dependency of the wasm32 build,
//! where this binary has nothing to run.

#[cfg(not(target_arch = "wasm32"))]
mod args;
#[cfg(not(target_arch = "wasm32"))]
mod bench;
#[cfg(not(target_arch = "wasm32"))]
mod charges;
#[cfg(not(target_arch = "wasm32"))]
mod headers;
#[cfg(not(target_arch = "wasm32"))]
mod http;
#[cfg(not(target_arch = "wasm32"))]
mod judge;
#[cfg(not(target_arch = "wasm32"))]
mod limits;
#[cfg(not(target_arch = "wasm32"))]
mod serve;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use std::process::ExitCode;

    let matches = match args::command().try_get_matches() {
        Ok(matches) => matches,
        // Help goes to stdout with code 0; a usage mistake to stderr with code 2.
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let result = match matches.subcommand() {
        // The one command with a third ending: its card fails (code 1).
        Some(("judge", m)) => {
            return match judge::main(&args::Args::new(m)) {
                Ok((out, fails)) => {
                    print(&out);
                    ExitCode::from(u8::from(fails))
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::from(2)
                }
            };
        }
        Some(("charges", m)) => charges::main(&args::Args::new(m)),
        Some(("serve", m)) => serve::main(&args::Args::new(m)),
        Some(("limits", m)) => limits::main(&args::Args::new(m)),
        Some(("bench", m)) => bench::main(&args::Args::new(m)),
        Some(("headers", m)) => match m.subcommand() {
            Some(("read", m)) => headers::read(&args::Args::new(m)),
            _ => Err("give a headers command: read (ratelab headers --help)".to_string()),
        },
        _ => Err(
            "give a command: charges, serve, judge, limits, headers or bench (ratelab help)"
                .to_string(),
        ),
    };
    match result {
        Ok(out) => {
            print(&out);
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Prints a command's output. A closed pipe (`ratelab … | head`) is not an error worth a
/// panic. An output that ends its own last line (the CSV export, with CRLF) is printed
/// as is.
#[cfg(not(target_arch = "wasm32"))]
fn print(out: &str) {
    use std::io::Write;
    let _ = if out.ends_with('\n') {
        write!(std::io::stdout(), "{out}")
    } else {
        writeln!(std::io::stdout(), "{out}")
    };
}

/// The wasm32 build has no command line; see the native `main`.
#[cfg(target_arch = "wasm32")]
fn main() {}

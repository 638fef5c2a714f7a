//! The `taut` binary: parses the command line and runs it through [`taut_cli::run`].
//!
//! Exit status: 0 on success (also when stdout is closed early, as by `| head`), 1 when the
//! command fails (one line `taut: <message>` on stderr), 2 on a usage error (one line too).
//! `taut route` answers `unreachable` with 0 too, and an invalid query with 1. `taut agent`
//! exits 1 after all its rows when a run ended `cutoff` or `failed`.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use taut_cli::{Cli, CliError};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            // Help and version go to stdout; a closed pipe there is not an error.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let _ = writeln!(
                io::stderr(),
                "{}",
                taut_cli::usage_error_line(&e, std::env::args_os())
            );
            return ExitCode::from(2);
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = taut_cli::run(&cli, &mut out, &mut io::stderr())
        .and_then(|()| out.flush().map_err(CliError::Output));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            // Rows already written stay before the error line.
            let _ = out.flush();
            let message = e.to_string().replace('\n', " ");
            let _ = writeln!(io::stderr(), "taut: {message}");
            ExitCode::from(e.exit_code())
        }
    }
}

//! Project automation, run as `cargo xtask <command>` (the alias is in `.cargo/config.toml`).
//!
//! The commands are placeholders until the work that needs them lands: each prints one
//! `not yet: ...` line naming what will bring it and exits with status 2.

use std::process::ExitCode;

/// The commands: name, one-line description, and what will bring it.
const COMMANDS: &[(&str, &str, &str)] = &[
    (
        "fetch-maps",
        "download the MovingAI benchmark maps and scenarios",
        "the benchmark-data work (fixtures/maps has the only maps shipped so far)",
    ),
    (
        "preprocess",
        "build compressed path databases for maps",
        "the taut-cpd crate",
    ),
    (
        "bench",
        "time every planner on the benchmark suites and write CSV/Markdown reports",
        "the taut-bench crate",
    ),
];

fn help() -> String {
    let mut s =
        String::from("Project automation for taut.\n\nUsage: cargo xtask <COMMAND>\n\nCommands:\n");
    for (name, what, _) in COMMANDS {
        s.push_str(&format!("  {name:<12}{what} (not yet available)\n"));
    }
    s.push_str("  help        print this help\n");
    s
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!(
            "xtask: no command given: expected one of fetch-maps, preprocess, bench (see `cargo xtask --help`)"
        );
        return ExitCode::from(2);
    };
    if matches!(cmd.as_str(), "help" | "--help" | "-h") {
        print!("{}", help());
        return ExitCode::SUCCESS;
    }
    match COMMANDS.iter().find(|(name, _, _)| name == cmd) {
        Some((name, _, by)) => {
            eprintln!("xtask: not yet: `{name}` arrives with {by}");
        }
        None => {
            eprintln!(
                "xtask: unknown command {cmd:?}: expected one of fetch-maps, preprocess, bench (see `cargo xtask --help`)"
            );
        }
    }
    ExitCode::from(2)
}

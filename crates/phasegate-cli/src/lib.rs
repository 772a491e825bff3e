//! The `workflow-state` subcommands and the `phasegate-hook` hooks. The two
//! binaries in the root package only call [`workflow_state_main`] and
//! [`hook_main`].

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

mod commands;
mod context;
mod env;
mod error;
mod exit;
mod hook;

pub use exit::ExitStatus;

/// Entry point of `workflow-state`.
pub fn workflow_state_main() -> ExitCode {
    let cli = match commands::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => ExitCode::SUCCESS,
                _ => ExitStatus::Error.into(),
            };
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = context::Ctx::from_env(&mut out).and_then(|mut ctx| commands::run(cli, &mut ctx));
    let _ = out.flush();
    match result {
        Ok(status) => status.into(),
        Err(e) => {
            if !e.quiet {
                let _ = writeln!(std::io::stderr(), "workflow-state: {}", e.message);
            }
            e.status.into()
        }
    }
}

/// Entry point of `phasegate-hook`.
pub fn hook_main() -> ExitCode {
    hook::main()
}

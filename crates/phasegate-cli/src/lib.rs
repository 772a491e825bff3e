//! The `workflow-state` front end: clap arguments, rendering and exit codes
//! over phasegate-ops. The binary in the root package only calls [`main`].
#![cfg_attr(test, allow(clippy::disallowed_methods))]

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

mod commands;
mod exit;
mod output;
mod version;

pub use exit::ExitStatus;

use output::{OutputError, Printer};

/// What a command returns: its exit status, or why it failed.
pub(crate) type CmdResult = Result<ExitStatus, CmdError>;

/// A command that did not succeed.
#[derive(Debug)]
pub(crate) enum CmdError {
    Op(phasegate_ops::OpError),
    Output(OutputError),
}

impl From<phasegate_ops::OpError> for CmdError {
    fn from(e: phasegate_ops::OpError) -> Self {
        CmdError::Op(e)
    }
}

impl From<OutputError> for CmdError {
    fn from(e: OutputError) -> Self {
        CmdError::Output(e)
    }
}

/// What every command gets: the operations' environment and stdout.
pub(crate) struct Ctx<'a> {
    pub env: phasegate_ops::Env,
    pub out: Printer<'a>,
}

/// Entry point of `workflow-state`.
pub fn main() -> ExitCode {
    phasegate_ops::env::keep_own_stdio();
    let cli = match commands::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayVersion => {
            let _ = std::io::stdout().write_all(version::report().as_bytes());
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => ExitCode::SUCCESS,
                _ => ExitStatus::Error.into(),
            };
        }
    };
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let result = match phasegate_ops::Env::from_process() {
        Ok(env) => {
            let mut ctx = Ctx { env, out: Printer::new(&mut lock) };
            commands::run(cli, &mut ctx)
        }
        Err(e) => Err(CmdError::Op(e)),
    };
    let _ = lock.flush();
    match result {
        Ok(status) => status.into(),
        Err(CmdError::Output(OutputError::BrokenPipe)) => ExitCode::SUCCESS,
        Err(CmdError::Output(OutputError::Other(e))) => {
            let _ = writeln!(std::io::stderr(), "workflow-state: cannot write output: {e}");
            ExitStatus::Error.into()
        }
        Err(CmdError::Op(e)) => {
            let _ = writeln!(std::io::stderr(), "workflow-state: {e}");
            ExitStatus::of(&e).into()
        }
    }
}

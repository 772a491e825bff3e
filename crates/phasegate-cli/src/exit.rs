//! Exit codes of `workflow-state`, and the one place that maps an
//! operation's error to one. The README's exit-code table mirrors this.

use std::process::ExitCode;

use phasegate_core::error::ErrorClass;
use phasegate_ops::OpError;

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// The command did what was asked; for checks: allowed / in place.
    Success,
    /// A workflow rule said no: a blocked transition, a cwd outside the
    /// feature's worktree, a refused pipeline transition or review, failing
    /// tests. The reason is printed.
    Refused,
    /// Usage error, invalid input (a verdict or a pipeline file that does not
    /// match its schema), or state that cannot be read or locked. The message
    /// on stderr names the file or field and what to do.
    Error,
    /// Slack refused a call or could not be reached. Nothing was lost: a
    /// question stays as it was and the next poll tries again.
    Unavailable,
    /// Stopped by Ctrl-C (the runner): what it ran was asked to end.
    Interrupted,
}

impl ExitStatus {
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Refused => 1,
            ExitStatus::Error => 2,
            ExitStatus::Unavailable => 3,
            ExitStatus::Interrupted => 130,
        }
    }

    /// The exit status of a failed operation: by its class.
    pub fn of(error: &OpError) -> ExitStatus {
        match error.class() {
            ErrorClass::Refused => ExitStatus::Refused,
            ErrorClass::Invalid => ExitStatus::Error,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(s: ExitStatus) -> Self {
        ExitCode::from(s.code())
    }
}

//! Exit codes of `workflow-state` and `phasegate-hook`, in one place.

use std::process::ExitCode;

/// How a command ended. The README's exit-code table mirrors this enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// The command did what was asked; for checks: allowed / in place.
    Success,
    /// A workflow rule said no: a blocked transition, a cwd outside the
    /// feature's worktree, a refused pipeline transition. The reason is printed.
    Refused,
    /// Usage error, invalid input (a verdict or a pipeline file that does not
    /// match its schema), or state that cannot be read or locked. The message
    /// on stderr names the file or field and what to do.
    Error,
}

impl ExitStatus {
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Refused => 1,
            ExitStatus::Error => 2,
        }
    }
}

impl From<ExitStatus> for ExitCode {
    fn from(s: ExitStatus) -> Self {
        ExitCode::from(s.code())
    }
}

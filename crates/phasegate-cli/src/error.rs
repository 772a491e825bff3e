//! The CLI's error: a message and the exit status it maps to.

use phasegate_core::meta::MetaError;
use phasegate_store::{ResolveError, StoreError};

use crate::exit::ExitStatus;

#[derive(Debug)]
pub struct CliError {
    pub status: ExitStatus,
    pub message: String,
    /// Nothing to report (the reader of stdout went away).
    pub quiet: bool,
}

impl CliError {
    /// Invalid input or unreadable state: exit 2.
    pub fn error(message: impl Into<String>) -> Self {
        CliError { status: ExitStatus::Error, message: message.into(), quiet: false }
    }

    /// stdout was closed by its reader: exit quietly, like ripgrep.
    pub fn broken_pipe() -> Self {
        CliError { status: ExitStatus::Success, message: String::new(), quiet: true }
    }

    /// A workflow rule refused: exit 1.
    pub fn refused(message: impl Into<String>) -> Self {
        CliError { status: ExitStatus::Refused, message: message.into(), quiet: false }
    }
}

impl From<StoreError> for CliError {
    fn from(e: StoreError) -> Self {
        CliError::error(e.to_string())
    }
}

impl From<ResolveError> for CliError {
    fn from(e: ResolveError) -> Self {
        CliError::error(e.to_string())
    }
}

impl From<MetaError> for CliError {
    fn from(e: MetaError) -> Self {
        match e {
            MetaError::NotActive { .. } => CliError::refused(e.to_string()),
            MetaError::NotInProgress { .. } | MetaError::NoReviewLoop { .. } => CliError::error(e.to_string()),
        }
    }
}

pub type CliResult<T = ExitStatus> = Result<T, CliError>;

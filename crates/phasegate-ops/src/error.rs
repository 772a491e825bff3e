//! The one error of every operation. Each variant keeps its typed source, so
//! a front end decides what it means (the CLI's exit code, in one place)
//! without parsing messages, and every message says what to do.

use phasegate_core::feature::MetaError;
use phasegate_core::pipeline::gate::GateError;
use phasegate_core::pipeline::run::RunError;
use phasegate_store::{ResolveError, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum OpError {
    /// A workflow rule said no (a blocked transition, a cwd outside the
    /// feature's worktree, failing tests, a failed dry-run check).
    #[error("{0}")]
    Refused(String),
    /// The caller's input is invalid: a usage error, or a verdict or pipeline
    /// file that breaks its schema.
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    #[error(transparent)]
    Meta(#[from] MetaError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Gate(#[from] GateError),
}

pub type OpResult<T> = Result<T, OpError>;

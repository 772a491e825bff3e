//! phasegate's operations: every verb of the `workflow-state` CLI and every
//! hook's decision, with typed outcomes and one error type. The CLI and the
//! hook binary are thin front ends over this crate: they parse arguments or
//! hook input, call an operation, and render what it returns.

pub mod backlog;
pub mod build;
pub mod env;
pub mod error;
pub mod feature;
pub mod hooks;
pub mod parallel;
pub mod phase;
pub mod pipeline;
pub mod poll;
pub mod questions;
pub mod review;
pub mod rounds;
pub mod status;
pub mod task_review;
pub mod tasks;
pub mod worktree;

pub use env::Env;
pub use error::{OpError, OpResult};

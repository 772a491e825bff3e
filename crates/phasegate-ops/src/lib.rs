//! phasegate's operations: every verb of the `workflow-state` CLI and every
//! hook's decision, with typed outcomes and one error type. The CLI and the
//! hook binary are thin front ends over this crate: they parse arguments or
//! hook input, call an operation, and render what it returns.
//!
//! The folders mirror `phasegate-core`'s capabilities (`feature`,
//! `questions`, `tasks`, `pipeline`); `session` resolves which project,
//! feature and session an operation acts on; `hooks` folds each hook event
//! over the capabilities that contribute to it.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod brief;
pub mod commit;
pub mod env;
pub mod error;
pub mod generate;
pub mod hook;
pub mod session;

pub mod coordination;
pub mod feature;
pub mod hooks;
pub mod install;
pub mod knowledge;
pub mod oversight;
pub mod pipeline;
pub mod questions;
pub mod retro;
pub mod tasks;

pub use env::Env;
pub use error::{OpError, OpResult};

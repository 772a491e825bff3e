//! phasegate's operations: every verb of the `workflow-state` CLI and every
//! hook's decision, with typed outcomes and one error type. The CLI and the
//! hook binary are thin front ends over this crate: they parse arguments or
//! hook input, call an operation, and render what it returns.
//!
//! Floors, each importing only the kernel and the floors before it (the
//! test `floors` in `tests/it` holds this; CONTRIBUTING.md says why):
//!
//! 1. the kernel: `env` (clock, directories), `error`, `session` (which
//!    project, feature and session an operation acts on), `hook` (hook
//!    input, the context and the `Contributor` trait), `witness` (what a
//!    gate believes: a reviewer's own reply, a person's channel, seals),
//!    `commit`, `generate`, `install`;
//! 2. `coordination` (sessions, leases, waits, events, and `effects`:
//!    what a verb causes beyond its feature's files, as a value), then
//!    `ideation` (the brainstorm phase's sub-phases), then `questions`;
//! 3. `knowledge`, then `brief` (what a brief is given), then `proof` (the
//!    evidence ledger: requirements, checks, waivers), then `cost` (what a
//!    feature costs, and its budget);
//! 4. `feature` (phases, reviews, worktrees, finish);
//! 5. `tasks` and `pipeline`, the two ways a feature's work runs;
//! 6. `retro`, then `interrupt` (a turn ended on an API error: what was in
//!    flight, when it may go on, and the runner that carries on), then
//!    `oversight` (monitor, PM, status views), which looks over all of it;
//! 7. `hooks`, the registry that folds every capability's contributor into
//!    each hook event.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod brief;
pub mod commit;
pub mod env;
pub mod error;
pub mod generate;
pub mod hook;
pub mod session;
pub mod witness;

pub mod coordination;
pub mod cost;
pub mod feature;
pub mod hooks;
pub mod ideation;
pub mod install;
pub mod interrupt;
pub mod knowledge;
pub mod oversight;
pub mod pipeline;
pub mod proof;
pub mod questions;
pub mod retro;
pub mod tasks;

pub use env::Env;
pub use error::{Invalid, OpError, OpResult};

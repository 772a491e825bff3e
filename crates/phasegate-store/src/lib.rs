//! phasegate's storage layer: the only crate that touches files and git.
//! Reads of regular files only, atomic writes (temp file, fsync, rename),
//! a redo journal for changes spanning several files, kernel file locks with
//! bounded waits, feature discovery and the index of active features,
//! `.meta.json` read-modify-write, pipeline files, git through libgit2, and
//! the team's refs on the git remote through the user's `git`.
//!
//! It is the only crate that may call `std::fs`, or a `Path` method that
//! asks the disk (`exists`, `is_dir`, `canonicalize`, …): the workspace's
//! `clippy.toml` refuses them everywhere else, and [`fs`] answers instead.
#![allow(clippy::disallowed_methods)]

pub mod agents;
pub mod ancestry;
pub mod claude;
pub mod commit;
pub mod coordination;
pub mod cost;
pub mod creation;
pub mod error;
pub mod failpoint;
pub mod feature;
pub mod files;
pub(crate) mod fs;
pub mod git;
pub mod interrupt;
pub mod journal;
pub mod knowledge;
pub mod locate;
pub mod lock;
pub mod logs;
pub mod pipeline;
pub mod process;
pub mod project;
pub mod proof;
pub mod questions;
pub mod remote;
pub mod seal;
pub mod witness;

pub use error::StoreError;
pub use feature::{Feature, FeatureGuard};
pub use journal::FileWrite;
pub use project::{Listed, Project, ResolveError, WorktreeStatus};

//! phasegate's storage layer: the only crate that touches files and git.
//! Atomic writes (temp file, fsync, rename), kernel file locks with bounded
//! waits, feature discovery, `.meta.json` read-modify-write, review history,
//! and git worktrees through libgit2.

pub mod error;
pub mod feature;
pub mod fs;
pub mod git;
pub mod lock;
pub mod pipeline;
pub mod process;
pub mod project;

pub use error::StoreError;
pub use feature::{Feature, FeatureGuard};
pub use project::{Listed, Project, ResolveError, WorktreeStatus};

//! An orchestrated implement: task marks, per-task review cycles, build
//! decisions on failures, and parallel batches in worktrees.

pub mod build;
mod hook;
pub mod marks;
mod parallel;
pub mod review;

pub(crate) use hook::TASKS;
pub use parallel::{merge, worktree};

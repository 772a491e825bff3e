//! An orchestrated implement: task marks, per-task review cycles, build
//! decisions on failures, and parallel batches in worktrees.

pub mod build;
pub mod hook;
pub mod marks;
pub mod parallel;
pub mod review;

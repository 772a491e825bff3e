//! A feature's phased workflow: creating, showing, abandoning and finishing
//! features, starting and completing phases, reviewer briefs and verdicts,
//! status, the backlog and worktree checks.

pub mod backlog;
mod hook;
pub mod lifecycle;
pub mod phase;
pub mod review;
pub mod status;
pub mod worktree;

pub(crate) use hook::ACTIVE_FEATURES;

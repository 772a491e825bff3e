//! Several Claude Code sessions in one repository (terminals, background
//! agents, worktrees): the pure rules behind their coordination, from seed
//! 004's monitor and PM agents. The store keeps the records; these
//! functions decide, with the clock passed in.
//!
//! - sessions: the record, §1.2's lifecycle, liveness by heartbeat (§7.2);
//! - leases: which session may edit a file, §8.2's conflict rule;
//! - waits: who waits for whose file, and the circles that never end (§7.3);

mod lease;
mod session;
mod waits;

pub use lease::{
    DENY_SUGGESTION, Lease, LeaseDecision, LeaseLookupError, LeasePath, LeasePathError, LeaseReason, LeaseRequest,
    Owner, PathCase, UNOWNED_REASON, decide_request,
};
pub use session::{
    CLOCK_SKEW_TOLERANCE, DOWN_AFTER, Health, LifecycleError, Liveness, Priority, SessionRecord, SessionState, health,
};
pub use waits::{MAX_CYCLES, MAX_STEPS, Wait, WaitCycle, find_cycles};

//! Several Claude Code sessions in one repository (terminals, background
//! agents, worktrees): the pure rules behind their coordination, from seed
//! 004's lifecycle, routing, ideation, monitor and PM agents. The store
//! keeps the records; these functions decide, with the clock passed in.
//! Every design choice is written down in its submodule's docs.
//!
//! - sessions: the record, §1.2's lifecycle, liveness by heartbeat (§7.2);
//! - leases: which session may edit a file, §8.2's conflict rule;
//! - waits: who waits for whose file, and the circles that never end (§7.3);
//! - monitor: every 2 minutes, stuck tasks, deadlocks, sessions down, the
//!   alerts to raise without repeating them (§7);
//! - pm: what to do about a stuck task, a conflict, a session that went
//!   down, each decision with its reason (§8.2);
//! - events: what happened, where it leads next (§2's routing, with the
//!   user's overrides), and the append-only event log;
//! - ideation: an idea's four sub-phases, its prompt and its handoff brief
//!   (§3, §4.2), kept in `ideation.json`;
//! - team: claims and feature numbers shared through the git remote, for
//!   a team across machines.

mod events;
mod ideation;
mod lease;
mod monitor;
mod pm;
mod said;
mod session;
mod team;
mod waits;

pub use crate::priority::Priority;
pub use events::{
    Event, EventType, JsonLines, ROUTING_CONFIG_PATH, RouteTarget, RoutingConfig, Settled, Suggestion,
    parse_json_lines, route, settled_by_feature, suggest,
};
pub use ideation::{
    ArtifactType, IDEATION_FILE, IdeaArtifact, IdeaDecision, IdeationError, IdeationPhase, IdeationState, Risk,
    SpecInput, TransitionDecision, evaluate_transition,
};
pub use lease::{
    Lease, LeaseDecision, LeasePath, LeasePathError, LeaseReason, LeaseRequest, Owner, PathCase, decide_request,
};
pub use monitor::{
    ActiveTask, Alert, AlertDetails, AtStake, MonitorInput, MonitorReport, SessionDown, Severity, monitor_due,
    run_monitor,
};
pub use pm::{
    Assignment, CHECK_AGAIN_IN, EscalationOption, FollowUp, PmAction, PmDecision, Target, handle_conflict,
    handle_stuck_task, redistribute,
};
pub use said::{HeldHere, IdeationMoved, IdeationSaid, SignalRecorded, TeamSaid};
pub use session::{Health, Liveness, PAUSE_GRACE, Presence, SessionRecord, SessionState};
pub use team::{
    ANSWERS, CLAIM_TTL_MINUTES, CLAIMS, Claim, ClaimDecision, Claimed, Holder, LEASES, LeaseSet, QUESTIONS,
    Reservation, SharedQuestion, TeamAnswer, TeamLease, TeammateLease, answer_ref, claim_ref, decide_claim, first_free,
    id_of_ref, id_ref, leases_ref, question_ref,
};
pub use waits::Wait;

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
//!   (§3, §4.2), kept in `ideation.json`.

mod events;
mod ideation;
mod lease;
mod monitor;
mod pm;
mod session;
mod waits;

pub use crate::priority::Priority;
pub use events::{
    BadLine, DEFAULT_ROUTES, DefaultRoute, Event, EventPattern, EventType, EventTypeError, JsonLines,
    ROUTING_CONFIG_PATH, Route, RouteOrigin, RouteTarget, RoutingConfig, Settled, Suggestion, parse_json_lines, route,
    settled_by_feature, suggest,
};
pub use ideation::{
    ArtifactType, COMPLETE_CONFIDENCE, Handoff, IDEATION_FILE, IdeaArtifact, IdeaDecision, IdeationError,
    IdeationPhase, IdeationState, MIN_VALIDATIONS, NARROWING_CONFIDENCE, PhaseChange, Risk, Signals, SpecInput,
    TransitionDecision, VALIDATION, evaluate_transition, phase_prompt,
};
pub use lease::{
    DENY_SUGGESTION, Lease, LeaseDecision, LeaseLookupError, LeasePath, LeasePathError, LeaseReason, LeaseRequest,
    Owner, PathCase, UNOWNED_REASON, decide_request,
};
pub use monitor::{
    ALERT_QUIET_FOR, ActiveTask, Alert, AlertDetails, AlertType, CHECK_EVERY, DATABASE_STUCK_AFTER, MonitorInput,
    MonitorReport, MonitorRun, STUCK_AFTER, SessionStatus, Severity, StuckTask, Suppressed, TESTS_STUCK_AFTER,
    holds_something, monitor_due, run_monitor, stuck_threshold,
};
pub use pm::{
    Assignment, CHECK_AGAIN_IN, ESCALATE_AFTER, EscalationOption, FollowUp, INTERRUPT_AFTER, INTERRUPT_REASON,
    PmAction, PmDecision, Redistribution, Target, handle_conflict, handle_stuck_task, redistribute,
};
pub use session::{
    CLOCK_SKEW_TOLERANCE, DOWN_AFTER, Health, LifecycleError, Liveness, Presence, SessionRecord, SessionState, health,
};
pub use waits::{MAX_CYCLES, MAX_STEPS, Wait, WaitCycle, find_cycles};

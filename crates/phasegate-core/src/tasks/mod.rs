//! An orchestrated implement: the task list as data, per-task review cycles
//! with reviewers chosen at run time, build decisions on a failed task, and
//! the implement configuration.

mod agents;
mod build;
mod config;
mod list;
mod review;
mod said;

pub use agents::{RequestInput, frontmatter, priorities, review_request};
pub use build::{
    BuildAction, DEFAULT_TIME_LIMIT_MINUTES, ErrorType, FailureDecision, MAX_FAILED_TASKS, SYNTAX_RETRIES,
    TRANSIENT_RETRIES, VALIDATION_RETRIES, build_families, classify_run, classify_run_without, decide_failure, learned,
    should_continue,
};
pub use config::{DEFAULT_REVIEW_TIMEOUT_MINUTES, DefaultAction, IMPLEMENT_CONFIG_PATH, ImplementConfig};
pub use list::{CONTEXT_BUDGET, Execution, Mark, Ready, Task, TaskList, TasksError, context_package, layer, set_mark};
pub use review::{
    BuildState, CycleError, CycleRecorded, DEFAULT_MAX_CYCLES, ESCALATION_TIMEOUT_MINUTES, FAILURE_RATE_SWITCH,
    FailureRate, MIN_REVIEWS_FOR_RATE, REVIEW_CYCLES_FILE, ReviewCycles, SAME_ISSUE_THRESHOLD, SELF_IMPLEMENTER,
    SessionCycles, TaskCycle, TaskFailureRecord, TaskReviewStatus,
};
pub use said::{Batch, FailedNext, RecordedNext, RetroOffer, ReviewTimedOut, reply_format};

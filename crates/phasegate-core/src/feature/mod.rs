//! A feature's phased workflow: the phases and the facts about each, modes
//! and their caps, the `.meta.json` model, the transition rules, reviewer
//! verdicts and briefs, the review-history format and the suggested next
//! step.

pub mod command;
mod history;
mod meta;
mod mode;
mod next_step;
mod phase;
mod reviewer;
mod transition;
mod verdict;

pub use history::{HISTORY_FILE, HistoryEntry, append_history};
pub use meta::{
    Completion, FinishedNext, LoopOutcome, META_FILE, Meta, MetaError, MetaParseError, PhaseRecord, PhaseState,
    Position, StartKind, StartMode, StartNext, Status, Step, Workflow, WorktreePlace, check_worktree, parse_meta,
};
pub use mode::{Mode, ProofRule};
pub use next_step::{Next, ProofStanding, Suggested, before_finish, next_step};
pub use phase::{Artifact, ArtifactSet, Phase};
pub use reviewer::{BriefInput, CodeUnderReview, review_brief};
pub use transition::{RuleSaid, Validation, ValidationKind, validate, validate_meta, validate_status};
pub use verdict::{Issue, ReviewVerdict, Severity, VERDICT_FILE, VerdictError, extract_json, parse_verdict};

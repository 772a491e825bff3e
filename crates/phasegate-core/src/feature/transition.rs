//! The transition rules: may a feature move to a target phase?
//!
//! Seed 002, Interface 1: hard blocks for implement without spec.md and for
//! create-tasks without plan.md, a warning when phases are skipped, proceed
//! when phases follow in order. phasegate adds: a warning when the current
//! phase was started but not completed, a warning when going back, and a
//! block when the feature is no longer active.

use std::cmp::Ordering;
use std::fmt;

use serde::Serialize;

use super::meta::{Meta, Position, Status, Workflow};
use super::phase::{ArtifactSet, Phase};
use crate::words::Command;

/// The three answers of the rule table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ValidationKind {
    Proceed,
    Warning,
    Blocked,
}

/// The answer printed by `workflow-state validate`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Validation {
    pub allowed: bool,
    #[serde(rename = "type")]
    pub kind: ValidationKind,
    #[serde(serialize_with = "crate::words::as_words_opt")]
    pub message: Option<RuleSaid>,
}

impl Validation {
    fn proceed(message: Option<RuleSaid>) -> Self {
        Validation { allowed: true, kind: ValidationKind::Proceed, message }
    }

    fn warning(message: RuleSaid) -> Self {
        Validation { allowed: true, kind: ValidationKind::Warning, message: Some(message) }
    }

    fn blocked(message: RuleSaid) -> Self {
        Validation { allowed: false, kind: ValidationKind::Blocked, message: Some(message) }
    }

    /// The move as a verb acts on it: allowed with the warning to show, if
    /// any, or refused with what blocks it.
    pub fn warning_or_block(self) -> Result<Option<RuleSaid>, RuleSaid> {
        match (self.kind, self.message) {
            (ValidationKind::Blocked, Some(block)) => Err(block),
            (ValidationKind::Warning, warning) => Ok(warning),
            (ValidationKind::Blocked, None) | (ValidationKind::Proceed, _) => Ok(None),
        }
    }
}

/// What the rule table says of a move, with its facts; its `Display` is
/// the sentence `validate`, `phase start` and the briefs print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleSaid {
    /// `target` needs an artifact that does not exist.
    Needs { target: Phase, required: Phase, file: &'static str },
    /// No phase has run; `target` skips those before it.
    SkipsFromStart { target: Phase },
    /// `target` skips the phases between `current` and it; `unfinished`
    /// when `current` was started but not completed.
    Skips { target: Phase, current: Phase, unfinished: bool },
    /// The next phase, with `current` started but not completed.
    Unfinished { current: Phase },
    /// `current` again, started earlier and not completed.
    Continues { current: Phase },
    /// `current` again, completed: a revision.
    Again { current: Phase },
    /// Back from `current` to `target`.
    Back { current: Phase, target: Phase },
    /// The feature runs as a pipeline.
    Pipeline { feature: String },
    /// The feature is completed or abandoned.
    Ended { feature: String, status: Status },
}

impl fmt::Display for RuleSaid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unfinished = |f: &mut fmt::Formatter<'_>, current: Phase| {
            write!(f, "{current} was started but not completed (run {} to finish it)", current.command())
        };
        match self {
            RuleSaid::Needs { target, required, file } => {
                write!(f, "{target} needs {file}, which does not exist; run {} first", required.command())
            }
            RuleSaid::SkipsFromStart { target } => write!(
                f,
                "{target} skips {}; no phase has run for this feature yet",
                list(&Phase::ALL[..target.index()])
            ),
            RuleSaid::Skips { target, current, unfinished: was } => {
                write!(f, "{target} skips {} after {current}", list(&Phase::ALL[current.index() + 1..target.index()]))?;
                match was {
                    true => {
                        write!(f, "; ")?;
                        unfinished(f, *current)
                    }
                    false => Ok(()),
                }
            }
            RuleSaid::Unfinished { current } => unfinished(f, *current),
            RuleSaid::Continues { current } => write!(f, "continues {current}, started earlier"),
            RuleSaid::Again { current } => {
                write!(f, "{current} was already completed; running it again revises its result")
            }
            RuleSaid::Back { current, target } => {
                write!(f, "goes back from {current} to {target}; artifacts of later phases may need revisiting")
            }
            RuleSaid::Pipeline { feature } => {
                write!(f, "feature {feature} runs as a pipeline; continue it with /phasegate:pipeline")
            }
            RuleSaid::Ended { feature, status } => {
                let was = match status {
                    Status::Abandoned => "was abandoned",
                    Status::Completed | Status::Active => "is completed",
                };
                write!(
                    f,
                    "feature {feature} {was}; start a new feature with `{}`",
                    Command::new("feature new").word("<slug>")
                )
            }
        }
    }
}

/// The rule table, on the feature's position and the artifacts present.
pub fn validate(from: Position, target: Phase, artifacts: ArtifactSet) -> Validation {
    if let Some(required) = target.requires()
        && !artifacts.contains(required)
    {
        return Validation::blocked(RuleSaid::Needs { target, required: required.phase(), file: required.file_name() });
    }

    let Some(current) = from.phase else {
        return match target {
            Phase::Brainstorm => Validation::proceed(None),
            Phase::Specify
            | Phase::Design
            | Phase::CreatePlan
            | Phase::CreateTasks
            | Phase::Implement
            | Phase::Verify
            | Phase::Finish => Validation::warning(RuleSaid::SkipsFromStart { target }),
        };
    };

    match target.index().cmp(&(current.index() + 1)) {
        Ordering::Equal => match from.in_progress {
            false => Validation::proceed(None),
            true => Validation::warning(RuleSaid::Unfinished { current }),
        },
        Ordering::Greater => Validation::warning(RuleSaid::Skips { target, current, unfinished: from.in_progress }),
        Ordering::Less if target == current => match from.in_progress {
            true => Validation::proceed(Some(RuleSaid::Continues { current })),
            false => Validation::proceed(Some(RuleSaid::Again { current })),
        },
        Ordering::Less => Validation::warning(RuleSaid::Back { current, target }),
    }
}

/// Applies the feature's status and workflow before the rule table: only
/// active, phase-driven features move through phases.
pub fn validate_status(status: Status, workflow: Workflow, feature: &str) -> Option<Validation> {
    if status == Status::Active && workflow == Workflow::Pipeline {
        return Some(Validation::blocked(RuleSaid::Pipeline { feature: feature.to_owned() }));
    }
    match status {
        Status::Active => None,
        Status::Completed | Status::Abandoned => {
            Some(Validation::blocked(RuleSaid::Ended { feature: feature.to_owned(), status }))
        }
    }
}

/// The rule table applied to a feature's state: its status and workflow
/// first, then its position and the artifacts present.
pub fn validate_meta(meta: &Meta, feature: &str, target: Phase, artifacts: ArtifactSet) -> Validation {
    match validate_status(meta.status, meta.workflow, feature) {
        Some(v) => v,
        None => validate(meta.position(), target, artifacts),
    }
}

fn list(phases: &[Phase]) -> String {
    phases.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arts(list: &str) -> ArtifactSet {
        ArtifactSet::parse_list(list).unwrap()
    }

    fn check(from: Position, target: Phase, artifacts: &str) -> (ValidationKind, String) {
        let v = validate(from, target, arts(artifacts));
        assert_eq!(v.allowed, v.kind != ValidationKind::Blocked);
        (v.kind, v.message.map(|m| m.to_string()).unwrap_or_default())
    }

    #[test]
    fn hard_block_implement_without_spec() {
        let (kind, msg) = check(Position::completed(Phase::CreateTasks), Phase::Implement, "plan,tasks");
        assert_eq!(kind, ValidationKind::Blocked);
        assert!(msg.contains("implement needs spec.md"), "{msg}");
        assert!(msg.contains("/phasegate:specify"), "{msg}");
    }

    #[test]
    fn hard_block_create_tasks_without_plan() {
        let (kind, msg) = check(Position::completed(Phase::CreatePlan), Phase::CreateTasks, "spec");
        assert_eq!(kind, ValidationKind::Blocked);
        assert!(msg.contains("create-tasks needs plan.md"), "{msg}");
    }

    #[test]
    fn hard_blocks_win_over_everything_else() {
        // Even with no phase run at all the missing artifact is what is reported.
        let (kind, _) = check(Position::NONE, Phase::Implement, "");
        assert_eq!(kind, ValidationKind::Blocked);
    }

    #[test]
    fn in_order_proceeds_silently() {
        let mut from = Position::NONE;
        let mut present = ArtifactSet::empty();
        for phase in Phase::ALL {
            let v = validate(from, phase, present);
            assert_eq!(v, Validation::proceed(None), "{phase}");
            if let Some(a) = phase.artifact() {
                present.insert(a);
            }
            from = Position::completed(phase);
        }
    }

    #[test]
    fn skipping_warns_and_names_the_skipped_phases() {
        let (kind, msg) = check(Position::completed(Phase::Brainstorm), Phase::Design, "brainstorm");
        assert_eq!(kind, ValidationKind::Warning);
        assert_eq!(msg, "design skips specify after brainstorm");

        let (kind, msg) = check(Position::NONE, Phase::Specify, "");
        assert_eq!(kind, ValidationKind::Warning);
        assert!(msg.contains("skips brainstorm"), "{msg}");
    }

    #[test]
    fn moving_on_from_an_unfinished_phase_warns() {
        let from = Position { phase: Some(Phase::Design), in_progress: true };
        let (kind, msg) = check(from, Phase::CreatePlan, "spec,design");
        assert_eq!(kind, ValidationKind::Warning);
        assert!(msg.contains("design was started but not completed"), "{msg}");
    }

    #[test]
    fn continuing_or_rerunning_the_current_phase_proceeds() {
        let from = Position { phase: Some(Phase::Design), in_progress: true };
        assert_eq!(check(from, Phase::Design, "spec").0, ValidationKind::Proceed);
        assert_eq!(check(Position::completed(Phase::Design), Phase::Design, "spec").0, ValidationKind::Proceed);
    }

    #[test]
    fn going_back_warns() {
        let (kind, msg) = check(Position::completed(Phase::CreatePlan), Phase::Specify, "spec,design,plan");
        assert_eq!(kind, ValidationKind::Warning);
        assert!(msg.contains("goes back from create-plan to specify"), "{msg}");
    }

    #[test]
    fn inactive_features_are_blocked() {
        assert!(validate_status(Status::Active, Workflow::Phased, "001-a").is_none());
        let v = validate_status(Status::Completed, Workflow::Phased, "001-a").unwrap();
        assert!(!v.allowed && v.message.unwrap().to_string().contains("completed"));
        assert!(!validate_status(Status::Abandoned, Workflow::Phased, "001-a").unwrap().allowed);
        let v = validate_status(Status::Active, Workflow::Pipeline, "001-a").unwrap();
        assert!(!v.allowed && v.message.unwrap().to_string().contains("/phasegate:pipeline"));
    }

    #[test]
    fn json_shape_matches_the_seed_interface() {
        let v = validate(Position::NONE, Phase::Brainstorm, ArtifactSet::empty());
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"allowed":true,"type":"proceed","message":null}"#);
    }
}

//! The transition rules: may a feature move to a target phase?
//!
//! Seed 002, Interface 1: hard blocks for implement without spec.md and for
//! create-tasks without plan.md, a warning when phases are skipped, proceed
//! when phases follow in order. phasegate adds: a warning when the current
//! phase was started but not completed, a warning when going back, and a
//! block when the feature is no longer active.

use std::cmp::Ordering;

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
    pub message: Option<String>,
}

impl Validation {
    fn proceed(message: Option<String>) -> Self {
        Validation { allowed: true, kind: ValidationKind::Proceed, message }
    }

    fn warning(message: String) -> Self {
        Validation { allowed: true, kind: ValidationKind::Warning, message: Some(message) }
    }

    fn blocked(message: String) -> Self {
        Validation { allowed: false, kind: ValidationKind::Blocked, message: Some(message) }
    }
}

/// The rule table, on the feature's position and the artifacts present.
pub fn validate(from: Position, target: Phase, artifacts: ArtifactSet) -> Validation {
    if let Some(required) = target.requires()
        && !artifacts.contains(required)
    {
        return Validation::blocked(format!(
            "{target} needs {file}, which does not exist; run {cmd} first",
            file = required.file_name(),
            cmd = required.phase().command(),
        ));
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
            | Phase::Finish => Validation::warning(format!(
                "{target} skips {}; no phase has run for this feature yet",
                list(&Phase::ALL[..target.index()])
            )),
        };
    };

    let unfinished = from
        .in_progress
        .then(|| format!("{current} was started but not completed (run {} to finish it)", current.command()));

    match target.index().cmp(&(current.index() + 1)) {
        Ordering::Equal => match unfinished {
            None => Validation::proceed(None),
            Some(note) => Validation::warning(note),
        },
        Ordering::Greater => {
            let skipped = &Phase::ALL[current.index() + 1..target.index()];
            let mut message = format!("{target} skips {} after {current}", list(skipped));
            if let Some(note) = unfinished {
                message.push_str("; ");
                message.push_str(&note);
            }
            Validation::warning(message)
        }
        Ordering::Less if target == current => match from.in_progress {
            true => Validation::proceed(Some(format!("continues {current}, started earlier"))),
            false => Validation::proceed(Some(format!(
                "{current} was already completed; running it again revises its result"
            ))),
        },
        Ordering::Less => Validation::warning(format!(
            "goes back from {current} to {target}; artifacts of later phases may need revisiting"
        )),
    }
}

/// Applies the feature's status and workflow before the rule table: only
/// active, phase-driven features move through phases.
pub fn validate_status(status: Status, workflow: Workflow, feature: &str) -> Option<Validation> {
    if status == Status::Active && workflow == Workflow::Pipeline {
        return Some(Validation::blocked(format!(
            "feature {feature} runs as a pipeline; continue it with /phasegate:pipeline"
        )));
    }
    match status {
        Status::Active => None,
        Status::Completed => Some(Validation::blocked(format!(
            "feature {feature} is completed; start a new feature with `{feature_new}`",
            feature_new = Command::new("feature new").word("<slug>")
        ))),
        Status::Abandoned => Some(Validation::blocked(format!(
            "feature {feature} was abandoned; start a new feature with `{feature_new}`",
            feature_new = Command::new("feature new").word("<slug>")
        ))),
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
        (v.kind, v.message.unwrap_or_default())
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
        assert!(!v.allowed && v.message.unwrap().contains("completed"));
        assert!(!validate_status(Status::Abandoned, Workflow::Phased, "001-a").unwrap().allowed);
        let v = validate_status(Status::Active, Workflow::Pipeline, "001-a").unwrap();
        assert!(!v.allowed && v.message.unwrap().contains("/phasegate:pipeline"));
    }

    #[test]
    fn json_shape_matches_the_seed_interface() {
        let v = validate(Position::NONE, Phase::Brainstorm, ArtifactSet::empty());
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"allowed":true,"type":"proceed","message":null}"#);
    }
}

//! What the workflow suggests: the next command, and the brief a reviewer gets.

use serde::Serialize;

use crate::meta::{Meta, PhaseState, Status, Workflow};
use crate::phase::{Artifact, ArtifactSet, Phase};

/// What each phase's reviewer checks: does the artifact hold everything the
/// next phase needs? (seed 002, "Next Phase Expectations")
pub fn expectations(phase: Phase) -> &'static str {
    match phase {
        Phase::Brainstorm => "Spec needs: clear problem statement, explored options, user intent captured.",
        Phase::Specify => "Design needs: all requirements listed, acceptance criteria defined, scope boundaries clear.",
        Phase::Design => "Plan needs: components defined, interfaces specified, dependencies identified, risks noted.",
        Phase::CreatePlan => {
            "Tasks needs: ordered steps with dependencies, all design items covered, clear sequencing."
        }
        Phase::CreateTasks => {
            "Implement needs: small actionable tasks (<15 min each), clear acceptance criteria per task."
        }
        Phase::Implement => "Verify needs: all tasks addressed, tests exist and pass, no obvious issues.",
        Phase::Verify => "Finish needs: quality confirmed, implementation matches spec, ready to merge.",
        Phase::Finish => "Nothing: finish ends the feature.",
    }
}

/// The agent that reviews a phase's result.
pub fn reviewer(phase: Phase) -> &'static str {
    match phase {
        Phase::Verify => "phasegate:final-reviewer",
        Phase::Brainstorm
        | Phase::Specify
        | Phase::Design
        | Phase::CreatePlan
        | Phase::CreateTasks
        | Phase::Implement
        | Phase::Finish => "phasegate:chain-reviewer",
    }
}

/// The suggested next step of a feature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Next {
    pub phase: Option<Phase>,
    pub command: Option<String>,
    pub reason: String,
}

pub fn next(meta: &Meta) -> Next {
    let done = |reason: String| Next { phase: None, command: None, reason };
    let go = |phase: Phase, reason: String| Next { phase: Some(phase), command: Some(phase.command()), reason };
    match meta.status {
        Status::Completed => return done(format!("feature {} is completed", meta.name())),
        Status::Abandoned => return done(format!("feature {} was abandoned", meta.name())),
        Status::Active => {}
    }
    if meta.workflow == Workflow::Pipeline {
        return Next {
            phase: None,
            command: Some("/phasegate:pipeline".into()),
            reason: format!("feature {} runs as a pipeline", meta.name()),
        };
    }
    let Some(current) = meta.current_phase else {
        return go(Phase::Brainstorm, "no phase has run yet".into());
    };
    match meta.phase_state(current) {
        PhaseState::Partial | PhaseState::NotStarted => go(current, format!("{current} was started but not completed")),
        PhaseState::Completed => match current.next() {
            Some(n) => go(n, format!("{current} is complete")),
            None => done(format!("feature {} has run every phase", meta.name())),
        },
    }
}

/// The phase whose artifact the reviewer compares against: the nearest
/// earlier artifact that exists.
pub fn previous_artifact(phase: Phase, present: ArtifactSet) -> Option<Artifact> {
    Artifact::ALL.into_iter().rev().filter(|a| a.phase() < phase).find(|a| present.contains(*a))
}

/// Inputs of a reviewer brief.
#[derive(Debug, Clone)]
pub struct BriefInput<'a> {
    pub phase: Phase,
    pub feature: &'a str,
    pub feature_dir: &'a str,
    /// Where the code lives (the worktree, else the repository root).
    pub code_dir: &'a str,
    pub iteration: u32,
    pub max_iterations: u32,
    pub present: ArtifactSet,
}

/// The prompt a phase command hands to the reviewer agent.
pub fn brief(input: &BriefInput<'_>) -> String {
    let BriefInput { phase, feature, feature_dir, code_dir, iteration, max_iterations, present } = *input;
    let path = |a: Artifact| format!("{feature_dir}/{}", a.file_name());
    let previous = match phase {
        Phase::Verify => Some(path(Artifact::Spec)).filter(|_| present.contains(Artifact::Spec)),
        _ => previous_artifact(phase, present).map(path),
    };
    let current = match phase.artifact() {
        Some(a) => path(a),
        None => format!("the code changes in {code_dir} (inspect them with git status and git diff)"),
    };
    let next = phase.next().map_or("(none)".to_owned(), |n| n.name().to_owned());
    let mut text = format!(
        "Review the {phase} phase of feature {feature} (iteration {iteration} of {max_iterations}).\n\
         Previous artifact: {previous}\n\
         Current artifact: {current}\n\
         Next phase ({next}) expectations: {expect}\n",
        previous = previous.unwrap_or_else(|| "(none)".into()),
        expect = expectations(phase),
    );
    text.push_str(match phase {
        Phase::Verify => {
            "Check that the implementation matches spec.md: flag unimplemented requirements and work not in the spec.\n"
        }
        _ => "Can the next phase complete its work using ONLY the current artifact? Do not suggest scope expansion.\n",
    });
    text.push_str(
        "Reply with the verdict JSON only: {\"approved\": bool, \"issues\": [{\"severity\": \"blocker|warning|note\", \"description\": \"...\", \"location\": \"...\"}], \"summary\": \"...\"}",
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mode::Mode;
    use chrono::Utc;

    #[test]
    fn next_follows_the_feature() {
        let now = Utc::now();
        let mut m = Meta::new("001".into(), "a".into(), Mode::Standard, now);
        assert_eq!(next(&m).command.as_deref(), Some("/phasegate:brainstorm"));
        m.start_phase(Phase::Specify, now, false).unwrap();
        assert_eq!(next(&m).command.as_deref(), Some("/phasegate:specify"));
        m.complete_phase(Phase::Specify, now, Default::default()).unwrap();
        assert_eq!(next(&m).command.as_deref(), Some("/phasegate:design"));
        m.finish(now).unwrap();
        assert_eq!(next(&m).command, None);
    }

    #[test]
    fn brief_names_both_artifacts_and_the_expectations() {
        let present = ArtifactSet::parse_list("brainstorm,spec,design").unwrap();
        let text = brief(&BriefInput {
            phase: Phase::Design,
            feature: "001-a",
            feature_dir: "/r/docs/features/001-a",
            code_dir: "/r",
            iteration: 2,
            max_iterations: 3,
            present,
        });
        assert!(text.contains("Previous artifact: /r/docs/features/001-a/spec.md"), "{text}");
        assert!(text.contains("Current artifact: /r/docs/features/001-a/design.md"), "{text}");
        assert!(text.contains("Plan needs: components defined"), "{text}");
        assert!(text.contains("iteration 2 of 3"), "{text}");
    }

    #[test]
    fn previous_skips_missing_artifacts() {
        let present = ArtifactSet::parse_list("brainstorm").unwrap();
        assert_eq!(previous_artifact(Phase::Design, present), Some(Artifact::Brainstorm));
        assert_eq!(previous_artifact(Phase::Brainstorm, present), None);
    }
}

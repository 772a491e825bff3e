//! The reviewer of each phase and the brief it gets: the previous and current
//! artifact (or, for the phases that change code, the change itself), what
//! the next phase needs (seed 002, "Next Phase Expectations"), what the last
//! iteration raised, and the concerns earlier phases left open.

use super::meta::OpenConcerns;
use super::phase::{Artifact, ArtifactSet, Phase, ReviewFocus};
use super::verdict::VERDICT_EXAMPLE;
use crate::brief::{Brief, SectionKind};
use crate::change::CodeChange;
use crate::words::Command;

/// The phase whose artifact the reviewer compares against: the nearest
/// earlier artifact that exists.
pub(crate) fn previous_artifact(phase: Phase, present: ArtifactSet) -> Option<Artifact> {
    Artifact::ALL.into_iter().rev().filter(|a| a.phase() < phase).find(|a| present.contains(*a))
}

/// The code under review, for the phases that change code.
#[derive(Debug, Clone)]
pub enum CodeUnderReview<'a> {
    /// The change since the phase started, and where its whole diff is.
    Change { change: &'a CodeChange, full_diff: Option<&'a str> },
    /// No base commit is known (no git, or no commit yet): the reviewer
    /// looks at the code directory as it is.
    Tree { why: &'a str },
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
    /// Open issues of the previous iteration of this phase.
    pub previous_issues: &'a [String],
    /// Concerns earlier phases left open at their cap.
    pub carried: &'a [OpenConcerns],
    /// For implement and verify.
    pub code: Option<CodeUnderReview<'a>>,
}

/// The prompt a phase command hands to the reviewer agent.
pub fn review_brief(input: &BriefInput<'_>) -> Brief {
    let BriefInput {
        phase,
        feature,
        feature_dir,
        code_dir,
        iteration,
        max_iterations,
        present,
        previous_issues,
        carried,
        ref code,
    } = *input;
    let path = |a: Artifact| format!("{feature_dir}/{}", a.file_name());
    let facts = phase.facts();
    let previous = if facts.focus == ReviewFocus::MatchesSpec {
        Some(path(Artifact::Spec)).filter(|_| present.contains(Artifact::Spec))
    } else {
        previous_artifact(phase, present).map(path)
    };
    let current = match phase.artifact() {
        Some(a) => path(a),
        None => format!("the code in {code_dir} (the change is below)"),
    };
    let next = phase.next().map_or("(none)", |n| n.into());
    let mut brief = Brief::of(crate::brief::BriefKind::Review);
    let mut text = format!(
        "Review the {phase} phase of feature {feature} (iteration {iteration} of {max_iterations}).\n\
         Previous artifact: {previous}\n\
         Current artifact: {current}\n\
         Next phase ({next}) expectations: {expect}\n",
        previous = previous.unwrap_or_else(|| "(none)".into()),
        expect = facts.expectations,
    );
    if phase == Phase::Implement && present.contains(Artifact::Tasks) {
        text.push_str(&format!("The tasks to check against: {}\n", path(Artifact::Tasks)));
    }
    brief.push("review", SectionKind::Task, text);
    match code {
        Some(CodeUnderReview::Change { change, full_diff }) => {
            brief.push_from("change", SectionKind::Task, change.render(*full_diff), *full_diff);
        }
        Some(CodeUnderReview::Tree { why }) => {
            brief.push(
                "change",
                SectionKind::Task,
                format!("No change since a known commit can be shown ({why}); read the code in {code_dir}.\n"),
            );
        }
        None => {}
    }
    if !previous_issues.is_empty() {
        let mut text = String::from("The previous iteration raised these; check whether each is resolved:\n");
        for i in previous_issues {
            text.push_str(&format!("- {i}\n"));
        }
        brief.push("previous-issues", SectionKind::Task, text);
    }
    if !carried.is_empty() {
        let mut text = String::from(
            "Concerns earlier phases left open at their iteration cap; say if this artifact resolves or inherits them:\n",
        );
        for c in carried {
            for concern in &c.concerns {
                text.push_str(&format!("- ({}) {concern}\n", c.phase));
            }
        }
        brief.push("carried-concerns", SectionKind::Task, text);
    }
    brief.push(
        "reply",
        SectionKind::Task,
        format!("{}Reply with the verdict JSON only (its schema: `{schema_verdict}`; `approved` is true only when no blocker remains), for example: {VERDICT_EXAMPLE}", facts.focus.instruction(), schema_verdict = Command::new("schema verdict")),
    );
    brief
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{FileChange, FileStatus};

    fn input<'a>(phase: Phase, present: ArtifactSet) -> BriefInput<'a> {
        BriefInput {
            phase,
            feature: "001-a",
            feature_dir: "/r/docs/features/001-a",
            code_dir: "/r",
            iteration: 2,
            max_iterations: 3,
            present,
            previous_issues: &[],
            carried: &[],
            code: None,
        }
    }

    #[test]
    fn brief_names_both_artifacts_and_the_expectations() {
        let text =
            review_brief(&input(Phase::Design, ArtifactSet::parse_list("brainstorm,spec,design").unwrap())).pack().text;
        assert!(text.contains("Previous artifact: /r/docs/features/001-a/spec.md"), "{text}");
        assert!(text.contains("Current artifact: /r/docs/features/001-a/design.md"), "{text}");
        assert!(text.contains("Plan needs: components defined"), "{text}");
        assert!(text.contains("iteration 2 of 3"), "{text}");
    }

    /// Regression: the implement and verify reviewers were told to run git
    /// status and git diff, which a read-only reviewer cannot; they now get
    /// the change itself.
    #[test]
    fn code_phases_carry_the_change() {
        let change = CodeChange {
            base: "abcdef1234567890".into(),
            files: vec![FileChange {
                path: "src/login.rs".into(),
                status: FileStatus::Added,
                insertions: 3,
                deletions: 0,
            }],
            patch: "+fn login() {}\n".into(),
        };
        let mut i = input(Phase::Implement, ArtifactSet::parse_list("spec,tasks").unwrap());
        i.code = Some(CodeUnderReview::Change { change: &change, full_diff: Some("/d/implement.diff") });
        let text = review_brief(&i).pack().text;
        assert!(!text.contains("git diff"), "{text}");
        assert!(text.contains("added src/login.rs (+3 -0)") && text.contains("+fn login() {}"), "{text}");
        assert!(text.contains("The tasks to check against: /r/docs/features/001-a/tasks.md"), "{text}");
    }

    /// Regression: a phase that ended at its cap with a blocker showed only
    /// as completed; later reviewers never heard of the blocker.
    #[test]
    fn open_concerns_and_previous_issues_reach_the_reviewer() {
        let carried = [OpenConcerns { phase: Phase::Design, concerns: vec!["[blocker] no API errors".into()] }];
        let previous = ["[warning] step 3 vague".to_owned()];
        let mut i = input(Phase::CreatePlan, ArtifactSet::parse_list("design,plan").unwrap());
        i.carried = &carried;
        i.previous_issues = &previous;
        let text = review_brief(&i).pack().text;
        assert!(text.contains("- (design) [blocker] no API errors"), "{text}");
        assert!(text.contains("check whether each is resolved:\n- [warning] step 3 vague"), "{text}");
    }

    #[test]
    fn previous_skips_missing_artifacts() {
        let present = ArtifactSet::parse_list("brainstorm").unwrap();
        assert_eq!(previous_artifact(Phase::Design, present), Some(Artifact::Brainstorm));
        assert_eq!(previous_artifact(Phase::Brainstorm, present), None);
    }
}

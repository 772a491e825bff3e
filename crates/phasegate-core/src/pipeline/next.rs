//! The orchestrator's next action for each state (seed 001, "Using the
//! Orchestrator"): what `workflow-state pipeline next` prints. The Markdown
//! only says "do what it prints".

use super::files::{ReviewStatus, TASK_DIR};
use super::gate::{Gate, GateKind, Stage};
use super::run::Run;
use super::state::State;

/// One next step, for the model and the user.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Action {
    pub state: State,
    /// One line: what to do now.
    pub action: String,
    /// The commands that end this step, in order.
    pub then: Vec<String>,
}

fn ws(args: &str) -> String {
    format!("workflow-state pipeline {args}")
}

pub fn next(run: &Run, feature: &str) -> Action {
    let t = TASK_DIR;
    let f = format!("--feature {feature}");
    let (action, then): (String, Vec<String>) = match run.state {
        State::Idle => {
            ("Start requirements gathering.".into(), vec![ws(&format!("transition requirements_gathering {f}"))])
        }
        State::RequirementsGathering => (
            format!(
                "Spawn Agent(phasegate:requirements-gatherer) with the request. When it writes {t}/worker-signal.json, run `{}` and ask the user its questions (AskUserQuestion), then resume the agent with the answers. When the user approves, the agent writes {t}/user-story.json.",
                ws(&format!("signal {f}"))
            ),
            vec![ws(&format!("check user-story {f}")), ws(&format!("transition plan_drafting {f}"))],
        ),
        State::PlanDrafting => (
            format!("Spawn Agent(phasegate:planner) on {t}/user-story.json; it drafts {t}/plan-refined.json."),
            vec![ws(&format!("transition plan_refining {f}"))],
        ),
        State::PlanRefining => (
            format!(
                "Resume the planner to research the codebase and refine {t}/plan-refined.json; ask the user only about risks that need their decision."
            ),
            vec![ws(&format!("check plan-refined {f}")), ws(&format!("transition plan_reviewing {f}"))],
        ),
        State::PlanReviewing => gate_action(&run.plan_review, GateKind::Plan, &f, "implementing"),
        State::Implementing => (
            format!(
                "Spawn Agent(phasegate:implementer) on {t}/plan-refined.json (keep its agent id to resume it for fixes)."
            ),
            vec![ws(&format!("transition implementing_loop {f}"))],
        ),
        State::ImplementingLoop => gate_action(&run.code_review, GateKind::Code, &f, "complete"),
        State::Complete => (
            format!("The pipeline is complete. Report {t}/impl-result.json and the review summaries to the user."),
            vec![],
        ),
        State::NeedsUserInput => {
            let (reason, message) =
                run.paused.as_ref().map_or(("unknown", String::new()), |p| (p.reason.name(), p.message.clone()));
            (
                format!("Paused ({reason}): {message} Ask the user how to go on; then resume, or reset to start over."),
                vec![ws(&format!("resume {f}"))],
            )
        }
        State::Error => {
            let (from, message) = run
                .failed
                .as_ref()
                .map_or(("unknown".to_owned(), String::new()), |e| (e.from.name().to_owned(), e.message.clone()));
            (
                format!("Failed in {from}: {message} Fix the cause, then recover to retry that phase."),
                vec![ws(&format!("recover {f}"))],
            )
        }
    };
    Action { state: run.state, action, then }
}

fn gate_action(gate: &Gate, kind: GateKind, f: &str, after: &str) -> (String, Vec<String>) {
    let round = gate.round.max(1);
    let Some(stage) = gate.expected() else {
        return match kind {
            GateKind::Plan => ("The plan review gate passed.".into(), vec![ws(&format!("transition {after} {f}"))]),
            GateKind::Code => (
                "The code reviews passed. Make sure the plan's tests pass, then end your message with the completion promise; the Stop hook runs the tests and completes the pipeline.".into(),
                vec![ws(&format!("test {f}"))],
            ),
        };
    };
    let waiting = gate.results.last().is_some_and(|r| r.stage == stage && r.status == ReviewStatus::NeedsClarification);
    let prefix = if waiting {
        format!("The {stage} reviewer asked for clarification; re-run it with the user's answer. ")
    } else {
        String::new()
    };
    match stage {
        Stage::Sonnet | Stage::Opus => (
            format!(
                "{prefix}Review round {round}: spawn Agent(phasegate:{reviewer}) with model {stage} (a fresh agent); write its JSON reply to {t}/{file}.",
                reviewer = kind.reviewer(),
                t = TASK_DIR,
                file = stage.file()
            ),
            vec![ws(&format!("review {stage} {f}"))],
        ),
        Stage::Final => {
            (format!("{prefix}Review round {round}: run the final gate."), vec![ws(&format!("final-gate {f}"))])
        }
    }
}

/// What `pipeline review` and `final-gate` print after recording.
pub fn after_review(kind: GateKind, decision: super::gate::GateDecision) -> String {
    use super::gate::GateDecision;
    match decision {
        GateDecision::Next { stage: Stage::Final } => "Approved. Next: the final gate.".into(),
        GateDecision::Next { stage } => format!("Approved. Next: the {stage} review."),
        GateDecision::Passed => match kind {
            GateKind::Plan => "All reviews approved: the plan gate passed. Next: transition implementing.".into(),
            GateKind::Code => "All reviews approved: the code gate passed. Next: make the tests pass and end with the completion promise.".into(),
        },
        GateDecision::Fix => format!(
            "Changes needed: resume the {} with the findings and fix them (accept all feedback, fix root causes), then review again from the sonnet reviewer.",
            kind.worker()
        ),
        GateDecision::Clarify => "The reviewer needs clarification: the pipeline is paused; ask the user, then resume.".into(),
        GateDecision::LimitReached => "The review loop limit is reached: the pipeline is paused; ask the user whether to continue (resume) or stop (reset).".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    #[test]
    fn next_walks_the_gate() {
        let mut run = Run::new("x".into(), None, Utc::now());
        assert!(next(&run, "001-a").then[0].contains("transition requirements_gathering --feature 001-a"));
        run.state = State::PlanReviewing;
        run.plan_review = Gate::new();
        let a = next(&run, "001-a");
        assert!(
            a.action.contains("phasegate:plan-reviewer") && a.action.contains("review-sonnet.json"),
            "{}",
            a.action
        );
        assert_eq!(a.then, ["workflow-state pipeline review sonnet --feature 001-a"]);
        for s in [Stage::Sonnet, Stage::Opus] {
            run.plan_review.record(s, ReviewStatus::Approved, 10).unwrap();
        }
        assert_eq!(next(&run, "001-a").then, ["workflow-state pipeline final-gate --feature 001-a"]);
        run.plan_review.record(Stage::Final, ReviewStatus::Approved, 10).unwrap();
        assert_eq!(next(&run, "001-a").then, ["workflow-state pipeline transition implementing --feature 001-a"]);
    }
}

//! The orchestrator's next action for each state (seed 001, "Using the
//! Orchestrator"): what `workflow-state pipeline next` prints. The Markdown
//! only says "do what it prints". Every file a worker must write is named by
//! its absolute path, with the command that prints its shape.

use super::files::GateReviewStatus;
use super::gate::{Gate, GateDecision, GateKind, Stage};
use super::run::PipelineRun;
use super::state::State;
use crate::agent::Agent;
use crate::words::Command;

/// One next step, for the model and the user.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NextAction {
    pub state: State,
    /// What to do now.
    pub action: String,
    /// The commands that end this step, in order.
    pub then: Vec<String>,
}

fn ws(args: &str) -> String {
    Command::new("pipeline").arg(&args).to_string()
}

/// Where a pipeline's files are, for the texts that name them.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    /// The feature's folder name (`001-auth`).
    pub feature: &'a str,
    /// The absolute path of its `.task/` folder.
    pub task_dir: &'a str,
    /// The question a pause handed to a person, if one was asked.
    pub question: Option<PauseQuestion<'a>>,
    /// A completed run's commits still to make (its code, then its
    /// folder): the commands that make them.
    pub commits: &'a [String],
}

/// A paused pipeline's question to a person (`pipeline ask`).
#[derive(Debug, Clone, Copy)]
pub struct PauseQuestion<'a> {
    pub id: &'a str,
    pub text: &'a str,
    /// The answer, once it arrived.
    pub answer: Option<&'a str>,
}

/// How a worker is told to write a file: its absolute path and where its
/// shape is.
fn file_for_worker(task_dir: &str, file: &str, kind: &str) -> String {
    format!(
        "{task_dir}/{file} (its JSON shape: `{schema}`; check it with `{pipeline_check}`)",
        schema = Command::new("schema").arg(&kind),
        pipeline_check = Command::new("pipeline check").arg(&kind)
    )
}

pub fn next(run: &PipelineRun, place: Place<'_>) -> NextAction {
    let Place { feature, task_dir: t, question, commits } = place;
    let f = format!("--feature {feature}");
    let (action, then): (String, Vec<String>) = match run.state {
        State::Idle => {
            ("Start requirements gathering.".into(), vec![ws(&format!("transition requirements_gathering {f}"))])
        }
        State::RequirementsGathering => (
            format!(
                "Spawn Agent({gatherer}) with the request and this instruction: write questions to {signal}; write the approved requirements to {story}. When it stops, run `{}` and ask the user its questions (AskUserQuestion), then resume the agent with the answers.",
                ws(&format!("signal {f}")),
                signal = file_for_worker(t, "worker-signal.json", "worker-signal"),
                story = file_for_worker(t, "user-story.json", "user-story"),
                gatherer = Agent::RequirementsGatherer.qualified(),
            ),
            vec![ws(&format!("check user-story {f}")), ws(&format!("transition plan_drafting {f}"))],
        ),
        State::PlanDrafting => (
            format!(
                "Spawn Agent({planner}) on {t}/user-story.json with this instruction: write the plan to {}.",
                file_for_worker(t, "plan-refined.json", "plan-refined"),
                planner = Agent::Planner.qualified(),
            ),
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
                "Spawn Agent({implementer}) on {t}/plan-refined.json (keep its agent id to resume it for fixes), with this instruction: when done, write {}. When a `## Gotchas` section follows, put it in the implementer's prompt too, whole.",
                file_for_worker(t, "impl-result.json", "impl-result"),
                implementer = Agent::Implementer.qualified(),
            ),
            vec![ws(&format!("transition implementing_loop {f}"))],
        ),
        State::ImplementingLoop => gate_action(&run.code_review, GateKind::Code, &f, "complete"),
        State::Complete if commits.is_empty() => (
            format!(
                "The pipeline is complete, its feature closed and its work committed. Report {t}/impl-result.json and the review summaries to the user; then offer /phasegate:retro {feature} to learn from the run."
            ),
            vec![],
        ),
        State::Complete => (
            format!(
                "The pipeline is complete and its feature closed, but its work is not committed: run THEN (its code, then its folder), report {t}/impl-result.json and the review summaries to the user, then offer /phasegate:retro {feature} to learn from the run."
            ),
            commits.to_vec(),
        ),
        State::NeedsUserInput => {
            let (reason, message) =
                run.paused.as_ref().map_or(("unknown", String::new()), |p| (p.reason.name(), p.message.clone()));
            let cancelled = run.paused.as_ref().is_some_and(|p| p.reason == crate::pipeline::PauseReason::Cancelled);
            match question {
                // The user stopped it and is here: no question to route.
                None if cancelled => (
                    format!(
                        "Paused ({reason}): {} Ask the user how to go on; then resume, or reset to start over.",
                        sentence(&message)
                    ),
                    vec![ws(&format!("resume {f}"))],
                ),
                None => (
                    format!(
                        "Paused ({reason}): {} Hand the decision to a person: run THEN. The pipeline waits for the answer (in Slack when configured, else /phasegate:answer); stop work on it meanwhile.",
                        sentence(&message)
                    ),
                    vec![ws(&format!("ask {f}"))],
                ),
                Some(PauseQuestion { id, text, answer: None }) => (
                    format!(
                        "Paused ({reason}), waiting for the answer to {id}: \"{text}\". Stop work on this pipeline; it is answered in Slack or with /phasegate:answer {id}."
                    ),
                    vec![],
                ),
                Some(PauseQuestion { id, answer: Some(answer), .. }) => (
                    format!(
                        "The answer to {id} arrived: \"{answer}\". Run THEN; if it asks to start over, run `{pipeline_reset}` instead. Otherwise go on with `next` and give the answer to the worker you resume.",
                        pipeline_reset = Command::new("pipeline reset").arg(&f)
                    ),
                    vec![ws(&format!("resume {f}"))],
                ),
            }
        }
        State::Error => {
            let (from, message) =
                run.failed.as_ref().map_or(("unknown", String::new()), |e| (e.from.name(), e.message.clone()));
            (
                format!("Failed in {from}: {} Fix the cause, then recover to retry that phase.", sentence(&message)),
                vec![ws(&format!("recover {f}"))],
            )
        }
    };
    NextAction { state: run.state, action, then }
}

/// `text` ending like a sentence.
fn sentence(text: &str) -> String {
    let t = text.trim_end();
    if t.ends_with(['.', '!', '?']) { t.to_owned() } else { format!("{t}.") }
}

fn gate_action(gate: &Gate, kind: GateKind, f: &str, after: &str) -> (String, Vec<String>) {
    let round = gate.round.max(1);
    if let Some(fixing) = &gate.fixing {
        return (
            format!(
                "Round {r} of the {kind} review ended with findings for the {worker} to fix. Unless you already did, resume the {worker} now with the findings (the round's review files in .task/), telling it to fix their root causes. It runs in the background: then end your turn to wait; its result arrives as a task notification, and a stop while it runs is not counted. When its result is back, report the fix; the next round starts from the sonnet reviewer.",
                kind = kind.name(),
                worker = kind.worker(),
                r = fixing.round
            ),
            vec![ws(&format!("fixed {f}"))],
        );
    }
    let Some(stage) = gate.expected() else {
        return match kind {
            GateKind::Plan => ("The plan review gate passed.".into(), vec![ws(&format!("transition {after} {f}"))]),
            GateKind::Code => (
                "The code reviews passed. Make sure the plan's tests pass, then end your message with the completion promise; the Stop hook runs the tests and completes the pipeline. Any later change to the code reopens the gate.".into(),
                vec![ws(&format!("test {f}"))],
            ),
        };
    };
    let waiting =
        gate.results.last().is_some_and(|r| r.stage == stage && r.status == GateReviewStatus::NeedsClarification);
    let prefix = if waiting {
        format!("The {stage} reviewer asked for clarification; re-run it with the user's answer. ")
    } else {
        String::new()
    };
    match stage {
        Stage::Sonnet | Stage::Opus => (
            format!(
                "{prefix}Review round {round}: run `{brief}`; spawn the agent it names, with the model and the prompt it prints as they are (a fresh agent, in the foreground). Its reply is read from Claude Code's transcript: do not write it anywhere.",
                brief = ws(&format!("review-brief {f}")),
            ),
            vec![ws(&format!("review {stage} {f}"))],
        ),
        Stage::Final => {
            (format!("{prefix}Review round {round}: run the final gate."), vec![ws(&format!("final-gate {f}"))])
        }
    }
}

/// What `pipeline review` and `final-gate` say after recording (their
/// `message`): the gate, its decision and the feature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AfterReview {
    pub kind: GateKind,
    pub decision: GateDecision,
    pub feature: String,
}

impl std::fmt::Display for AfterReview {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let AfterReview { kind, decision, feature } = self;
        match decision {
            GateDecision::Next { stage: Stage::Final } => f.write_str("Approved. Next: the final gate."),
            GateDecision::Next { stage } => write!(f, "Approved. Next: the {stage} review."),
            GateDecision::Passed => match kind {
                GateKind::Plan => f.write_str("All reviews approved: the plan gate passed. Next: transition implementing."),
                GateKind::Code => f.write_str("All reviews approved: the code gate passed. Next: make the tests pass and end with the completion promise."),
            },
            GateDecision::Fix => write!(f,
                "Changes needed: resume the {} with the findings and fix them (accept all feedback, fix root causes). No review starts until you run `{}` after its result arrived; then review again from the sonnet reviewer.", kind.worker(), Command::new("pipeline fixed").feature(feature)),
            GateDecision::Clarify => f.write_str(
                "The reviewer needs clarification: the pipeline is paused; `pipeline next` hands the decision to a person.",
            ),
            GateDecision::LimitReached => f.write_str("The review loop limit is reached: the pipeline is paused; `pipeline next` asks a person whether to continue (resume) or stop (reset)."),
        }
    }
}

/// What `pipeline cancel` says (its `message`): whether a loop was
/// cancelled, whether the pipeline is paused now, and its state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CancelDone {
    pub loop_cancelled: bool,
    pub paused: bool,
    pub state: State,
}

impl std::fmt::Display for CancelDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Regression: cancelling a completed run said "the pipeline is paused".
        match (self.loop_cancelled, self.paused) {
            (true, true) => {
                f.write_str("The implementation loop is cancelled and the pipeline paused; this session can stop.")
            }
            (false, true) => {
                f.write_str("No loop was active; the pipeline is paused (resume it with /phasegate:pipeline).")
            }
            (true, false) | (false, false) => {
                write!(f, "Nothing to cancel: the pipeline is {} and holds no session.", self.state)
            }
        }
    }
}

/// What `pipeline start` warns of when no Claude Code session owns the
/// pipeline (its `warning`): the Stop hook enforces its loop only after a
/// session claims it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unclaimed {
    pub feature: String,
}

impl std::fmt::Display for Unclaimed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no Claude Code session id (CLAUDE_CODE_SESSION_ID); the Stop hook enforces this pipeline's loop only after `{}` runs inside a session",
            Command::new("pipeline claim").feature(&self.feature)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    const PLACE: Place<'static> =
        Place { feature: "001-a", task_dir: "/r/docs/features/001-a/.task", question: None, commits: &[] };

    #[test]
    fn a_pause_hands_its_decision_to_a_question_and_resumes_with_the_answer() {
        let now = Utc::now();
        let mut run = PipelineRun::new("x".into(), None, now);
        run.state = State::PlanDrafting;
        run.pause(crate::pipeline::PauseReason::NeedsClarification, "Which database?".into(), now).unwrap();
        assert_eq!(next(&run, PLACE).then, ["workflow-state pipeline ask --feature 001-a"]);
        let waiting = PauseQuestion { id: "001-a.1", text: "Which database?", answer: None };
        let a = next(&run, Place { question: Some(waiting), ..PLACE });
        assert!(a.then.is_empty() && a.action.contains("waiting for the answer to 001-a.1"), "{}", a.action);
        let arrived = PauseQuestion { answer: Some("Postgres"), ..waiting };
        let a = next(&run, Place { question: Some(arrived), ..PLACE });
        assert_eq!(a.then, ["workflow-state pipeline resume --feature 001-a"]);
        assert!(a.action.contains("\"Postgres\""));
    }

    #[test]
    fn next_walks_the_gate() {
        let now = Utc::now();
        let mut run = PipelineRun::new("x".into(), None, now);
        assert!(next(&run, PLACE).then[0].contains("transition requirements_gathering --feature 001-a"));
        run.state = State::PlanReviewing;
        run.plan_review = Gate::new();
        let a = next(&run, PLACE);
        assert!(a.action.contains("workflow-state pipeline review-brief --feature 001-a"), "{}", a.action);
        assert_eq!(a.then, ["workflow-state pipeline review sonnet --feature 001-a"]);
        for s in [Stage::Sonnet, Stage::Opus] {
            run.plan_review.admit(s, "v", GateKind::Plan).unwrap();
            run.plan_review.record(s, GateReviewStatus::Approved, "v", 10, now).unwrap();
        }
        assert_eq!(next(&run, PLACE).then, ["workflow-state pipeline final-gate --feature 001-a"]);
        run.plan_review.admit(Stage::Final, "v", GateKind::Plan).unwrap();
        run.plan_review.record(Stage::Final, GateReviewStatus::NeedsChanges, "v", 10, now).unwrap();
        let a = next(&run, PLACE);
        assert!(a.action.starts_with("Round 1 of the plan review ended with findings for the planner to fix. Unless you already did, resume the planner now"), "{}", a.action);
        assert_eq!(a.then, ["workflow-state pipeline fixed --feature 001-a"]);
    }

    /// Regression: workers were not told the path and shape of the JSON file
    /// they must write.
    #[test]
    fn workers_are_told_the_absolute_path_and_the_shape() {
        let mut run = PipelineRun::new("x".into(), None, Utc::now());
        run.state = State::RequirementsGathering;
        let a = next(&run, PLACE).action;
        assert!(
            a.contains(
                "/r/docs/features/001-a/.task/user-story.json (its JSON shape: `workflow-state schema user-story`"
            ),
            "{a}"
        );
        run.state = State::PlanDrafting;
        assert!(next(&run, PLACE).action.contains("/r/docs/features/001-a/.task/plan-refined.json (its JSON shape"));
    }
}

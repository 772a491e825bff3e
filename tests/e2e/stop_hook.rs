//! Pipeline sessions in the real Claude Code: the Stop hook holds the session
//! that owns the loop until reviews, tests and the promise; lets any other
//! session go; ends the loop cleanly at its limit.

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};

use crate::support::Fixture;

const PROMISE: &str = "<promise>IMPLEMENTATION_COMPLETE</promise>";

/// The code reviewer's system prompt begins with this.
const CODE_REVIEWER: &str = "You are the code reviewer of a phasegate pipeline";

/// One review of the code gate: its brief, the reviewer spawned with the
/// brief's prompt and model, the record (which reads the reply from Claude
/// Code's transcript). `first` checks the request the brief answers.
fn reviewed(stage: &str, first: Turn) -> Vec<Turn> {
    vec![
        first,
        Turn::tools(vec![ToolUse::agent_briefed("phasegate:code-reviewer")])
            .expect_tool_result_contains(format!("\"model\":\"{stage}\"")),
        Turn::tools(vec![ToolUse::bash(format!("workflow-state pipeline review {stage}"))]),
    ]
}

fn brief() -> ToolUse {
    ToolUse::bash("workflow-state pipeline review-brief")
}

fn review(reviewer: &str, model: &str) -> String {
    format!(
        r#"{{"id": "review-9", "reviewer": "{reviewer}", "model": "{model}", "status": "approved", "summary": "fine", "findings": [], "reviewed_at": "2026-11-22T12:00:00Z"}}"#
    )
}

#[test]
fn the_owning_session_is_held_until_reviews_tests_and_promise() {
    let f = Fixture::repo();
    f.write("test.sh", "echo 'All tests passed'\n");
    let feature = f.pipeline_in_loop("setup-session", "sh test.sh", 10);
    let mut main = vec![
        // The session takes the pipeline over, as /phasegate:pipeline does in a new session.
        Turn::tools(vec![ToolUse::bash("workflow-state pipeline claim")]),
        // It claims to be done although the code was never reviewed.
        Turn::text("The implementation is finished.").expect_tool_result_contains("\"owner\""),
    ];
    // The Stop hook sends it back, naming the missing review.
    main.extend(reviewed(
        "sonnet",
        Turn::tools(vec![brief()])
            .expect_user_text_contains("the code review gate has not passed (round 1, the sonnet review is next)")
            .expect_user_text_contains(PROMISE),
    ));
    main.extend(reviewed("opus", Turn::tools(vec![brief()]).expect_tool_result_contains("\"nextStage\":\"opus\"")));
    main.extend([
        Turn::tools(vec![ToolUse::bash("workflow-state pipeline final-gate")])
            .expect_tool_result_contains("\"nextStage\":\"final\""),
        Turn::text(format!("Reviews approved and tests pass. {PROMISE}"))
            .expect_tool_result_contains("\"decision\":\"passed\""),
        // Complete: held once more, to commit the run's work (nothing after this stop would).
        Turn::tools(vec![ToolUse::bash(format!("workflow-state pipeline commit --feature {feature}"))])
            .expect_user_text_contains(format!("run `workflow-state pipeline commit --feature {feature}`")),
        Turn::text("Committed the code and the feature folder.").expect_tool_result_contains("(test.sh)"),
    ]);
    let api = MockApi::start(Scenario::new().main(main).agent(
        CODE_REVIEWER,
        vec![Turn::text(review("code-reviewer", "sonnet")), Turn::text(review("code-reviewer", "opus"))],
    ));
    let out = f.claude().prompt("/phasegate:pipeline").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let status =
        std::process::Command::new("git").args(["status", "--porcelain"]).current_dir(&f.repo).output().unwrap();
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(!status.contains("test.sh") && !status.contains("docs/features"), "all committed: {status}");
    let run = f.task_json(&feature, "state.json");
    assert_eq!(run["state"], "complete");
    assert_eq!(f.task_json(&feature, "loop-state.json")["active"], false);
    assert_eq!(f.task_json(&feature, "loop-state.json")["iteration"], 1, "one blocked stop");
}

#[test]
fn another_session_in_the_same_project_is_never_blocked() {
    let f = Fixture::repo();
    let feature = f.pipeline_in_loop("the-owner", "true", 10);
    let api = MockApi::start(Scenario::new().main(vec![Turn::text("Answered a quick question.")]));
    let out = f.claude().prompt("what is 2 + 2?").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(api.requests_for_main().len(), 1, "the stop went through at once");
    assert_eq!(out.result(), "Answered a quick question.");
    assert_eq!(f.task_json(&feature, "loop-state.json")["iteration"], 0);
    assert_eq!(f.task_json(&feature, "state.json")["owner"]["sessionId"], "the-owner");
}

#[test]
fn the_iteration_limit_ends_the_loop_cleanly() {
    let f = Fixture::repo();
    let feature = f.pipeline_in_loop("setup-session", "true", 1);
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("workflow-state pipeline claim")]),
        Turn::text("Still working on it."),
        Turn::text("I could not finish.").expect_user_text_contains("iteration 1 of 1"),
    ]));
    let out = f.claude().prompt("/phasegate:pipeline").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(out.result(), "I could not finish.");
    let run = f.task_json(&feature, "state.json");
    assert_eq!(
        (run["state"].as_str(), run["paused"]["reason"].as_str()),
        (Some("needs_user_input"), Some("loop_limit"))
    );
    assert_eq!(f.task_json(&feature, "loop-state.json")["active"], false);
}

/// Bug 2: fixing review findings runs the worker in the background (resuming
/// one always does), and the session can only wait by ending its turn. Each
/// such stop used to be blocked and counted. Now a stop while the session's
/// own sub-agent runs is let through and not counted: Claude Code waits for
/// the worker, and its result arrives as a task notification; no review is
/// recorded until the fix is reported.
#[test]
fn waiting_for_the_background_fix_burns_no_iteration() {
    let f = Fixture::repo();
    f.write("test.sh", "echo 'All tests passed'\n");
    let feature = f.pipeline_in_loop("setup-session", "sh test.sh", 10);
    let fix_request = ToolUse::new(
        "Agent",
        serde_json::json!({
            "description": "Fix the findings",
            "subagent_type": "phasegate:implementer",
            "prompt": "Fix the sonnet reviewer's findings: F1 missing validation.",
            "run_in_background": true,
        }),
    );
    let mut main = vec![Turn::tools(vec![ToolUse::bash("workflow-state pipeline claim")])];
    main.extend(reviewed("sonnet", Turn::tools(vec![brief()])));
    main.extend([
        Turn::tools(vec![fix_request]).expect_tool_result_contains("\"decision\":\"fix\""),
        // The model waits for the worker by ending its turn.
        Turn::text("Waiting for the implementer's fix."),
        // The worker's result arrives; the stop before it was not counted.
        Turn::tools(vec![ToolUse::bash("workflow-state pipeline fixed")])
            .expect_user_text_contains("IMPLEMENTER-FIXED"),
    ]);
    main.extend(reviewed("sonnet", Turn::tools(vec![brief()]).expect_tool_result_contains("\"fixedRound\":1")));
    main.extend(reviewed("opus", Turn::tools(vec![brief()])));
    main.extend([
        Turn::tools(vec![ToolUse::bash("workflow-state pipeline final-gate")]),
        Turn::text(format!("Reviews approved and tests pass. {PROMISE}"))
            .expect_tool_result_contains("\"decision\":\"passed\""),
        Turn::tools(vec![ToolUse::bash(format!("workflow-state pipeline commit --feature {feature}"))])
            .expect_user_text_contains("workflow-state pipeline commit"),
        Turn::text("Committed."),
    ]);
    let api = MockApi::start(
        Scenario::new()
            .main(main)
            .agent(
                "You are the implementer of a phasegate pipeline",
                vec![Turn::tools(vec![ToolUse::bash("sleep 3; echo fixed")]), Turn::text("IMPLEMENTER-FIXED")],
            )
            .agent(
                CODE_REVIEWER,
                vec![
                    Turn::text(review("code-reviewer", "sonnet").replace("\"approved\"", "\"needs_changes\"")),
                    Turn::text(review("code-reviewer", "sonnet")),
                    Turn::text(review("code-reviewer", "opus")),
                ],
            ),
    );
    let out = f.claude().prompt("/phasegate:pipeline").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(f.task_json(&feature, "state.json")["state"], "complete");
    assert_eq!(f.task_json(&feature, "loop-state.json")["iteration"], 0, "the wait was not counted");
    assert_eq!(f.meta(&feature)["status"], "completed");
}

//! One phase's reviewer loop end to end: the scripted model follows
//! /phasegate:specify, spawns the plugin's chain-reviewer through the Agent
//! tool, records each verdict with workflow-state, and `.meta.json` and
//! `.review-history.md` end as seed 002 says.

use phasegate_testkit::{MockApi, RecordedRequest, Scenario, ToolUse, Turn};

use crate::support::{Fixture, plugin_root};

const REVIEWER: &str = "You are phasegate's chain reviewer";
const APPROVE: &str = r#"{"approved": true, "issues": [{"severity": "note", "description": "R3 wording could be tighter", "location": "R3"}], "summary": "Requirements and criteria are complete."}"#;
const REJECT: &str = r#"{"approved": false, "issues": [{"severity": "blocker", "description": "no acceptance criteria for R2", "location": "Acceptance criteria"}, {"severity": "warning", "description": "scope boundary vague", "location": "Scope"}], "summary": "R2 cannot be designed without criteria."}"#;

fn fixture(mode: &str) -> (Fixture, String) {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "login", "--mode", mode]);
    f.write("docs/features/001-login/brainstorm.md", "# Brainstorm\nA login page.\n");
    f.ws(&["phase", "complete", "brainstorm"]);
    let dir = f.path("docs/features/001-login").display().to_string();
    (f, dir)
}

fn read_only_reviewer(req: &RecordedRequest) -> Result<(), String> {
    let tools = req.tool_names();
    let allowed = ["Read", "Grep", "Glob"];
    if tools.iter().any(|t| t == "Read") && tools.iter().all(|t| allowed.contains(&t.as_str())) {
        Ok(())
    } else {
        Err(format!("the chain reviewer must get read-only tools, got {tools:?}"))
    }
}

/// The turns of one iteration: write the artifact, get the brief, spawn the
/// reviewer with the brief's prompt, record its verdict (the binary reads
/// it from Claude Code's transcript).
fn iteration(dir: &str, changes: &str, first_expect: Option<&'static str>) -> Vec<Turn> {
    let write = Turn::tools(vec![ToolUse::write(format!("{dir}/spec.md"), format!("# Spec\n\n{changes}\n"))]);
    vec![
        match first_expect {
            Some(needle) => write.expect_tool_result_contains(needle),
            None => write,
        },
        Turn::tools(vec![ToolUse::bash("workflow-state review brief specify --feature 001-login")]),
        Turn::tools(vec![ToolUse::agent_briefed("phasegate:chain-reviewer")])
            .expect_tool_result_contains("Reviewer agent: phasegate:chain-reviewer"),
        Turn::tools(vec![ToolUse::bash(format!(
            "workflow-state review record specify --feature 001-login --changes \"{changes}\""
        ))])
        .expect_tool_result_contains("\"summary\""),
    ]
}

fn reviewer_turns(verdicts: &[&str], dir: &str) -> Vec<Turn> {
    verdicts
        .iter()
        .flat_map(|v| {
            vec![
                Turn::tools(vec![ToolUse::read(format!("{dir}/spec.md"))])
                    .expect(read_only_reviewer)
                    .expect_user_text_contains("Current artifact:"),
                Turn::text(*v).expect_tool_result_contains("# Spec"),
            ]
        })
        .collect()
}

fn opening(dir: &str) -> Vec<Turn> {
    let _ = dir;
    vec![
        Turn::tools(vec![ToolUse::read(
            plugin_root().join("skills/workflow-state/phase-loop.md").display().to_string(),
        )])
        .expect_user_text_contains("transition to specify: proceed")
        .expect_user_text_contains("specify: not started"),
        Turn::tools(vec![ToolUse::bash("workflow-state phase start specify --feature 001-login")])
            .expect_tool_result_contains("# The phase loop"),
    ]
}

#[test]
fn approved_on_the_first_pass() {
    let (f, dir) = fixture("standard");
    let mut main = opening(&dir);
    main.extend(iteration(&dir, "Initial spec.", Some("\"start\":\"started\"")));
    main.push(
        Turn::text("Phase specify complete (1 iteration). Next: /phasegate:design")
            .expect_tool_result_contains("\"decision\":\"approved\""),
    );
    let api = MockApi::start(Scenario::new().main(main).agent(REVIEWER, reviewer_turns(&[APPROVE], &dir)));
    let out = f.claude().prompt("/phasegate:specify").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();

    let meta = f.meta("001-login");
    let rec = &meta["phases"]["specify"];
    assert_eq!(meta["currentPhase"], "specify");
    assert_eq!(rec["iterations"], 1);
    assert_eq!(rec["outcome"], "approved");
    assert!(rec["started"].is_string() && rec["completed"].is_string());
    assert_eq!(rec["reviewerNotes"], serde_json::json!([]));
    assert_eq!(rec["summary"], "Requirements and criteria are complete.");
    let history = f.read("docs/features/001-login/.review-history.md");
    assert!(history.starts_with("## Phase: specify\n\n### Iteration 1 - "), "{history}");
    assert!(history.contains("**Reviewer Feedback:**\nRequirements and criteria are complete.\n"), "{history}");
    assert!(history.contains("**Issues:**\n- [note] R3 wording could be tighter (R3)\n"), "{history}");
    assert!(history.contains("**Changes Made:**\nInitial spec.\n\n---\n"), "{history}");
    assert_eq!(history.matches("### Iteration").count(), 1);
}

#[test]
fn the_mode_cap_ends_the_loop() {
    let (f, dir) = fixture("quick");
    let mut main = opening(&dir);
    main.extend(iteration(&dir, "Initial spec.", Some("\"maxIterations\":2")));
    main.extend(iteration(&dir, "Added criteria for R2.", Some("\"decision\":\"revise\"")));
    main.push(
        Turn::text("Phase specify complete after 2 iterations with reviewer concerns.")
            .expect_tool_result_contains("\"decision\":\"cap-reached\""),
    );
    let api = MockApi::start(Scenario::new().main(main).agent(REVIEWER, reviewer_turns(&[REJECT, REJECT], &dir)));
    let out = f.claude().prompt("/phasegate:specify").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();

    let rec = &f.meta("001-login")["phases"]["specify"];
    assert_eq!(rec["iterations"], 2);
    assert_eq!(rec["outcome"], "cap-reached");
    assert!(rec["completed"].is_string());
    assert_eq!(
        rec["reviewerNotes"],
        serde_json::json!([
            "[blocker] no acceptance criteria for R2 (Acceptance criteria)",
            "[warning] scope boundary vague (Scope)"
        ])
    );
    // The counts are the last verdict's, not a sum over the iterations.
    assert_eq!(rec["issues"], serde_json::json!({"blocker": 1, "warning": 1, "note": 0}));
    let history = f.read("docs/features/001-login/.review-history.md");
    assert_eq!(history.matches("## Phase: specify").count(), 1, "{history}");
    assert_eq!(history.matches("### Iteration").count(), 2, "{history}");
    assert!(history.contains("**Changes Made:**\nAdded criteria for R2.\n"), "{history}");
}

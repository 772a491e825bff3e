//! What a feature costs, from the transcripts the real Claude Code writes
//! (the scripted API returns chosen usage numbers): a phase with its chain
//! reviewer and a message split over lines, a reopened phase, /compact in
//! the middle, an implement with two delegated tasks in parallel, and a
//! pipeline.

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};
use serde_json::Value;

use crate::support::Fixture;

const REVIEWER: &str = "You are phasegate's chain reviewer";
const APPROVE: &str = r#"{"approved": true, "issues": [], "summary": "Ready."}"#;
const SUMMARY_REQUEST: &str = "Your task is to create a detailed summary";

/// `workflow-state <args>` run as the user whose Claude Code wrote the
/// transcripts (its HOME), outside any session; its stdout.
fn as_user(f: &Fixture, args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new(crate::support::WORKFLOW_STATE)
        .args(args)
        .current_dir(&f.repo)
        .env("HOME", &f.home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// `workflow-state cost --json`, as the user.
fn cost_json(f: &Fixture, args: &[&str]) -> Value {
    let v: Value = serde_json::from_slice(&as_user(f, &[&["cost", "--json"], args].concat())).unwrap();
    assert!(v.get("problems").is_none(), "nothing skipped: {v:#}");
    v
}

fn cost(f: &Fixture, feature: &str) -> Value {
    cost_json(f, &["--feature", feature])
}

fn input(v: &Value) -> u64 {
    v["input"].as_u64().unwrap_or_else(|| panic!("no input in {v}"))
}

#[test]
fn a_phase_with_its_reviewer_reopened_and_compacted_costs_what_its_windows_hold() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "search"]);
    let dir = f.path("docs/features/001-search");
    let record = "workflow-state review record specify --feature 001-search";
    // Each turn reports its own usage, so every sum below names its turns.
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                // Before the phase starts: the command's first request, the
                // phase's it starts (issue 31: it was "outside the phases").
                Turn::tools(vec![ToolUse::bash("workflow-state phase start specify --feature 001-search")])
                    .usage(1, 1, 0, 0),
                // A message of two blocks: Claude Code writes a line per block.
                Turn::text_then_tools(
                    "Writing the spec.",
                    vec![ToolUse::write(
                        dir.join("spec.md").display().to_string(),
                        "# Spec\n\n## Requirements\n\n- **R1**: find by title\n",
                    )],
                )
                .usage(10, 2, 1000, 100),
                Turn::tools(vec![ToolUse::bash("workflow-state review brief specify --feature 001-search")])
                    .usage(40, 2, 0, 0),
                Turn::tools(vec![ToolUse::agent_briefed("phasegate:chain-reviewer")]).usage(20, 2, 0, 0),
                Turn::tools(vec![ToolUse::bash(record)]).usage(80, 2, 0, 0),
                // After it completed: outside again.
                Turn::text("Specified.").usage(2, 1, 0, 0).expect_tool_result_contains("\"decision\":\"approved\""),
            ])
            .agent(REVIEWER, vec![Turn::text(APPROVE).usage(500, 50, 0, 0)]),
    );
    let out = f.claude().prompt("/phasegate:specify 001-search").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let session = out.session_id().expect("a session id");

    let c = cost(&f, "001-search");
    let specify = &c["phases"]["specify"];
    // 1 (the command's first request) + 10 + 20 + 40 + 80 from the
    // session, 500 from its reviewer; the split message counted once.
    assert_eq!(input(specify), 651, "{c:#}");
    assert_eq!(specify["cacheRead"], 1000, "{c:#}");
    assert_eq!(specify["cacheWrite"], 100, "{c:#}");
    assert_eq!(input(&c["outside"]), 2, "after the completion: {c:#}");
    assert_eq!(input(&c["agents"]["phasegate:chain-reviewer"]), 500, "{c:#}");
    assert_eq!(input(&c["agents"]["main"]), 153, "{c:#}");
    assert_eq!(input(&c["total"]), 653, "{c:#}");
    assert!(c["total"]["usd"].as_f64().unwrap() > 0.0, "{c:#}");
    assert_eq!(c["sessions"], serde_json::json!([session]));

    // /compact in the middle, then specify reopened: its second window adds.
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::text("<summary>The spec of 001-search is written.</summary>")
            .usage(7000, 70, 0, 0)
            .expect_user_text_contains(SUMMARY_REQUEST),
    ]));
    let out = f.claude().prompt("/compact").args(["--resume", &session]).run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    // Reopened: its reviewer approves again (its requests cost nothing here).
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::bash("workflow-state phase start specify --fresh --feature 001-search")])
                    .usage(3, 1, 0, 0),
                Turn::tools(vec![ToolUse::bash("workflow-state review brief specify --feature 001-search")])
                    .usage(3000, 30, 0, 0),
                Turn::tools(vec![ToolUse::agent_briefed("phasegate:chain-reviewer")]).usage(0, 0, 0, 0),
                Turn::tools(vec![ToolUse::bash(record)]).usage(0, 0, 0, 0),
                Turn::text("Reopened and done.")
                    .usage(4, 1, 0, 0)
                    .expect_tool_result_contains("\"decision\":\"approved\""),
            ])
            .agent(REVIEWER, vec![Turn::text(APPROVE).usage(0, 0, 0, 0)]),
    );
    let out = f.claude().prompt("Reopen the spec.").args(["--resume", &session]).run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let c = cost(&f, "001-search");
    assert_eq!(input(&c["phases"]["specify"]), 651 + 3000, "the reopened window counts: {c:#}");
    // Claude Code 2.1.328 records the summary of /compact, not its request's
    // usage: the transcript has no usage of it to count. Every message
    // before and after it is counted once.
    // "Reopen the spec." is no phase command: its first request (3) stays
    // between the windows.
    assert_eq!(input(&c["outside"]), 2 + 3 + 4, "the turns between windows: {c:#}");
    assert_eq!(input(&c["total"]), 653 + 3 + 3000 + 4, "{c:#}");
    let meta = f.meta("001-search");
    assert_eq!(meta["phases"]["specify"]["windows"].as_array().map(Vec::len), Some(1), "{meta:#}");

    // The report draws it: specify and outside as bars, the reviewer's row.
    let html = String::from_utf8(as_user(&f, &["report", "--out", "-"])).unwrap();
    let chart = html.split("data-chart=\"cost-by-phase\" data-subject=\"001-search\"").nth(1).expect("its chart");
    let chart = chart.split("</figure>").next().unwrap();
    assert!(chart.contains("\nspecify\n</text>") && chart.contains("\noutside\n</text>"), "{chart}");
    assert!(html.contains("<td>phasegate:chain-reviewer</td>"), "the reviewer's row");
}

/// The package `tasks context` gives a delegate starts with these lines.
fn package(task: &str, title: &str) -> String {
    format!(
        "FEATURE: 001-users (docs/features/001-users); work in the project\nCONTEXT:\n(the spec)\n\nTASK: {task}: {title}\n\nSUCCESS: Task complete when its test passes\n"
    )
}

#[test]
fn two_tasks_delegated_in_parallel_each_cost_what_their_implementer_used() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "users"]);
    f.write("docs/features/001-users/spec.md", "# Spec\n");
    f.write(
        "docs/features/001-users/tasks.md",
        "## Routes (parallel)\n\n- [ ] T1: List users [`files: src/list.ts`]\n- [ ] T2: Show a user [`files: src/show.ts`]\n",
    );
    for phase in ["brainstorm", "specify", "design", "create-plan", "create-tasks"] {
        f.ws(&["phase", "complete", phase, "--feature", "001-users"]);
    }
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::bash("workflow-state phase start implement --feature 001-users")]).usage(1, 1, 0, 0),
                Turn::tools(vec![ToolUse::bash(
                    "workflow-state tasks start T1 --feature 001-users && workflow-state tasks start T2 --feature 001-users",
                )])
                .usage(2, 1, 0, 0),
                // Both delegates at once.
                Turn::tools(vec![
                    ToolUse::agent("phasegate:task-implementer", package("T1", "List users")),
                    ToolUse::agent("phasegate:task-implementer", package("T2", "Show a user")),
                ])
                .usage(40, 1, 0, 0),
                Turn::tools(vec![ToolUse::bash(
                    "workflow-state tasks complete T1 --feature 001-users && workflow-state tasks complete T2 --feature 001-users",
                )])
                .usage(80, 1, 0, 0),
                Turn::text("Both done.").usage(5, 1, 0, 0),
            ])
            // Which one asks first is up to Claude Code: each uses as much.
            .agent(
                "You implement one task of a phasegate feature",
                vec![Turn::text("Done.").usage(1000, 100, 0, 0), Turn::text("Done.").usage(1000, 100, 0, 0)],
            ),
    );
    let out = f.claude().prompt("/phasegate:implement 001-users").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let c = cost(&f, "001-users");
    assert_eq!(input(&c["tasks"]["T1"]), 1000, "T1's implementer, and nothing of T2's: {c:#}");
    assert_eq!(input(&c["tasks"]["T2"]), 1000, "{c:#}");
    // The session's own turns while both were in progress are the two's, not spread.
    assert_eq!(input(&c["tasks"]["T1+T2"]), 40 + 80, "{c:#}");
    assert_eq!(input(&c["agents"]["phasegate:task-implementer"]), 2000, "{c:#}");
    // The command's first request (before `phase start`) is implement's too.
    assert_eq!(input(&c["phases"]["implement"]), 1 + 2 + 40 + 80 + 5 + 2000, "{c:#}");
}

#[test]
fn a_pipeline_costs_what_its_states_windows_hold() {
    let f = Fixture::repo();
    let feature = f.pipeline_at_final_gate("pipeline-session", "true", 3);
    let api = MockApi::start(Scenario::new().main(vec![
            Turn::tools(vec![ToolUse::bash(format!("workflow-state pipeline status --feature {feature}"))])
                .usage(11, 1, 0, 0),
            Turn::text("Looked.").usage(300, 3, 0, 0),
        ]));
    let out = f.claude().prompt("/phasegate:pipeline").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let c = cost(&f, &feature);
    let state = f.task_json(&feature, "state.json")["state"].as_str().unwrap().to_owned();
    // The command's brief turned the session to the pipeline before its
    // first request: both are the state's.
    assert_eq!(input(&c["phases"][&state]), 11 + 300, "the state the pipeline was in: {c:#}");
    // All of it: the report without --feature names the pipeline too.
    let all = cost_json(&f, &[]);
    assert!(all["features"].as_array().unwrap().iter().any(|x| x["feature"] == feature.as_str()), "{all:#}");
}

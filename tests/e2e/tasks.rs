//! An orchestrated implement in the real Claude Code (issue 9): three tasks
//! reviewed task by task: T1 approved at once; T2 reviewed by an agent the
//! test adds to `.claude/agents/`, sent back once, the session killed
//! mid-task and a new one resuming at cycle 2; T3 at its cap, escalated and
//! skipped. Then two independent tasks in their own worktrees, merged.

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};

use crate::support::Fixture;

const CODE_REVIEWER: &str = "You are the code reviewer of a phasegate pipeline";
const AUDITOR: &str = "You audit the security of one change.";

fn ws(args: &str) -> String {
    format!("workflow-state {args} --feature 001-login")
}

#[test]
fn three_tasks_reviewed_in_cycles_with_a_reviewer_chosen_at_run_time_and_a_killed_session_resumed() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "login"]);
    f.write(
        "docs/features/001-login/tasks.md",
        "- [ ] T1: Add the form\n  - Files: src/form.rs\n- [ ] T2: Check the token\n  - Files: src/token.rs\n  - Depends on: T1\n- [ ] T3: Add the audit log\n  - Files: src/audit.rs\n  - Depends on: T2\n",
    );
    // An agent the project adds: no code knows its name.
    f.write(
        ".claude/agents/security-auditor.md",
        &format!("---\nname: security-auditor\ndescription: Reviews authentication, tokens and secrets.\ntools: Read, Grep, Glob\n---\n{AUDITOR}\n"),
    );
    let src = |name: &str| f.path(&format!("src/{name}")).display().to_string();

    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::bash(ws("tasks start T1"))]),
                Turn::tools(vec![ToolUse::write(src("form.rs"), "pub fn form() {}\n")]),
                Turn::tools(vec![ToolUse::bash(ws("tasks review T1 --reviewer phasegate:code-reviewer"))]),
                Turn::tools(vec![ToolUse::agent_briefed("phasegate:code-reviewer")])
                    .expect_tool_result_contains("REVIEW REQUEST [Cycle: 1/3]"),
                Turn::tools(vec![ToolUse::bash(ws("tasks record T1"))]).expect_tool_result_contains("LGTM"),
                Turn::tools(vec![ToolUse::bash(ws("tasks start T2"))])
                    .expect_tool_result_contains("\"decision\":\"approved\"")
                    .expect_tool_result_contains("\"ticked\":true"),
                Turn::tools(vec![ToolUse::write(src("token.rs"), "pub fn check(t: &str) { println!(\"{t}\"); }\n")]),
                Turn::tools(vec![ToolUse::bash(ws("tasks reviewers T2"))]),
                Turn::tools(vec![ToolUse::bash(ws("tasks review T2 --reviewer security-auditor"))])
                    .expect_tool_result_contains("\"name\":\"security-auditor\"")
                    .expect_tool_result_contains("\"priority\":\"security\""),
                Turn::tools(vec![ToolUse::agent_briefed("security-auditor")]),
                Turn::tools(vec![ToolUse::bash(ws("tasks record T2"))]),
                // The session dies mid-task.
                Turn::tools(vec![ToolUse::bash("kill -9 $PPID")])
                    .expect_tool_result_contains("\"decision\":\"revise\""),
            ])
            .agent(CODE_REVIEWER, vec![Turn::text("LGTM")])
            .agent(AUDITOR, vec![Turn::text("NEEDS REVISION\nThe token is printed.")]),
    );
    const KILLED: &str = "0b1e55ed-0000-4000-8000-00000000000e";
    let out = f.claude().args(["--session-id", KILLED]).prompt("/phasegate:implement 001-login").run(&api);
    assert!(!out.success() && !out.timed_out, "the session was killed: {}", out.report());
    // Every request up to the kill fit the script, and the kill is its last
    // turn: all turns handed out means the session died there, not earlier.
    let mismatches = api.mismatches();
    assert!(mismatches.is_empty(), "the killed session's requests: {mismatches:#?}\n{}", api.report());
    let unconsumed = api.unconsumed_turns();
    assert!(unconsumed.is_empty(), "the session died before its kill turn: {unconsumed:#?}\n{}", api.report());
    // The killed session held T2's file; its lease expires once it has been
    // silent for 5 minutes (docs/coordination.md). The binaries read the
    // real clock, so its last heartbeat is moved back instead of waited for.
    let record = f.path(&format!(".git/phasegate/sessions/{KILLED}.json"));
    let silent = std::time::SystemTime::now() - std::time::Duration::from_secs(5 * 60 + 1);
    let mut r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    r["heartbeat_at"] = serde_json::json!(phasegate_core::time::stamp(chrono::DateTime::from(silent)));
    std::fs::write(&record, r.to_string()).unwrap();
    std::fs::File::options().write(true).open(&record).unwrap().set_modified(silent).unwrap();
    let cycles: serde_json::Value =
        serde_json::from_str(&f.read("docs/features/001-login/.review-cycles.json")).unwrap();
    assert_eq!(cycles["sessions"]["001-login"]["tasks"]["T2"]["current_cycle"], 2);

    // A new session resumes T2 at cycle 2 with the same reviewer, then T3 hits its cap.
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::write(src("token.rs"), "pub fn check(t: &str) -> bool { !t.is_empty() }\n")]),
                Turn::tools(vec![ToolUse::bash(ws("tasks review T2 --reviewer security-auditor"))]),
                Turn::tools(vec![ToolUse::agent_briefed("security-auditor")])
                    .expect_tool_result_contains("REVIEW REQUEST [Cycle: 2/3]")
                    .expect_tool_result_contains("Previous Issues:"),
                Turn::tools(vec![ToolUse::bash(ws("tasks record T2"))]),
                Turn::tools(vec![ToolUse::bash(ws("tasks start T3"))]).expect_tool_result_contains("\"ticked\":true"),
                Turn::tools(vec![ToolUse::write(src("audit.rs"), "pub fn audit() {}\n")]),
                Turn::tools(vec![ToolUse::bash(ws(
                    "tasks review T3 --reviewer phasegate:code-reviewer --max-cycles 2",
                ))]),
                Turn::tools(vec![ToolUse::agent_briefed("phasegate:code-reviewer")]),
                Turn::tools(vec![ToolUse::bash(ws("tasks record T3"))]),
                Turn::tools(vec![ToolUse::bash(ws("tasks review T3 --reviewer phasegate:code-reviewer"))])
                    .expect_tool_result_contains("\"decision\":\"revise\""),
                Turn::tools(vec![ToolUse::agent_briefed("phasegate:code-reviewer")])
                    .expect_tool_result_contains("REVIEW REQUEST [Cycle: 2/2]"),
                Turn::tools(vec![ToolUse::bash(ws("tasks record T3"))]),
                // Headless: the escalation is queued with its default, skip.
                Turn::tools(vec![ToolUse::bash(ws("tasks skip T3"))])
                    .expect_tool_result_contains("\"decision\":\"cap-reached\"")
                    .expect_tool_result_contains("\"proceedWith\":\"Skip\""),
                Turn::text("T1 and T2 are done; T3 was skipped after two review cycles."),
            ])
            .agent(CODE_REVIEWER, vec![Turn::text("-1\nNo tests."), Turn::text("BLOCKED\nStill no tests.")])
            .agent(AUDITOR, vec![Turn::text("APPROVED")]),
    );
    let out = f.claude().prompt("/phasegate:implement 001-login").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let tasks = f.read("docs/features/001-login/tasks.md");
    assert!(tasks.contains("- [x] T1") && tasks.contains("- [x] T2") && tasks.contains("- [-] T3"), "{tasks}");
}

#[test]
fn two_independent_tasks_run_in_parallel_worktrees_and_merge() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "login"]);
    f.write(
        "docs/features/001-login/tasks.md",
        "## Endpoints (parallel)\n\n- [ ] **Search** [`files: src/search.rs`]\n- [ ] **Export** [`files: src/export.rs`]\n",
    );
    let wt = |t: &str| f.path(&format!(".worktrees/001-login--{t}")).display().to_string();
    let commit = |t: &str, file: &str| {
        format!("cd {} && git add {file} && git -c user.name=d -c user.email=d@d commit -q -m {t}", wt(t))
    };
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash(ws("tasks next --json --parallel"))]),
        Turn::tools(vec![ToolUse::bash(ws("tasks start T1")), ToolUse::bash(ws("tasks start T2"))])
            .expect_tool_result_contains("\"tasks\":[\"T1\",\"T2\"]"),
        Turn::tools(vec![ToolUse::bash(ws("tasks worktree T1")), ToolUse::bash(ws("tasks worktree T2"))]),
        // The two delegates, each in its own checkout.
        Turn::tools(vec![
            ToolUse::write(format!("{}/src/search.rs", wt("t1")), "pub fn search() {}\n"),
            ToolUse::write(format!("{}/src/export.rs", wt("t2")), "pub fn export() {}\n"),
        ])
        .expect_tool_result_contains("\"branch\":\"task/001-login/T2\""),
        Turn::tools(vec![ToolUse::bash(commit("t1", "src/search.rs")), ToolUse::bash(commit("t2", "src/export.rs"))]),
        Turn::tools(vec![ToolUse::bash(ws("tasks merge T1")), ToolUse::bash(ws("tasks merge T2"))]),
        Turn::text("Both merged.").expect_tool_result_contains("\"result\":\"merge\""),
    ]));
    let out = f.claude().prompt("/phasegate:implement 001-login").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(f.read("src/search.rs"), "pub fn search() {}\n");
    assert_eq!(f.read("src/export.rs"), "pub fn export() {}\n");
    assert!(!f.path(".worktrees/001-login--t1").exists());
}

//! Done means proven, in the real Claude Code: implement writes a test and
//! names it as a requirement's check in tasks.md, verify runs the checks
//! (`verify run`), a failing requirement is fixed and the checks run
//! again, and finish is refused until the ledger proves every requirement
//! at the tree as it is, then accepted.

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};
use serde_json::json;

use crate::support::Fixture;

const SPEC: &str = "# Spec\n\n## Requirements\n\n- **R1**: search finds a title\n  - Given \"Dune\", When searching \"Dune\", Then it is found\n- **R2**: search ignores case\n  - Given \"Dune\", When searching \"dune\", Then it is found\n";

const BUGGY: &str = "#!/bin/sh\n# search <term>: the titles that match\ngrep -F -- \"$1\" titles.txt\n";
const FIXED: &str =
    "#!/bin/sh\n# search <term>: the titles that match, whatever the case\ngrep -iF -- \"$1\" titles.txt\n";
const TEST: &str = "#!/bin/sh\n# R1 and R2 of 001-search\ncase \"$1\" in\n  title) sh search.sh Dune | grep -q Dune ;;\n  case) sh search.sh dune | grep -q Dune ;;\nesac\n";

#[test]
fn implement_writes_a_check_verify_runs_it_and_finish_waits_for_the_proof() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "search"]);
    let dir = f.path("docs/features/001-search");
    f.write("docs/features/001-search/spec.md", SPEC);
    f.write(
        "docs/features/001-search/tasks.md",
        "# Tasks\n\n- [ ] T1: Search titles\n  - Done when: tests/search.sh passes\n",
    );
    f.write("titles.txt", "Dune\nEmma\n");
    for phase in ["brainstorm", "specify", "design", "create-plan", "create-tasks"] {
        f.ws(&["phase", "complete", phase, "--feature", "001-search"]);
    }
    let tasks = dir.join("tasks.md").display().to_string();
    let checks = "- [ ] T1: Search titles\n  - Done when: tests/search.sh passes\n\n## Checks\n\n- R1: `sh tests/search.sh title`\n- R2: `sh tests/search.sh case`\n";

    // Implement: the code, its test, and the test named as each requirement's check.
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::write(f.path("search.sh").display().to_string(), BUGGY)]),
        Turn::tools(vec![ToolUse::write(f.path("tests/search.sh").display().to_string(), TEST)]),
        Turn::tools(vec![ToolUse::read(&tasks)]),
        Turn::tools(vec![ToolUse::new(
            "Edit",
            json!({"file_path": tasks, "old_string": "- [ ] T1: Search titles\n  - Done when: tests/search.sh passes\n", "new_string": checks}),
        )]),
        Turn::tools(vec![ToolUse::bash("workflow-state verify list --feature 001-search")]),
        Turn::text("Implemented T1.")
            .expect_tool_result_contains("R1 search finds a title — `sh tests/search.sh title`")
            .expect_tool_result_contains("R2 search ignores case — `sh tests/search.sh case`"),
    ]));
    let out = f.claude().prompt("/phasegate:implement 001-search").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();

    // Verify: R2 fails, finish is refused naming it; the fix, the checks
    // again, and finish goes through.
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("workflow-state verify run --feature 001-search")]),
        Turn::tools(vec![ToolUse::bash("workflow-state finish --feature 001-search")])
            .expect_tool_result_contains("R1 proven: search finds a title")
            .expect_tool_result_contains("R2 failed: search ignores case — `sh tests/search.sh case` exited 1")
            .expect_tool_result_contains("Exit code 1"),
        Turn::tools(vec![ToolUse::write(f.path("search.sh").display().to_string(), FIXED)])
            .expect_tool_result_contains("001-search is not proven (1/2 proven)")
            .expect_tool_result_contains("R2 (failed: `sh tests/search.sh case` exited 1)"),
        // A stale run proves nothing: finish before running the checks again is refused.
        Turn::tools(vec![ToolUse::bash("workflow-state finish --feature 001-search")]),
        Turn::tools(vec![ToolUse::bash("workflow-state verify run --feature 001-search")])
            .expect_tool_result_contains("R1 stale (proven before the code changed)"),
        Turn::tools(vec![ToolUse::bash("workflow-state finish --feature 001-search")])
            .expect_tool_result_contains("001-search: 2/2 proven."),
        Turn::text("Verified and finished.").expect_tool_result_contains("\"status\":\"completed\""),
    ]));
    let out = f.claude().prompt("/phasegate:verify 001-search").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let ledger: serde_json::Value = serde_json::from_str(&f.read("docs/features/001-search/evidence.json")).unwrap();
    let statuses: Vec<&str> =
        ledger["requirements"].as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["proven", "proven"]);
    assert_eq!(f.meta("001-search")["status"], "completed");
}

/// Issue 30: a waiver is the person's. In an interactive session, in a real
/// terminal, the model's own `question answer` is refused (even with
/// Claude Code's variables unset), the dialog asks the person, and the
/// choice they make there is what phasegate records: read from Claude
/// Code's transcript of the dialog, never from what the model passed.
#[test]
fn a_waiver_is_the_persons_choice_in_the_dialog_and_the_models_answer_is_refused() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "search"]);
    f.write("docs/features/001-search/spec.md", "# Spec\n\n## Requirements\n\n- **R1**: the page reads well\n");
    let id = "001-search.1";
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash(
            "workflow-state verify waive R1 --reason \"a person reads the page\" --feature 001-search",
        )]),
        Turn::tools(vec![ToolUse::bash(format!("workflow-state question answer {id} Yes"))])
            .expect_tool_result_contains("AskUserQuestion"),
        Turn::tools(vec![ToolUse::bash(format!(
            "env -u CLAUDECODE -u CLAUDE_CODE_ENTRYPOINT -u CLAUDE_CODE_SESSION_ID workflow-state question answer {id} Yes"
        ))])
        .expect_tool_result_contains("never the model"),
        Turn::tools(vec![ToolUse::dialog_printed()]).expect_tool_result_contains("never the model"),
        Turn::tools(vec![ToolUse::bash("workflow-state verify waive R1 --feature 001-search")])
            .expect_tool_result_contains("\"Yes\""),
        Turn::text("R1 is waived.").expect_tool_result_contains("A person waived R1 of 001-search (dialog)"),
    ]));
    let terminal = f.claude_in_terminal(
        &api,
        "'Waive R1 of 001-search: I read the page myself.' --permission-mode default --allowedTools Bash",
    );
    // The dialog, as the person sees it: they pick Yes.
    let screen =
        terminal.wait_for("waive it: done without proof", 90).unwrap_or_else(|e| panic!("{e}\n{}", api.report()));
    assert!(screen.contains("Yes") && screen.contains("No"), "{screen}");
    terminal.press(&["Enter"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !api.is_finished() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let screen = terminal.screen();
    terminal.kill();
    assert!(api.is_finished(), "{screen}\n{}\n{}", api.report(), dialog_records(&f));
    api.assert_finished();
    let ledger: serde_json::Value = serde_json::from_str(&f.read("docs/features/001-search/evidence.json")).unwrap();
    let waiver = &ledger["requirements"][0]["waiver"];
    assert_eq!(waiver["answeredIn"], "dialog", "{ledger}");
    assert_eq!(waiver["question"], id, "{ledger}");
    assert!(f.ws(&["verify", "status", "--feature", "001-search"]).contains("waived"));
}

/// What phasegate and Claude Code kept of the dialog, for a failure's
/// message: the hook's notes and the transcript's lines of the dialog.
fn dialog_records(f: &Fixture) -> String {
    let mut out = String::from("dialog notes:");
    let notes = f.repo.join(".git/phasegate/questions/dialogs");
    for e in std::fs::read_dir(&notes).into_iter().flatten().flatten() {
        out.push_str(&format!("\n  {}", std::fs::read_to_string(e.path()).unwrap_or_default()));
    }
    let questions = f.ws(&["question", "list", "--all"]);
    out.push_str(&format!("\nquestions: {questions}"));
    let problems = f.repo.join(".git/phasegate/hooks/problems.jsonl");
    out.push_str(&format!("\nhooks' problems: {}", std::fs::read_to_string(&problems).unwrap_or_default()));
    out.push_str("\ntranscript lines of the dialog:");
    let projects = f.home.join(".claude/projects");
    for dir in std::fs::read_dir(&projects).into_iter().flatten().flatten() {
        for file in std::fs::read_dir(dir.path()).into_iter().flatten().flatten() {
            let text = std::fs::read_to_string(file.path()).unwrap_or_default();
            for line in
                text.lines().filter(|l| l.contains("AskUserQuestion") || l.contains("toolUseResult\":{\"questions"))
            {
                let v = serde_json::from_str::<serde_json::Value>(line).unwrap_or_default();
                let shown = match v.get("toolUseResult") {
                    Some(r) => format!("toolUseResult {r}"),
                    None => line.chars().take(400).collect::<String>(),
                };
                out.push_str(&format!("\n  at {}: {shown}", v["timestamp"]));
            }
        }
    }
    out
}

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
            .expect_tool_result_contains("R1 (proven: stale: the tree changed since it ran)"),
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

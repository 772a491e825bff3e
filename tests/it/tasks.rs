//! `workflow-state tasks …` on real feature folders: both task-list forms,
//! the next ready task(s), and checkboxes ticked by the binary only.

use serde_json::Value;

use crate::util::TestEnv;

const PLAN: &str = "# Tasks\n\n## Phase 1: Foundation\n\n- [ ] **Create the schema** [`agent: the-developer`] [`review: true`] [`review_focus: security`]\n  - Files: db/schema.sql\n\n## Phase 2: Endpoints (parallel)\n\n- [ ] **Search** [`files: src/search.rs`] [`depends_on: T1`]\n- [ ] **Export** [`files: src/export.rs`]\n- [ ] **Report** [`files: src/search.rs`] [`owner: bob`]\n- [ ] **Validation**: every endpoint test passes\n";

fn setup(text: &str) -> (TestEnv, String) {
    let env = TestEnv::new();
    let f = env.feature("api", "standard");
    env.write(&format!("docs/features/{f}/tasks.md"), text);
    (env, f)
}

fn next(env: &TestEnv, parallel: bool) -> Value {
    let mut args = vec!["tasks", "next", "--json"];
    if parallel {
        args.push("--parallel");
    }
    env.ws(&args).ok().json()
}

#[test]
fn tasks_list_json_gives_every_field_and_reports_unknown_metadata() {
    let (env, f) = setup(PLAN);
    let l = env.ws(&["tasks", "list", "--json"]).ok().json();
    assert_eq!(l["feature"], f.as_str());
    assert_eq!(l["tasks"].as_array().unwrap().len(), 5);
    let t1 = &l["tasks"][0];
    assert_eq!(
        (t1["id"].as_str(), t1["agent"].as_str(), t1["review"].as_bool()),
        (Some("T1"), Some("the-developer"), Some(true))
    );
    assert_eq!(t1["files"][0], "db/schema.sql");
    assert_eq!(l["phases"][1]["execution"], "parallel");
    assert_eq!(l["phases"][0]["title"], "Phase 1: Foundation");
    assert_eq!(l["tasks"][4]["checkpoint"], true);
    assert_eq!(l["warnings"][0]["line"], 12);
    assert!(l["warnings"][0]["message"].as_str().unwrap().contains("owner"));
    env.ws(&["tasks", "list"]).ok().stdout_has("warning: docs/features/001-api/tasks.md:12: unknown metadata `owner`");
}

#[test]
fn the_binary_ticks_the_checkboxes_and_next_follows_them() {
    let (env, f) = setup(PLAN);
    assert_eq!(next(&env, true)["tasks"], serde_json::json!(["T1"]));
    // Not ready: refused with the reason; nothing written.
    env.ws(&["tasks", "start", "T2"]).code(1).stderr_has("depends on T1");
    env.ws(&["tasks", "start", "T1"]).ok();
    let file = format!("docs/features/{f}/tasks.md");
    assert!(env.read(&file).contains("- [~] **Create the schema**"));
    env.ws(&["tasks", "complete", "T1"]).ok();
    assert!(env.read(&file).contains("- [x] **Create the schema**"));
    // The parallel phase: T2 and T3 at once; T4 shares src/search.rs with T2.
    let batch = next(&env, true);
    assert_eq!(batch["tasks"], serde_json::json!(["T2", "T3"]));
    assert_eq!(batch["details"][0]["title"], "Search");
    env.ws(&["tasks", "start", "T2"]).ok();
    // A failure with no output is an unknown error: the user decides.
    let failed = env.ws(&["tasks", "fail", "T2", "--headless"]).ok().json();
    assert_eq!((failed["decision"]["action"].as_str(), failed["mark"].as_str()), (Some("ESCALATE"), Some("failed")));
    assert_eq!(failed["escalation"]["route"], "suspend");
    assert!(next(&env, true)["reason"].as_str().unwrap().contains("suspended"));
    env.ws(&["question", "answer", &format!("{f}.1"), "Retry"]).ok();
    // The rest of the phase goes on around the failed task.
    assert_eq!(next(&env, true)["tasks"], serde_json::json!(["T3", "T4"]));
    env.ws(&["tasks", "start", "T2"]).ok();
    env.ws(&["tasks", "complete", "T2"]).ok();
    env.ws(&["tasks", "complete", "T2"]).code(1).stderr_has("T2 is done");
    env.ws(&["tasks", "skip", "T4"]).ok();
    env.ws(&["tasks", "complete", "T3"]).ok();
    assert_eq!(next(&env, false)["tasks"], serde_json::json!(["T5"]));
    env.ws(&["tasks", "complete", "T5"]).ok();
    assert_eq!(next(&env, false)["reason"], "every task is done or skipped");
    // Only the checkboxes changed.
    let expected = PLAN
        .replace("- [ ] **Create", "- [x] **Create")
        .replace("- [ ] **Search", "- [x] **Search")
        .replace("- [ ] **Export", "- [x] **Export")
        .replace("- [ ] **Report", "- [-] **Report")
        .replace("- [ ] **Validation", "- [x] **Validation");
    assert_eq!(env.read(&file), expected);
}

#[test]
fn todays_tasks_md_still_works() {
    let (env, _) = setup(
        "- [x] T1 (step 1): model\n  - Done when: model_test passes\n  - Depends on: none\n- [ ] T2 (step 1): api\n  - Depends on: T1\n",
    );
    let n = next(&env, false);
    assert_eq!(n["tasks"], serde_json::json!(["T2"]));
    assert_eq!(n["details"][0]["dependsOn"], serde_json::json!(["T1"]));
}

#[test]
fn a_malformed_task_list_exits_2_with_line_numbers() {
    let (env, _) = setup("- [ ] T1: a\n  - Depends on: T7\n- [?] T2: b\n");
    let out = env.ws(&["tasks", "list", "--json"]).code(2);
    out.stderr_has("tasks.md cannot be read as a task list").stderr_has("line 3: `- [?] T2: b` is not a task checkbox");
    out.stderr_has("line 1: T1 depends on T7");
    env.ws(&["tasks", "start", "T9"]).code(2);
    let empty = TestEnv::new();
    empty.feature("x", "standard");
    empty.ws(&["tasks", "next"]).code(2).stderr_has("tasks.md does not exist");
}

#[test]
fn a_suspended_feature_hands_out_no_task() {
    let (env, f) = setup(PLAN);
    let q = env.write("q.json", r#"{"type": "blocking", "text": "Which database?"}"#);
    env.ws(&["question", "ask", "--file", q.to_str().unwrap(), "--headless", "--feature", &f]).ok();
    let n = next(&env, true);
    assert!(n["tasks"].as_array().unwrap().is_empty());
    assert!(n["reason"].as_str().unwrap().contains("suspended on 001-api.1"));
    let l = env.ws(&["tasks", "list", "--json"]).ok().json();
    assert_eq!(
        (l["suspended"]["id"].as_str(), l["suspended"]["question"].as_str()),
        (Some("001-api.1"), Some("Which database?"))
    );
    env.ws(&["tasks", "list"]).ok().stdout_has("suspended: 001-api waits for the answer to 001-api.1");
}

#[test]
fn tasks_context_builds_the_delegates_package_from_the_features_documents() {
    let (env, f) = setup(PLAN);
    env.write(&format!("docs/features/{f}/spec.md"), "# Spec\nR1: search and export endpoints.\n");
    env.write(&format!("docs/features/{f}/plan.md"), "# Plan\n1. Schema. 2. Endpoints.\n");
    let c = env.ws(&["tasks", "context", "T2"]).ok().json();
    assert_eq!(c["agent"], "phasegate:task-implementer");
    let p = c["prompt"].as_str().unwrap();
    let root = env.root().display().to_string();
    assert!(
        p.starts_with(&format!("FEATURE: {f} ({root}/docs/features/{f}); work in {root}\nCONTEXT:\n--- spec.md ---\n# Spec\nR1: search and export endpoints.\n--- plan.md ---\n")),
        "{p}"
    );
    assert!(p.contains("Builds on:\n- T1: Create the schema (pending)\n"), "{p}");
    assert!(p.contains("\nTASK: T2: Search\nFiles: src/search.rs\n"), "{p}");
    assert!(p.contains("\nEXCLUDE: anything outside this task"), "{p}");
    assert_eq!(env.ws(&["tasks", "context", "T1"]).ok().json()["agent"], "the-developer");
}

/// Regression: `tasks list` printed "Docs (parallel) (parallel)": a heading
/// that already says how its tasks run is shown as written; one that does
/// not gets the execution added.
#[test]
fn tasks_list_prints_docs_parallel_parallel() {
    let (env, _f) = setup(
        "## Setup (sequential)\n\n- [ ] T1: Add the schema\n\n## Docs (parallel)\n\n- [ ] T2: Write the guide\n- [ ] T3: Write the reference\n\n## Endpoints\n\n- [ ] T4: Add search [`parallel: true`]\n\n## Wrap-up\n\n- [ ] T5: Release\n",
    );
    let out = env.ws(&["tasks", "list"]).ok().stdout;
    let headings: Vec<&str> = out.lines().filter(|l| !l.starts_with('[')).collect();
    assert_eq!(
        headings,
        ["Setup (sequential)", "Docs (parallel)", "Endpoints (parallel)", "Wrap-up (sequential)"],
        "{out}"
    );
}

/// Issue 22: a rollback of a task that declares no files removed the user's new files and hid where copies went.
#[test]
fn a_rollback_of_a_task_that_declares_no_files_removed_the_users_new_files() {
    let (env, _) = setup("- [ ] T1: Tidy the readme\n");
    env.write("notes/plan.md", "the user's draft\n");
    crate::util::commit_all(env.root());
    env.ws(&["tasks", "start", "T1"]).ok();
    // The task edits a tracked file and deletes one; the user writes a new file.
    env.write("README.md", "test repo\nhalf an edit\n");
    std::fs::remove_file(env.path("notes/plan.md")).unwrap();
    env.write("notes/ideas.md", "the user's new ideas\n");
    let out = env.outer().join("out.txt");
    std::fs::write(&out, "error: unexpected end of file").unwrap();
    let failed = env
        .ws(&["tasks", "fail", "T1", "--output-file", out.to_str().unwrap(), "--rollback", "--headless"])
        .ok()
        .json();
    assert_eq!(env.read("notes/ideas.md"), "the user's new ideas\n", "{failed}");
    assert_eq!(failed["kept"], serde_json::json!(["notes/ideas.md"]), "{failed}");
    let mut back: Vec<&str> = failed["rolledBack"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    back.sort();
    assert_eq!(back, ["README.md", "notes/plan.md"], "{failed}");
    assert_eq!(env.read("README.md"), "test repo\n");
    assert_eq!(env.read("notes/plan.md"), "the user's draft\n");
    let saved = failed["savedIn"].as_str().unwrap();
    assert!(saved.contains("/.git/phasegate/rollback/"), "{failed}");
    assert_eq!(
        std::fs::read_to_string(std::path::Path::new(saved).join("README.md")).unwrap(),
        "test repo\nhalf an edit\n"
    );
    let message = failed["message"].as_str().unwrap();
    assert!(message.contains(saved) && message.contains("notes/ideas.md"), "{message}");
}

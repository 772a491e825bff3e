//! Build decisions (seed 004 §5.3) through the real binary: a failed task's
//! output classified and the seed's rule applied, a rollback to the task's
//! checkpoint that keeps the user's earlier uncommitted work, and the
//! build's stop conditions.

use serde_json::Value;

use crate::util::TestEnv;

fn setup(tasks: &str) -> (TestEnv, String) {
    let env = TestEnv::new();
    let f = env.feature("build", "standard");
    env.write(&format!("docs/features/{f}/tasks.md"), tasks);
    (env, f)
}

fn fail(env: &TestEnv, id: &str, output: &str, extra: &[&str]) -> Value {
    // Outside the working tree: a rollback would take it for the task's.
    let out = env.outer().join("out.txt");
    std::fs::write(&out, output).unwrap();
    let out = out.to_str().unwrap().to_owned();
    let mut args = vec!["tasks", "fail", id, "--output-file", &out, "--headless"];
    args.extend_from_slice(extra);
    env.ws(&args).ok().json()
}

#[test]
fn a_syntax_error_is_retried_twice_then_escalated() {
    let (env, _) = setup("- [ ] T1: Add the parser\n");
    for attempt in 1..=2 {
        env.ws(&["tasks", "start", "T1"]).ok();
        let f = fail(&env, "T1", "error: expected one of `;` or `}`, found `let`", &[]);
        assert_eq!(
            (f["error"]["type"].as_str(), f["decision"]["action"].as_str()),
            (Some("SYNTAX_ERROR"), Some("RETRY"))
        );
        assert_eq!(f["attempts"], attempt);
    }
    env.ws(&["tasks", "start", "T1"]).ok();
    let f = fail(&env, "T1", "error: expected one of `;` or `}`, found `let`", &[]);
    assert_eq!(f["decision"]["action"], "ESCALATE");
    assert_eq!(f["escalation"]["route"], "suspend");
}

#[test]
fn a_missing_dependency_names_the_package_and_validation_is_skipped_after_two_attempts() {
    let (env, _) = setup("- [ ] T1: Add the client\n");
    env.ws(&["tasks", "start", "T1"]).ok();
    let f = fail(&env, "T1", "Error: Cannot find module 'zod'\n    at require", &[]);
    assert_eq!(
        (f["decision"]["action"].as_str(), f["decision"]["package"].as_str()),
        (Some("INSTALL_AND_RETRY"), Some("zod"))
    );
    env.ws(&["tasks", "start", "T1"]).ok();
    let f = fail(&env, "T1", "test result: FAILED. 3 passed; 1 failed", &[]);
    assert_eq!((f["decision"]["action"].as_str(), f["mark"].as_str()), (Some("SKIP"), Some("skipped")));
    assert!(env.read("docs/features/001-build/tasks.md").starts_with("- [-] T1"));
}

#[test]
fn a_rollback_undoes_the_task_but_keeps_the_users_earlier_uncommitted_work() {
    let (env, _) = setup("- [ ] T1: Change the readme\n");
    // The user's own edit, uncommitted, before the task starts.
    env.write("README.md", "test repo\nthe user's line\n");
    env.ws(&["tasks", "start", "T1"]).ok();
    env.write("README.md", "test repo\nthe user's line\nthe task's line\n");
    env.write("src/new.rs", "fn half_done() {\n");
    let f = fail(&env, "T1", "error: unexpected end of file", &["--rollback"]);
    assert_eq!(f["rolledBack"], serde_json::json!(["README.md"]));
    assert_eq!(env.read("README.md"), "test repo\nthe user's line\n");
    // T1 declares no files: a file made since may be the user's, and stays.
    assert_eq!(f["kept"], serde_json::json!(["src/new.rs"]));
    assert_eq!(env.read("src/new.rs"), "fn half_done() {\n");
    // phasegate's own files were left alone.
    assert!(env.read("docs/features/001-build/tasks.md").starts_with("- [!] T1"));
}

#[test]
fn the_build_stops_after_more_than_three_failures_and_on_request() {
    // Failures do not hold unrelated tasks, so they add up.
    let (env, _) = setup("- [ ] T1: a\n- [ ] T2: b\n- [ ] T3: c\n- [ ] T4: d\n- [ ] T5: e\n");
    for id in ["T1", "T2", "T3"] {
        env.ws(&["tasks", "start", id]).ok();
        let f = fail(&env, id, "AssertionError: expected 1 but got 2", &[]);
        assert!(f["stop"].is_null(), "{f}");
    }
    env.ws(&["tasks", "start", "T4"]).ok();
    let f = fail(&env, "T4", "AssertionError: expected 1 but got 2", &[]);
    assert!(f["stop"].as_str().unwrap().starts_with("Too many failures (>3)"), "{f}");
    assert!(env.ws(&["tasks", "next", "--json"]).ok().json()["reason"].as_str().unwrap().contains("the build stopped"));
    env.ws(&["tasks", "start", "T5"]).code(1).stderr_has("the build stopped: Too many failures");

    let (env, _) = setup("- [ ] T1: a\n- [ ] T2: b\n");
    env.ws(&["tasks", "stop"]).ok();
    env.ws(&["tasks", "start", "T1"]).code(1).stderr_has("Stop signal received");
    env.ws(&["tasks", "stop", "--clear"]).ok();
    env.ws(&["tasks", "start", "T1"]).ok();
}

//! `workflow-state phase start|complete|show|brief`.

use crate::util::TestEnv;

#[test]
fn start_complete_and_partial_detection() {
    let env = TestEnv::new();
    let name = env.feature("a", "standard");
    let show = |env: &TestEnv| env.ws(&["phase", "show", "brainstorm"]).ok().json();
    assert_eq!(show(&env)["state"], "not-started");

    let out = env.ws(&["phase", "start", "brainstorm"]).ok().json();
    assert_eq!(out["start"], "started");
    assert_eq!(out["maxIterations"], 3);
    assert_eq!(show(&env)["state"], "partial");
    assert_eq!(env.meta(&name)["currentPhase"], "brainstorm");

    // Starting again resumes; --fresh starts over.
    assert_eq!(env.ws(&["phase", "start", "brainstorm"]).ok().json()["start"], "resumed");
    assert_eq!(env.ws(&["phase", "start", "brainstorm", "--fresh"]).ok().json()["start"], "restarted");

    let out = env
        .ws(&["phase", "complete", "brainstorm", "--iterations", "2", "--note", "one", "--note", "two", "--verified"])
        .ok()
        .json();
    assert_eq!(out["record"]["iterations"], 2);
    assert_eq!(out["record"]["reviewerNotes"], serde_json::json!(["one", "two"]));
    assert_eq!(out["record"]["verified"], true);
    assert_eq!(show(&env)["state"], "completed");
    let meta = env.meta(&name);
    assert!(meta["phases"]["brainstorm"]["completed"].is_string());
}

#[test]
fn start_is_refused_when_the_rules_block_it() {
    let env = TestEnv::new();
    let name = env.feature("a", "standard");
    let before = env.read(&format!("docs/features/{name}/.meta.json"));
    let out = env.ws(&["phase", "start", "implement"]).code(1);
    out.stderr_has("implement needs spec.md");
    assert_eq!(env.read(&format!("docs/features/{name}/.meta.json")), before, "a refused start changes nothing");
    // A warning does not block; it is reported.
    let out = env.ws(&["phase", "start", "design"]).ok().json();
    assert!(out["warning"].as_str().unwrap().contains("skips brainstorm, specify"));
}

#[test]
fn brief_always_exits_zero() {
    let env = TestEnv::new();
    // No feature: the message is in stdout and the exit status is 0.
    env.ws(&["phase", "brief", "design"]).ok().stdout_has("phasegate: no active feature");
    let name = env.feature("a", "quick");
    env.ws(&["phase", "start", "specify"]).ok();
    let out = env.ws(&["phase", "brief", "specify"]).ok();
    out.stdout_has(&format!("feature {name} (mode quick, at most 2 reviewer iterations"))
        .stdout_has("specify: PARTIAL")
        .stdout_has("worktree: none");
    env.ws(&["phase", "brief", "implement"]).ok().stdout_has("BLOCKED: implement needs spec.md");
}

#[test]
fn unknown_phases_and_missing_arguments_are_usage_errors() {
    let env = TestEnv::new();
    env.feature("a", "standard");
    env.ws(&["phase", "start", "coding"]).code(2).stderr_has("unknown phase `coding`");
    env.ws(&["phase", "complete", "design", "--iterations", "many"]).code(2);
    env.ws(&["phase"]).code(2);
}

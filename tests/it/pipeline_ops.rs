//! Pipeline operations: reset (with its lock), dry-run, recover, cancel, claim, status.

use crate::util::TestEnv;

const S: &str = "session-1";

#[test]
fn reset_is_guarded_by_a_lock_that_cleans_up_when_stale() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 3);
    let lock = env.task_path(&f, ".orchestrator.lock");
    // A live holder (this test process) refuses the reset.
    std::fs::write(
        &lock,
        format!(
            r#"{{"pid": {}, "host": "{}", "at": "{}", "operation": "reset"}}"#,
            std::process::id(),
            hostname(),
            chrono_now()
        ),
    )
    .unwrap();
    env.ws_as(S, &["pipeline", "reset"]).code(2).stderr_has("is held by process").stderr_has(".orchestrator.lock");
    // A holder whose process is gone is cleaned up.
    std::fs::write(
        &lock,
        format!(r#"{{"pid": 4294967290, "host": "{}", "at": "{}", "operation": "reset"}}"#, hostname(), chrono_now()),
    )
    .unwrap();
    let out = env.ws_as(S, &["pipeline", "reset"]).ok().json();
    assert!(out["note"].as_str().unwrap().contains("removed a stale lock"));
    assert_eq!(out["state"], "idle");
    assert!(!lock.exists(), "the lock is released");
    assert!(!env.task_path(&f, "loop-state.json").exists());
    assert!(!env.task_path(&f, "review-sonnet.json").exists());
    assert!(env.task_path(&f, "plan-refined.json").exists(), "inputs stay");
    let run = env.run_state(&f);
    assert_eq!(
        (run["planReview"]["round"].as_u64(), run["history"].as_array().unwrap().last().unwrap()["note"].as_str()),
        (Some(0), Some("reset"))
    );
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_else(|_| "unknown".into())
}

fn chrono_now() -> String {
    let out = std::process::Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%SZ"]).output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn dry_run_reports_each_check_with_its_fix() {
    let env = TestEnv::new();
    env.ws(&["pipeline", "dry-run"])
        .ok()
        .stdout_has("PASS  agents (5)")
        .stdout_has("no pipeline checked")
        .stdout_has("dry-run: all checks passed");
    let f = env.pipeline(S);
    env.ws(&["pipeline", "dry-run"])
        .ok()
        .stdout_has("PASS  state.json valid: state requirements_gathering")
        .stdout_has("PASS  .task ignored by git");
    // Break things: the state file, the config, the exclusion.
    env.write_task(&f, "state.json", "{");
    env.config(r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"], "whenUnavailable": "block"}}"#);
    std::fs::write(env.path(".git/info/exclude"), "").unwrap();
    let out = env.ws(&["pipeline", "dry-run", "--feature", &f]).code(1);
    out.stdout_has("FAIL  state.json valid")
        .stdout_has("FAIL  .task ignored by git: add `.task/` to .gitignore")
        .stdout_has("FAIL  final gate reviewer: `phasegate-test-no-such-reviewer` not found and finalGate.whenUnavailable = block")
        .stdout_has("check(s) failed");
    let json = env.ws(&["pipeline", "dry-run", "--feature", &f, "--json"]).code(1).json();
    assert_eq!(json["ok"], false);
}

#[test]
fn fail_and_recover_resume_the_failed_phase() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 3);
    env.review_stage(S, &f, "code-reviewer", "sonnet", "approved");
    env.ws_as(S, &["pipeline", "fail", "--message", "the build broke"]).ok();
    assert_eq!(env.run_state(&f)["state"], "error");
    env.ws_as(S, &["pipeline", "next"]).ok().stdout_has("Failed in implementing_loop: the build broke");
    env.ws_as(S, &["pipeline", "recover", "--feature", &f]).ok();
    let run = env.run_state(&f);
    assert_eq!(run["state"], "implementing_loop");
    assert_eq!(run["codeReview"]["results"], serde_json::json!([]), "the round restarts from sonnet");
    env.ws_as(S, &["pipeline", "recover"]).code(1).stderr_has("not in error");
}

#[test]
fn cancel_frees_the_session_and_claim_takes_over() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 3);
    assert!(env.owns_loop(S).is_some());
    let out = env.ws_as(S, &["pipeline", "cancel"]).ok().json();
    assert_eq!(out["loopCancelled"], true);
    assert_eq!(env.loop_state(&f)["active"], false);
    assert_eq!(env.run_state(&f)["paused"]["reason"], "cancelled");
    assert!(env.owns_loop(S).is_none());
    env.ws_as(S, &["pipeline", "resume"]).ok();
    assert_eq!(env.loop_state(&f)["active"], true);
    // Another session claims the pipeline: it owns the loop now.
    env.ws_as("session-2", &["pipeline", "claim", "--feature", &f]).ok();
    assert_eq!(env.run_state(&f)["owner"]["sessionId"], "session-2");
    assert_eq!(env.loop_state(&f)["session_id"], "session-2");
    assert!(env.owns_loop(S).is_none());
    assert!(env.owns_loop("session-2").is_some());
    env.ws(&["pipeline", "claim", "--feature", &f]).code(2).stderr_has("no session id");
}

#[test]
fn status_and_next_show_where_the_pipeline_stands() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 3);
    let text = env.ws_as(S, &["pipeline", "status"]).ok();
    text.stdout_has("[INFO] Current state: implementing_loop")
        .stdout_has("Owner: this session")
        .stdout_has("Plan review: round 1, 0 of 10 loops used, passed")
        .stdout_has("Code review: round 1, 0 of 15 loops used, next: sonnet")
        .stdout_has("Loop: active, iteration 0 of 3")
        .stdout_has("workflow-state pipeline review-brief --feature 001-auth");
    let brief = env.ws_as(S, &["pipeline", "review-brief"]).ok().json();
    assert_eq!((brief["agent"].as_str(), brief["model"].as_str()), (Some("phasegate:code-reviewer"), Some("sonnet")));
    assert!(brief["file"].is_null(), "the binary writes the review from the reviewer's reply: {brief}");
    assert!(brief["prompt"].as_str().unwrap().contains(&format!("pipeline {f}")), "{brief}");
    let other = env.ws_as("someone-else", &["pipeline", "status", "--feature", &f, "--json"]).ok().json();
    assert_eq!(other["ownedByThisSession"], false);
    assert_eq!(other["codeReview"]["limit"], 15);
    env.ws(&["pipeline", "next", "--json"]).ok();
}

#[test]
fn several_pipelines_need_a_feature_unless_the_session_owns_one() {
    let env = TestEnv::new();
    env.pipeline("a");
    env.ws_as("b", &["pipeline", "start", "billing", "--request", "x"]).ok();
    env.ws(&["pipeline", "status"]).code(2).stderr_has("several active pipelines: 001-auth, 002-billing");
    env.ws_as("b", &["pipeline", "status"]).ok().stdout_has("002-billing");
    env.ws(&["feature", "new", "plain"]).ok();
    env.ws(&["pipeline", "status", "--feature", "plain"]).code(2).stderr_has("is not a pipeline");
}

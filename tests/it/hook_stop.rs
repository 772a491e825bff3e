//! `phasegate-hook stop`: holds only the owning session, until reviews,
//! tests and the promise; ends cleanly at the limit; never breaks a session.

use serde_json::{Value, json};

use crate::util::{HOOK, Run, TestEnv};

const S: &str = "session-1";
const PROMISE: &str = "<promise>IMPLEMENTATION_COMPLETE</promise>";

fn stop(env: &TestEnv, session: &str, message: &str, active: bool) -> Option<Value> {
    let input = json!({
        "session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": env.root(),
        "hook_event_name": "Stop", "stop_hook_active": active, "last_assistant_message": message
    });
    let out = Run::new(HOOK, &["stop"], env.root()).stdin(input.to_string()).ok();
    assert!(out.stderr.is_empty(), "{}", out.report());
    (!out.stdout.trim().is_empty()).then(|| out.json())
}

#[test]
fn sessions_without_a_loop_are_never_blocked() {
    let env = TestEnv::new();
    assert_eq!(stop(&env, S, "done", false), None);
    let f = env.to_loop(S, "true", 3);
    // Another session in the same project, with the loop running.
    assert_eq!(stop(&env, "session-2", "bye", false), None);
    // A session whose record is stale (the pipeline was claimed away) is freed.
    env.ws_as("session-2", &["pipeline", "claim", "--feature", &f]).ok();
    std::fs::write(
        env.path(&format!(".git/phasegate/sessions/{S}.json")),
        format!(
            r#"{{"feature": "{f}", "dir": "{}", "at": "2026-11-22T10:00:00Z"}}"#,
            env.path(&format!("docs/features/{f}")).display()
        ),
    )
    .unwrap();
    assert_eq!(stop(&env, S, "bye", false), None);
    assert!(env.owns_loop(S).is_none());
    // Not a repository at all.
    let plain = TestEnv::plain();
    assert_eq!(stop(&plain, S, "x", false), None);
}

#[test]
fn an_unapproved_review_blocks_with_a_reason_naming_it() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 5);
    env.review_stage(S, &f, "code-reviewer", "sonnet", "approved");
    let out = stop(&env, S, "I think I am done", false).expect("blocked");
    assert_eq!(out["decision"], "block");
    let reason = out["reason"].as_str().unwrap();
    assert!(reason.contains("the code review gate has not passed (round 1, the opus review is next)"), "{reason}");
    assert!(reason.contains(PROMISE), "{reason}");
    assert!(reason.contains("iteration 1 of 5"), "{reason}");
    assert_eq!(env.loop_state(&f)["iteration"], 1);
}

/// Approval, passing tests and the promise complete the pipeline. Bug 7 of
/// "A day of real use": the Stop hook completed it and let the session
/// end, and the pipeline's code was never committed (`app.py` modified,
/// the feature folder untracked).
#[test]
fn a_completed_pipelines_code_was_never_committed() {
    let env = TestEnv::new();
    env.write("test.sh", "echo 'All tests passed'\n");
    let f = env.to_loop(S, "sh test.sh", 5);
    env.write("app.py", "print('the pipeline wrote this')\n");
    env.approve_code(S, &f);
    // Without the promise the model is sent back; the tests do not run yet.
    let out = stop(&env, S, "Reviews are approved.", false).expect("blocked");
    assert!(out["reason"].as_str().unwrap().contains("does not contain the completion promise"));
    // With it, the tests run and the pipeline completes.
    let out = stop(&env, S, &format!("Everything passes. {PROMISE}"), true).expect("a message");
    assert_eq!(env.run_state(&f)["state"], "complete");
    assert_eq!(env.loop_state(&f)["active"], false);
    assert!(env.owns_loop(S).is_none());
    // Regression: the session ended here and the pipeline's code was never
    // committed. It is held once more, with the commands that commit it.
    assert_eq!(out["decision"], "block", "{out}");
    let reason = out["reason"].as_str().unwrap();
    assert!(reason.contains(&format!("pipeline {f} complete")), "{reason}");
    assert!(reason.contains(&format!("`workflow-state pipeline commit --feature {f}`")), "{reason}");
    let next = env.ws_as(S, &["pipeline", "next", "--feature", &f]).ok().stdout;
    assert!(next.contains(&format!("THEN: workflow-state pipeline commit --feature {f}")), "{next}");
    let done = env.ws_as(S, &["pipeline", "commit", "--feature", &f]).ok().json();
    let commits = done["commits"].as_array().unwrap();
    assert_eq!(commits.len(), 2, "its code, then its folder: {done}");
    assert!(commits[0]["paths"].to_string().contains("app.py"), "{done}");
    assert_eq!(commits[1]["paths"][0], format!("docs/features/{f}"));
    let status = Run::new("git", &["status", "--porcelain"], env.root()).ok().stdout;
    assert!(!status.contains("app.py") && !status.contains("docs/features"), "{status}");
    assert_eq!(stop(&env, S, "anything", false), None, "the next stop is free");
    let next = env.ws_as(S, &["pipeline", "next", "--feature", &f]).ok().stdout;
    assert!(next.contains("its work committed") && !next.contains("THEN:"), "{next}");
}

#[test]
fn failing_tests_block_with_their_output() {
    let env = TestEnv::new();
    env.write("test.sh", "echo 'test_login ... FAILED'\nexit 1\n");
    let f = env.to_loop(S, "sh test.sh", 5);
    env.approve_code(S, &f);
    let out = stop(&env, S, PROMISE, false).expect("blocked");
    let reason = out["reason"].as_str().unwrap();
    assert!(
        reason.contains("the plan's tests fail")
            && reason.contains("`sh test.sh` exited 1")
            && reason.contains("test_login ... FAILED"),
        "{reason}"
    );
    assert_eq!(env.run_state(&f)["state"], "implementing_loop");
}

#[test]
fn the_iteration_limit_ends_the_loop_cleanly() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 2);
    assert_eq!(stop(&env, S, "a", false).unwrap()["decision"], "block");
    assert_eq!(stop(&env, S, "b", true).unwrap()["decision"], "block");
    let out = stop(&env, S, "c", true).expect("a message");
    assert!(out.get("decision").is_none(), "{out}");
    assert!(out["systemMessage"].as_str().unwrap().contains("reached its limit of 2 iterations"), "{out}");
    let run = env.run_state(&f);
    assert_eq!(
        (run["state"].as_str(), run["paused"]["reason"].as_str()),
        (Some("needs_user_input"), Some("loop_limit"))
    );
    assert_eq!(stop(&env, S, "d", false), None, "the session is free");
    // Resuming grants a fresh budget.
    env.ws_as(S, &["pipeline", "resume"]).ok();
    assert_eq!(env.loop_state(&f)["iteration"], 0);
    assert_eq!(stop(&env, S, "e", false).unwrap()["decision"], "block");
}

#[test]
fn consecutive_blocks_yield_before_claude_codes_cap() {
    let env = TestEnv::new();
    env.config(
        r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"]}, "stopHook": {"maxConsecutiveBlocks": 2}}"#,
    );
    let f = env.to_loop(S, "true", 50);
    env.config(
        r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"]}, "stopHook": {"maxConsecutiveBlocks": 2}}"#,
    );
    assert_eq!(stop(&env, S, "a", false).unwrap()["decision"], "block");
    assert_eq!(stop(&env, S, "b", true).unwrap()["decision"], "block");
    let out = stop(&env, S, "c", true).unwrap();
    assert!(out["systemMessage"].as_str().unwrap().contains("blocked stops in a row"), "{out}");
    assert_eq!(env.loop_state(&f)["active"], true, "the loop stays for the next turn");
    assert_eq!(stop(&env, S, "d", false).unwrap()["decision"], "block");
}

#[test]
fn stale_loops_expire() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 5);
    let mut l = env.loop_state(&f);
    l["updated_at"] = json!("2020-01-01T00:00:00Z");
    env.write_task(&f, "loop-state.json", &l.to_string());
    let out = stop(&env, S, "x", false).unwrap();
    assert!(out["systemMessage"].as_str().unwrap().contains("expired"), "{out}");
    assert_eq!(env.run_state(&f)["paused"]["reason"], "stale");
    assert_eq!(stop(&env, S, "y", false), None);
    // Claiming picks it up again.
    env.ws_as(S, &["pipeline", "claim"]).ok();
    assert_eq!(env.run_state(&f)["state"], "implementing_loop");
    assert_eq!(stop(&env, S, "z", false).unwrap()["decision"], "block");
}

#[test]
fn bad_state_allows_the_stop_and_says_why() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 5);
    env.write_task(&f, "loop-state.json", "{ truncated");
    let out = stop(&env, S, "x", false).unwrap();
    let msg = out["systemMessage"].as_str().unwrap();
    assert!(out.get("decision").is_none());
    assert!(msg.contains("loop-state.json") && msg.contains("the stop is allowed"), "{msg}");
    assert_eq!(std::fs::read_to_string(env.task_path(&f, "loop-state.json")).unwrap(), "{ truncated", "left as it was");
    env.config("{ not json");
    let out = stop(&env, S, "x", false).unwrap();
    assert!(out["systemMessage"].as_str().unwrap().contains("pipeline.config.json"), "{out}");
    // Garbage on stdin.
    let out = Run::new(HOOK, &["stop"], env.root()).stdin("garbage").ok().json();
    assert!(out.get("decision").is_none(), "{out}");
    assert!(out["systemMessage"].as_str().unwrap().contains("the hook input is not JSON"), "{out}");
}

/// Regression: fixing review findings runs the worker in the background; the
/// session can only wait by ending its turn, and each such stop was blocked
/// and counted: a loop of 5 ran out with the implementer still working.
#[test]
fn waiting_for_a_background_worker_burns_no_iteration() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 2);
    let input = json!({
        "session_id": S, "cwd": env.root(), "hook_event_name": "Stop", "stop_hook_active": false,
        "last_assistant_message": "Waiting for the implementer.",
        "background_tasks": [{"id": "t1", "type": "subagent", "status": "running",
            "description": "Fix review findings", "agent_type": "phasegate:implementer"}]
    });
    for _ in 0..5 {
        let out = Run::new(HOOK, &["stop"], env.root()).stdin(input.to_string()).ok();
        assert_eq!(out.stdout.trim(), "", "{}", out.report());
    }
    assert_eq!(env.loop_state(&f)["iteration"], 0);
    assert_eq!(env.run_state(&f)["state"], "implementing_loop");
    // With the worker done, stops count again.
    assert_eq!(stop(&env, S, "done?", false).unwrap()["decision"], "block");
    assert_eq!(env.loop_state(&f)["iteration"], 1);
}

/// Regression: after the code gate passed, further code changes were re-tested
/// but not re-reviewed. The gate approved one version of the code; a change
/// reopens it.
#[test]
fn a_code_change_after_the_gate_passed_reopens_it() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "echo 'All tests passed'", 5);
    env.approve_code(S, &f);
    assert_eq!(env.run_state(&f)["codeReview"]["passed"], true);
    env.write("src/late.rs", "fn late() {}\n");
    let out = stop(&env, S, &format!("done {PROMISE}"), false).expect("blocked");
    let reason = out["reason"].as_str().unwrap();
    assert!(reason.contains("the code changed after the code review gate passed"), "{reason}");
    assert!(reason.contains("round 2, the sonnet review is next"), "{reason}");
    let run = env.run_state(&f);
    assert_eq!(
        (run["codeReview"]["passed"].as_bool(), run["state"].as_str()),
        (Some(false), Some("implementing_loop"))
    );
    // Reviewed again, the same version passes and the promise completes
    // (held once more to commit src/late.rs and the feature's folder).
    env.approve_code(S, &f);
    let done = stop(&env, S, &format!("done {PROMISE}"), false).unwrap();
    assert!(done["reason"].as_str().unwrap().contains(&format!("pipeline {f} complete")), "{done}");
    assert_eq!(env.run_state(&f)["state"], "complete");
    assert_eq!(env.meta(&f)["status"], "completed");
}

/// Regression: a question waiting on Slack with no token made the Stop hook
/// return its note before it looked at the session's pipeline loop, so the
/// loop's gates were skipped and the session stopped early.
#[test]
fn a_slack_poller_that_cannot_start_never_lets_a_loop_stop_early() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "true", 5);
    env.write(".phasegate/questions.config.json", r#"{"slack": {"channels": {"feature": "C0FEATURES"}}}"#);
    env.write(
        "q.json",
        r#"{"question": {"type": "blocking", "text": "Grid or list?", "options": [{"label": "Grid"}, {"label": "List"}]}}"#,
    );
    let other = env.feature("other", "standard");
    env.ws(&["question", "ask", "--file", "q.json", "--headless", "--feature", &other]).ok();
    let out = stop(&env, S, "I think I am done", false).expect("blocked");
    assert_eq!(out["decision"], "block", "{out}");
    assert_eq!(env.loop_state(&f)["iteration"], 1);
    // A session without a loop is told why nothing polls Slack.
    let note = stop(&env, "session-2", "bye", false).expect("a note");
    assert!(note["systemMessage"].as_str().unwrap().contains("no Slack token reaches phasegate's hooks"), "{note}");
}

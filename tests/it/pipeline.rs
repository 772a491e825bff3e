//! Pipeline mode: the state machine, requirements of transitions, the review
//! gates' order and limits, and the final gate.

use crate::util::{Run, TestEnv};

const S: &str = "session-1";

#[test]
fn start_creates_a_pipeline_feature_owned_by_the_session() {
    let env = TestEnv::new();
    let out = env.ws_as(S, &["pipeline", "start", "auth", "--request", "Add JWT auth"]).ok().json();
    assert_eq!(out["feature"], "001-auth");
    assert_eq!(out["state"], "requirements_gathering");
    assert_eq!(out["owner"], S);
    assert!(out["next"]["action"].as_str().unwrap().contains("phasegate:requirements-gatherer"));
    let run = env.run_state("001-auth");
    assert_eq!(run["owner"]["sessionId"], S);
    assert_eq!(run["history"][0]["to"], "requirements_gathering");
    assert_eq!(env.meta("001-auth")["workflow"], "pipeline");
    // .task/ stays out of git status.
    let repo = git2::Repository::open(env.root()).unwrap();
    assert!(repo.is_path_ignored("docs/features/001-auth/.task").unwrap());
    // Phase commands refuse a pipeline feature.
    env.ws(&["validate", "design"]).code(1).stdout_has("/phasegate:pipeline");
    // Without a session the pipeline starts unowned, with a warning.
    let out = env.ws(&["pipeline", "start", "other", "--request", "x"]).ok().json();
    assert!(out["warning"].as_str().unwrap().contains("pipeline claim"));
    // A description becomes a slug; nothing usable is refused.
    let out = env.ws(&["pipeline", "start", "bad/slug", "--request", "x"]).ok().json();
    assert_eq!(out["feature"], "003-bad-slug");
    env.ws(&["pipeline", "start", "../..", "--request", "x"]).code(2).stderr_has("cannot make a feature name");
}

#[test]
fn illegal_transitions_are_refused_with_the_legal_ones() {
    let env = TestEnv::new();
    env.pipeline(S);
    env.ws_as(S, &["pipeline", "transition", "implementing"])
        .code(1)
        .stderr_has("cannot go from requirements_gathering to implementing; from requirements_gathering the legal transitions are: plan_drafting, needs_user_input, error");
    env.ws_as(S, &["pipeline", "transition", "finished"]).code(2).stderr_has("unknown pipeline state `finished`");
    env.ws_as(S, &["pipeline", "transition", "error"]).code(2).stderr_has("pipeline fail --message");
}

#[test]
fn transitions_need_valid_files() {
    let env = TestEnv::new();
    let f = env.pipeline(S);
    env.ws_as(S, &["pipeline", "transition", "plan_drafting"]).code(1).stderr_has("user-story.json is missing");
    let broken = TestEnv::fixture("user-story.json").replace("\"approved_by\": \"user\"", "\"approved_by\": 7");
    env.write_task(&f, "user-story.json", &broken);
    env.ws_as(S, &["pipeline", "transition", "plan_drafting"])
        .code(1)
        .stderr_has("at /approved_by")
        .stderr_has("string");
    env.write_task(&f, "user-story.json", &TestEnv::fixture("user-story.json"));
    env.ws_as(S, &["pipeline", "transition", "plan_drafting"]).ok();
    env.ws_as(S, &["pipeline", "transition", "plan_refining"]).ok();
    env.ws_as(S, &["pipeline", "transition", "plan_reviewing"]).code(1).stderr_has("plan-refined.json is missing");
    env.write_task(&f, "plan-refined.json", &TestEnv::fixture("plan-refined.json"));
    let out = env.ws_as(S, &["pipeline", "transition", "plan_reviewing"]).ok().json();
    assert_eq!(out["next"]["then"][0], "workflow-state pipeline review sonnet --feature 001-auth");
    // The gate must pass before implementing.
    env.ws_as(S, &["pipeline", "transition", "implementing"])
        .code(1)
        .stderr_has("the plan review gate has not passed (round 1, the sonnet review is next)");
}

fn to_plan_review(env: &TestEnv) -> String {
    let f = env.pipeline(S);
    env.write_task(&f, "user-story.json", &TestEnv::fixture("user-story.json"));
    env.write_task(&f, "plan-refined.json", &TestEnv::fixture("plan-refined.json"));
    for to in ["plan_drafting", "plan_refining", "plan_reviewing"] {
        env.ws_as(S, &["pipeline", "transition", to]).ok();
    }
    f
}

#[test]
fn reviews_go_sonnet_opus_final_and_changes_restart_from_sonnet() {
    let env = TestEnv::new();
    env.config(r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"]}}"#);
    let f = to_plan_review(&env);
    // Out of order.
    env.write_task(&f, "review-opus.json", &TestEnv::review("plan-reviewer", "opus", "approved"));
    env.ws_as(S, &["pipeline", "review", "opus"])
        .code(1)
        .stderr_has("round 1 expects the sonnet review next, not opus");
    env.ws_as(S, &["pipeline", "final-gate"]).code(1).stderr_has("expects the sonnet review next");
    // Wrong model or reviewer in the file.
    env.write_task(&f, "review-sonnet.json", &TestEnv::review("plan-reviewer", "opus", "approved"));
    env.ws_as(S, &["pipeline", "review", "sonnet"]).code(2).stderr_has("needs model `sonnet`");
    env.write_task(&f, "review-sonnet.json", &TestEnv::review("code-reviewer", "sonnet", "approved"));
    env.ws_as(S, &["pipeline", "review", "sonnet"]).code(2).stderr_has("expects `plan-reviewer`");
    // sonnet approves, opus needs changes: the next round starts at sonnet.
    let out = env.review_stage(S, &f, "plan-reviewer", "sonnet", "approved");
    assert_eq!((out["decision"].as_str(), out["nextStage"].as_str()), (Some("next"), Some("opus")));
    let out = env.review_stage(S, &f, "plan-reviewer", "opus", "needs_changes");
    assert_eq!(out["decision"], "fix");
    assert_eq!((out["round"].as_u64(), out["loops"].as_u64(), out["loopLimit"].as_u64()), (Some(2), Some(1), Some(10)));
    assert!(out["message"].as_str().unwrap().contains("resume the planner"));
    // While the planner fixes, no review starts.
    env.write_task(&f, "review-sonnet.json", &TestEnv::review("plan-reviewer", "sonnet", "approved"));
    env.ws_as(S, &["pipeline", "review", "sonnet"])
        .code(1)
        .stderr_has("the planner is still fixing the findings of round 1");
    env.ws_as(S, &["pipeline", "review-brief"]).code(1).stderr_has("still fixing");
    let fixed = env.ws_as(S, &["pipeline", "fixed"]).ok().json();
    assert_eq!((fixed["fixedRound"].as_u64(), fixed["round"].as_u64()), (Some(1), Some(2)));
    env.ws_as(S, &["pipeline", "fixed"]).code(1).stderr_has("no fix is in progress");
    env.write_task(&f, "review-opus.json", &TestEnv::review("plan-reviewer", "opus", "approved"));
    env.ws_as(S, &["pipeline", "review", "opus"]).code(1).stderr_has("round 2 expects the sonnet review next");
    env.review_stage(S, &f, "plan-reviewer", "sonnet", "approved");
    env.review_stage(S, &f, "plan-reviewer", "opus", "approved");
    // The final gate's reviewer is not installed: skipped, with the reason recorded.
    let out = env.ws_as(S, &["pipeline", "final-gate"]).ok().json();
    assert_eq!(out["decision"], "passed");
    let codex: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(env.task_path(&f, "review-codex.json")).unwrap()).unwrap();
    assert_eq!(codex["status"], "skipped");
    assert!(codex["skip_reason"].as_str().unwrap().contains("`phasegate-test-no-such-reviewer` is not installed"));
    env.ws_as(S, &["pipeline", "transition", "implementing"]).ok();
}

#[test]
fn the_review_loop_limit_pauses_and_resume_grants_a_new_count() {
    let env = TestEnv::new();
    env.config(r#"{"autonomy": {"planReviewLoopLimit": 2}}"#);
    let f = to_plan_review(&env);
    env.review_stage(S, &f, "plan-reviewer", "sonnet", "needs_changes");
    env.ws_as(S, &["pipeline", "fixed"]).ok();
    let out = env.review_stage(S, &f, "plan-reviewer", "sonnet", "needs_changes");
    assert_eq!(out["decision"], "limit_reached");
    assert_eq!(out["state"], "needs_user_input");
    let run = env.run_state(&f);
    assert_eq!(run["paused"]["reason"], "review_loop_exceeded");
    let out = env.ws_as(S, &["pipeline", "resume"]).ok().json();
    assert_eq!(out["state"], "plan_reviewing");
    assert_eq!(env.run_state(&f)["planReview"]["loops"], 0);
}

#[test]
fn clarification_pauses_and_the_same_stage_reviews_again() {
    let env = TestEnv::new();
    let f = to_plan_review(&env);
    let out = env.review_stage(S, &f, "plan-reviewer", "sonnet", "needs_clarification");
    assert_eq!((out["decision"].as_str(), out["state"].as_str()), (Some("clarify"), Some("needs_user_input")));
    assert!(env.run_state(&f)["paused"]["message"].as_str().unwrap().contains("Which database?"));
    env.ws_as(S, &["pipeline", "resume"]).ok();
    let next = env.ws_as(S, &["pipeline", "next"]).ok();
    next.stdout_has("asked for clarification").stdout_has("review sonnet");
}

#[test]
fn a_blocking_final_gate_pauses_when_its_reviewer_is_missing() {
    let env = TestEnv::new();
    env.config(r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"], "whenUnavailable": "block"}}"#);
    let f = to_plan_review(&env);
    env.review_stage(S, &f, "plan-reviewer", "sonnet", "approved");
    env.review_stage(S, &f, "plan-reviewer", "opus", "approved");
    let out = env.ws_as(S, &["pipeline", "final-gate"]).ok().json();
    assert_eq!((out["decision"].as_str(), out["state"].as_str()), (Some("paused"), Some("needs_user_input")));
    assert!(out["message"].as_str().unwrap().contains("whenUnavailable"));
    assert_eq!(env.run_state(&f)["paused"]["reason"], "final_gate_unavailable");
}

/// A stand-in for the Codex CLI: records its arguments and prompt, answers
/// with answer.json.
fn fake_reviewer(env: &TestEnv, answer: &str, exit: i32) -> std::path::PathBuf {
    let dir = env.outer().join("fake-codex");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("answer.json"), answer).unwrap();
    let script = dir.join("codex");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{d}/calls.log'\ncat > '{d}/prompt.txt'\necho 'Working…' >&2\ncat '{d}/answer.json'\nexit {exit}\n",
            d = dir.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let resume = dir.join("codex");
    env.config(&format!(
        r#"{{"finalGate": {{"command": ["{s}", "exec", "-"], "resumeCommand": ["{r}", "exec", "resume", "--last", "-"]}}}}"#,
        s = script.display(),
        r = resume.display()
    ));
    dir
}

#[test]
fn the_final_gate_runs_the_external_reviewer_and_resumes_its_session() {
    let env = TestEnv::new();
    let answer = r#"Here is my review:
{"status": "needs_changes", "summary": "Missing input validation.", "findings": [{"id": "F1", "severity": "high", "title": "No validation"}]}"#;
    let dir = fake_reviewer(&env, answer, 0);
    let f = to_plan_review(&env);
    env.review_stage(S, &f, "plan-reviewer", "sonnet", "approved");
    env.review_stage(S, &f, "plan-reviewer", "opus", "approved");
    let out = env.ws_as(S, &["pipeline", "final-gate"]).ok().json();
    assert_eq!(out["decision"], "fix");
    let prompt = std::fs::read_to_string(dir.join("prompt.txt")).unwrap();
    assert!(prompt.contains("final review gate") && prompt.contains("plan-20261122-101000"), "{prompt}");
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(env.task_path(&f, "review-codex.json")).unwrap()).unwrap();
    assert_eq!((recorded["reviewer"].as_str(), recorded["model"].as_str()), (Some("review-codex"), Some("codex")));
    // Next round: the reviewer session is resumed (seed: resume --last).
    std::fs::write(dir.join("answer.json"), r#"{"status": "approved", "summary": "ok", "findings": []}"#).unwrap();
    env.ws_as(S, &["pipeline", "fixed"]).ok();
    env.review_stage(S, &f, "plan-reviewer", "sonnet", "approved");
    env.review_stage(S, &f, "plan-reviewer", "opus", "approved");
    assert_eq!(env.ws_as(S, &["pipeline", "final-gate"]).ok().json()["decision"], "passed");
    let calls = std::fs::read_to_string(dir.join("calls.log")).unwrap();
    assert_eq!(calls.lines().collect::<Vec<_>>(), ["exec -", "exec resume --last -"]);
}

#[test]
fn a_failing_or_invalid_final_gate_records_nothing() {
    let env = TestEnv::new();
    let dir = fake_reviewer(&env, "{}", 3);
    let f = to_plan_review(&env);
    env.review_stage(S, &f, "plan-reviewer", "sonnet", "approved");
    env.review_stage(S, &f, "plan-reviewer", "opus", "approved");
    env.ws_as(S, &["pipeline", "final-gate"])
        .code(2)
        .stderr_has("exited Some(3)")
        .stderr_has("Working…")
        .stderr_has("nothing was recorded");
    std::fs::write(dir.join("codex"), format!("#!/bin/sh\ncat >/dev/null\ncat '{}/answer.json'\n", dir.display()))
        .unwrap();
    std::fs::write(dir.join("answer.json"), r#"{"status": "fine", "summary": "?"}"#).unwrap();
    env.ws_as(S, &["pipeline", "final-gate"]).code(2).stderr_has("at /status").stderr_has("review-codex.rejected.json");
    assert!(!env.task_path(&f, "review-codex.json").exists());
    assert_eq!(env.run_state(&f)["planReview"]["results"].as_array().unwrap().len(), 2);
}

/// The pipeline's implementer gets the gotchas of its plan's files in
/// `pipeline next`, and the code gate's reviewer is told them with their ids.
#[test]
fn the_pipeline_implementer_never_saw_its_gotchas_yet_its_reviewer_was_told_it_did() {
    let env = TestEnv::new();
    env.config(r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"]}}"#);
    let lesson = "Shell checks must quote every variable they test, or an empty password passes the login check";
    let id = env.kb_gotcha_id(lesson, "[: =: unary operator expected", &["--pattern", "*.sh"]);
    let f = to_plan_review(&env);
    env.review_stage(S, &f, "plan-reviewer", "sonnet", "approved");
    env.review_stage(S, &f, "plan-reviewer", "opus", "approved");
    env.ws_as(S, &["pipeline", "final-gate"]).ok();
    env.ws_as(S, &["pipeline", "transition", "implementing"]).ok();
    // The gotchas follow the ACTION that spawns the worker, to go into its prompt.
    let text = env.ws_as(S, &["pipeline", "next"]).ok().stdout;
    let action = text.find("ACTION: Spawn Agent(phasegate:implementer)").expect(&text);
    let gotchas = text.find("## Gotchas (AVOID THESE MISTAKES)").expect(&text);
    let then = text.find("THEN:").expect(&text);
    assert!(action < gotchas && gotchas < then, "{text}");
    assert!(text.contains(&format!("- {lesson} (*.sh: step-1) [{id}]")), "{text}");
    assert!(text.contains("put it in the implementer's prompt too, whole"), "{text}");
    env.write_task(&f, "impl-result.json", &TestEnv::fixture("impl-result.json"));
    env.ws_as(S, &["pipeline", "transition", "implementing_loop"]).ok();
    // Printed is not given: the reviewer is not told the worker had them.
    let brief = env.ws_as(S, &["pipeline", "review-brief"]).ok().json();
    assert!(!brief["prompt"].as_str().unwrap().contains("Gotchas the implementer was given"), "{brief}");
    // The session spawns the worker with them in its prompt: now they were given.
    let section = &text[gotchas..then];
    let spawn = serde_json::json!({"session_id": S, "cwd": env.root(), "hook_event_name": "PreToolUse", "tool_name": "Agent",
        "tool_input": {"subagent_type": "phasegate:implementer", "description": "implement", "prompt": format!("Implement the plan.\n{section}")}});
    Run::new(crate::util::HOOK, &["pre-tool-use"], env.root()).stdin(spawn.to_string()).ok();
    let brief = env.ws_as(S, &["pipeline", "review-brief"]).ok().json();
    let prompt = brief["prompt"].as_str().unwrap();
    assert!(prompt.contains("Gotchas the implementer was given") && prompt.contains(&id), "{prompt}");
}

//! The Stop hook's decisions for a pipeline's implementation loop, through
//! `hooks::stop::stop`: only the owning session is held; it is blocked
//! until the code gate, the tests and the completion promise; the iteration
//! limit and a loop idle past `stopHook.staleAfterMinutes` (measured on the
//! clock) let it go.

use phasegate_core::Mode;
use phasegate_core::pipeline::State;
use phasegate_core::pipeline::gate::Stage;
use phasegate_core::questions::ItemType;
use phasegate_ops::hooks::HookInput;
use phasegate_ops::hooks::{StopOutcome, stop};
use phasegate_ops::pipeline::{gate, lifecycle, ownership};
use phasegate_ops::questions::ask::{self, AskInput, Interaction};
use serde_json::Value;

use crate::kit::{Repo, stamp};

pub(crate) const S: &str = "session-1";
pub(crate) const PROMISE: &str = "<promise>IMPLEMENTATION_COMPLETE</promise>";
const NO_FINAL_GATE: &str = r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"]}}"#;

fn task_file(f: &str, file: &str) -> String {
    Repo::in_feature(f, &format!(".task/{file}"))
}

fn review(t: &Repo, f: &str, reviewer: &str, stage: Stage, status: &str) {
    let model = match stage {
        Stage::Sonnet => "sonnet",
        Stage::Opus => "opus",
        Stage::Final => unreachable!("the final gate runs its own reviewer"),
    };
    t.write(
        &task_file(f, &format!("review-{model}.json")),
        &serde_json::json!({
            "id": "review-1", "reviewer": reviewer, "model": model, "status": status,
            "summary": format!("{model} says {status}"), "findings": [], "blockers": [],
            "reviewed_at": stamp(0)
        })
        .to_string(),
    );
    gate::review(&t.env_as(S), None, stage, None).unwrap();
}

/// Drives a new pipeline owned by [`S`] into its implementation loop (plan
/// gate passed, the final gate skipped: no reviewer installed); the loop
/// starts at the clock's time. `tests` is the plan's test command.
pub(crate) fn to_loop(t: &Repo, tests: &str, max_iterations: u32) -> String {
    if !t.exists(".phasegate/pipeline.config.json") {
        t.write(".phasegate/pipeline.config.json", NO_FINAL_GATE);
    }
    let env = t.env_as(S);
    let f = lifecycle::start(&env, "auth", "Add user authentication", Mode::Standard, false, None).unwrap().feature;
    t.write(&task_file(&f, "user-story.json"), include_str!("fixtures/user-story.json"));
    let plan = include_str!("fixtures/plan-refined.json")
        .replace("\"sh test.sh\"", &serde_json::to_string(tests).unwrap())
        .replace("\"max_iterations\": 4", &format!("\"max_iterations\": {max_iterations}"));
    t.write(&task_file(&f, "plan-refined.json"), &plan);
    for to in [State::PlanDrafting, State::PlanRefining, State::PlanReviewing] {
        lifecycle::transition(&env, None, to, None).unwrap();
    }
    review(t, &f, "plan-reviewer", Stage::Sonnet, "approved");
    review(t, &f, "plan-reviewer", Stage::Opus, "approved");
    gate::final_gate(&env, None).unwrap();
    lifecycle::transition(&t.env_as(S), None, State::Implementing, None).unwrap();
    lifecycle::transition(&t.env_as(S), None, State::ImplementingLoop, None).unwrap();
    f
}

pub(crate) fn approve_code(t: &Repo, f: &str) {
    review(t, f, "code-reviewer", Stage::Sonnet, "approved");
    review(t, f, "code-reviewer", Stage::Opus, "approved");
    gate::final_gate(&t.env_as(S), None).unwrap();
}

/// One stop of session `session` whose last message is `message`.
pub(crate) fn stop_of(t: &Repo, session: &str, message: &str, active: bool) -> StopOutcome {
    let input = HookInput {
        session_id: Some(session.to_owned()),
        cwd: Some(t.root().to_owned()),
        hook_event_name: Some("Stop".into()),
        stop_hook_active: active,
        last_assistant_message: Some(message.to_owned()),
        ..HookInput::default()
    };
    stop(&input, &t.env(), None, None)
}

fn blocked(outcome: StopOutcome) -> String {
    match outcome {
        StopOutcome::Block { reason } => reason,
        other => panic!("expected a block, got {other:?}"),
    }
}

fn allowed(outcome: StopOutcome) -> String {
    match outcome {
        StopOutcome::Allow { message } => message,
        other => panic!("expected an allowed stop with a message, got {other:?}"),
    }
}

fn loop_state(t: &Repo, f: &str) -> Value {
    t.json(&task_file(f, "loop-state.json"))
}

fn run_state(t: &Repo, f: &str) -> Value {
    t.json(&task_file(f, "state.json"))
}

#[test]
fn a_session_that_owns_no_loop_is_never_blocked() {
    let t = Repo::new();
    assert_eq!(stop_of(&t, S, "done", false), StopOutcome::Silent);
    let f = to_loop(&t, "true", 3);
    assert_eq!(stop_of(&t, "session-2", "bye", false), StopOutcome::Silent);
    assert_eq!(loop_state(&t, &f)["iteration"], 0, "another session's stop counts nothing");
}

#[test]
fn the_owning_session_is_blocked_while_the_code_gate_is_open() {
    let t = Repo::new();
    let f = to_loop(&t, "true", 5);
    review(&t, &f, "code-reviewer", Stage::Sonnet, "approved");
    t.clock.advance(7);
    let reason = blocked(stop_of(&t, S, "I think I am done", false));
    assert!(reason.contains("the code review gate has not passed (round 1, the opus review is next)"), "{reason}");
    assert!(reason.contains("iteration 1 of 5") && reason.contains(PROMISE), "{reason}");
    let l = loop_state(&t, &f);
    assert_eq!((l["iteration"].as_u64(), l["updated_at"].as_str()), (Some(1), Some(stamp(7).as_str())));
}

#[test]
fn the_gate_the_tests_and_the_promise_complete_the_pipeline_and_free_the_session() {
    let t = Repo::new();
    let f = to_loop(&t, "echo 'All tests passed'", 5);
    approve_code(&t, &f);
    let reason = blocked(stop_of(&t, S, "Reviews are approved.", false));
    assert!(reason.contains("does not contain the completion promise"), "{reason}");
    t.clock.advance(3);
    // The feature's folder is not committed: held once more to commit it.
    let message = blocked(stop_of(&t, S, &format!("Everything passes. {PROMISE}"), true));
    assert!(
        message.contains("complete") && message.contains(&format!("workflow-state pipeline commit --feature {f}")),
        "{message}"
    );
    assert_eq!(run_state(&t, &f)["state"], "complete");
    assert_eq!(loop_state(&t, &f)["active"], false);
    let meta = t.meta(&f);
    assert_eq!((meta["status"].as_str(), meta["completed"].as_str()), (Some("completed"), Some(stamp(3).as_str())));
    assert_eq!(stop_of(&t, S, "anything", false), StopOutcome::Silent);
}

#[test]
fn failing_tests_keep_the_session_working_with_their_output() {
    let t = Repo::new();
    let f = to_loop(&t, "echo 'test_login ... FAILED'; exit 1", 5);
    approve_code(&t, &f);
    let reason = blocked(stop_of(&t, S, PROMISE, false));
    assert!(reason.contains("the plan's tests fail") && reason.contains("test_login ... FAILED"), "{reason}");
    assert_eq!(run_state(&t, &f)["state"], "implementing_loop");
}

#[test]
fn the_iteration_limit_pauses_the_pipeline_and_lets_the_session_go() {
    let t = Repo::new();
    let f = to_loop(&t, "true", 2);
    blocked(stop_of(&t, S, "a", false));
    blocked(stop_of(&t, S, "b", true));
    let message = allowed(stop_of(&t, S, "c", true));
    assert!(message.contains("reached its limit of 2 iterations"), "{message}");
    let run = run_state(&t, &f);
    assert_eq!(
        (run["state"].as_str(), run["paused"]["reason"].as_str()),
        (Some("needs_user_input"), Some("loop_limit"))
    );
    assert_eq!(stop_of(&t, S, "d", false), StopOutcome::Silent, "the session is free");
}

/// The rule: a loop with no activity for more than `staleAfterMinutes`
/// (default 240) no longer holds the session; activity is the loop's last
/// change, on the clock.
#[test]
fn a_loop_idle_past_stale_after_minutes_expires_by_the_clock() {
    let t = Repo::new();
    let f = to_loop(&t, "true", 50);
    t.clock.set(240);
    blocked(stop_of(&t, S, "still working", false));
    assert_eq!(loop_state(&t, &f)["updated_at"], stamp(240));
    t.clock.set(480);
    blocked(stop_of(&t, S, "idle exactly 240 minutes: still held", false));
    t.clock.advance(1);
    blocked(stop_of(&t, S, "a minute later, but active a minute ago", false));
    t.clock.set(481 + 240);
    t.clock.advance_secs(1);
    let message = allowed(stop_of(&t, S, "back after a long break", false));
    assert!(message.contains("expired after 240 minutes without activity"), "{message}");
    let run = run_state(&t, &f);
    assert_eq!((run["state"].as_str(), run["paused"]["reason"].as_str()), (Some("needs_user_input"), Some("stale")));
    let l = loop_state(&t, &f);
    assert_eq!((l["active"].as_bool(), l["ended_reason"].as_str()), (Some(false), Some("expired")));
    assert_eq!(stop_of(&t, S, "again", false), StopOutcome::Silent);
    // Claiming the pipeline picks the loop up again.
    ownership::claim(&t.env_as(S), None, None).unwrap();
    assert_eq!(run_state(&t, &f)["state"], "implementing_loop");
    blocked(stop_of(&t, S, "back", false));
}

#[test]
fn stale_after_minutes_is_the_configured_one() {
    let t = Repo::new();
    t.write(
        ".phasegate/pipeline.config.json",
        r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"]}, "stopHook": {"staleAfterMinutes": 30}}"#,
    );
    let f = to_loop(&t, "true", 50);
    t.clock.set(30);
    blocked(stop_of(&t, S, "a", false));
    t.clock.set(61);
    assert!(allowed(stop_of(&t, S, "b", false)).contains("expired after 31 minutes"));
    assert_eq!(run_state(&t, &f)["paused"]["reason"], "stale");
}

#[test]
fn waiting_for_a_background_worker_lets_the_session_stop_and_counts_nothing() {
    let t = Repo::new();
    let f = to_loop(&t, "true", 2);
    let input = HookInput {
        session_id: Some(S.into()),
        cwd: Some(t.root().to_owned()),
        last_assistant_message: Some("Waiting for the implementer.".into()),
        background_tasks: vec![phasegate_core::pipeline::impl_loop::BackgroundTask {
            id: "t1".into(),
            kind: "subagent".into(),
            status: "running".into(),
            description: "Fix review findings".into(),
            agent_type: Some("phasegate:implementer".into()),
        }],
        ..HookInput::default()
    };
    for _ in 0..5 {
        assert_eq!(stop(&input, &t.env(), None, None), StopOutcome::Silent);
    }
    assert_eq!(loop_state(&t, &f)["iteration"], 0);
}

#[test]
fn a_pipeline_suspended_on_a_question_lets_its_session_stop() {
    let t = Repo::new();
    let f = to_loop(&t, "true", 5);
    let request = crate::questions::blocking("Which token lifetime?");
    let asked = ask::ask(
        &t.env(),
        Some(&f),
        AskInput { request, task: None, item_type: ItemType::Feature, session: Interaction::Interactive, round: None },
    )
    .unwrap();
    assert_eq!(asked.route.to_string().as_str(), "suspend", "a pipeline runs unattended");
    let message = allowed(stop_of(&t, S, "waiting", false));
    assert!(message.contains("is suspended until question") && message.contains(&f), "{message}");
    assert_eq!(loop_state(&t, &f)["iteration"], 0);
}

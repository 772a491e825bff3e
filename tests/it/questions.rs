//! Questions and suspension (seed 000 Part 2, seed 004 §11) through the real
//! binaries: asking routes by session, a suspended feature is refused and
//! skipped, an answer is recorded once and taken back into the work, and the
//! hooks name suspended features and never hold a session on one.

use serde_json::{Value, json};

use crate::util::{HOOK, Run, TestEnv};

const BLOCKING: &str = r#"{"question": {"type": "blocking", "text": "Grid or list layout?", "context": "The spec names both.",
    "options": [{"label": "Grid", "recommended": true}, {"label": "List"}], "allowFreeText": false}}"#;

fn ask(env: &TestEnv, feature: &str, text: &str, session: &str) -> Value {
    let file = env.write("q.json", text);
    env.ws(&["question", "ask", "--file", file.to_str().unwrap(), session, "--feature", feature]).ok().json()
}

#[test]
fn a_headless_blocking_question_suspends_its_feature_in_the_seeds_marker() {
    let env = TestEnv::new();
    let a = env.feature("a", "standard");
    let asked = ask(&env, &a, BLOCKING, "--headless");
    assert_eq!((asked["route"].as_str(), asked["id"].as_str()), (Some("suspend"), Some("001-a.1")));
    let marker: Value = serde_json::from_str(&env.read(".claude/suspended/001-a.json")).unwrap();
    // Every field of seed 000's example is there.
    for k in [
        "slug",
        "item_type",
        "item_path",
        "plan_path",
        "task_id",
        "question",
        "question_context",
        "slack_thread_ts",
        "slack_channel_id",
        "suspended_at",
        "timeout_minutes",
    ] {
        assert!(marker.get(k).is_some(), "marker lacks {k}: {marker}");
    }
    assert_eq!((marker["slug"].as_str(), marker["timeout_minutes"].as_u64()), (Some("001-a"), Some(1440)));
    assert_eq!(marker["item_path"], "docs/features/001-a");
    // The feature is suspended: starting it is refused with the question.
    let out = env.ws(&["phase", "start", "brainstorm", "--feature", &a]).code(1);
    out.stderr_has("suspended").stderr_has("Grid or list layout?").stderr_has("question answer 001-a.1");
    env.ws(&["next", "--feature", &a]).ok().stdout_has("suspended");
    env.ws(&["status"]).ok().stdout_has("suspended").stdout_has("/phasegate:answer 001-a.1");
    // A second blocking question for the same item is refused; the same one is not asked twice.
    assert_eq!(ask(&env, &a, BLOCKING, "--headless")["route"], "already-asked");
    let other = env.write("q2.json", r#"{"type": "blocking", "text": "Dark mode?"}"#);
    env.ws(&["question", "ask", "--file", other.to_str().unwrap(), "--headless", "--feature", &a]).code(1);
}

#[test]
fn an_interactive_question_goes_to_ask_user_question_within_its_limits() {
    let env = TestEnv::new();
    let a = env.feature("a", "standard");
    let asked = ask(&env, &a, BLOCKING, "--interactive");
    assert_eq!(asked["route"], "ask-user");
    let q = &asked["askUserQuestion"]["questions"][0];
    assert_eq!(q["options"][0]["label"], "Grid (Recommended)");
    assert!(q["header"].as_str().unwrap().chars().count() <= 12);
    // Not suspended: the session asks now.
    assert!(!env.path(".claude/suspended/001-a.json").exists());
    // Claude Code's interactive entrypoint gives the same route without a flag.
    let file = env.write("q3.json", r#"{"type": "blocking", "text": "Which font?"}"#);
    let out = env
        .ws(&["question", "ask", "--file", file.to_str().unwrap(), "--feature", &a])
        .env("CLAUDE_CODE_ENTRYPOINT", "cli")
        .ok()
        .json();
    assert_eq!(out["route"], "ask-user");
    let out = env
        .ws(&[
            "question",
            "ask",
            "--file",
            env.write("q4.json", r#"{"type": "blocking", "text": "Which colour?"}"#).to_str().unwrap(),
            "--feature",
            &a,
        ])
        .env("CLAUDE_CODE_ENTRYPOINT", "sdk-cli")
        .ok()
        .json();
    assert_eq!(out["route"], "suspend", "claude -p is headless");
}

#[test]
fn an_answer_is_recorded_once_and_an_option_is_picked_by_number() {
    let env = TestEnv::new();
    let a = env.feature("a", "standard");
    ask(&env, &a, BLOCKING, "--headless");
    // Not an option, and free text is not allowed: exit 2 with the options.
    env.ws(&["question", "answer", "001-a.1", "a table"]).code(2).stderr_has("1 Grid, 2 List");
    let done = env.ws(&["question", "answer", "001-a", "2", "--by", "ana"]).ok().json();
    assert_eq!((done["answer"].as_str(), done["resumes"].as_bool()), (Some("List"), Some(true)));
    env.ws(&["question", "answer", "001-a.1", "1"]).code(1).stderr_has("already answered");
    // The next start takes the answer in and the marker moves to the archive.
    let started = env.ws(&["phase", "start", "brainstorm", "--feature", &a]).ok().json();
    assert_eq!(started["answers"][0]["answer"], "List");
    assert!(!env.path(".claude/suspended/001-a.json").exists());
    let archived: Value = serde_json::from_str(&env.read(".claude/questions/001-a.1.json")).unwrap();
    assert_eq!((archived["answer"]["user"].as_str(), archived["takenAt"].is_string()), (Some("ana"), true));
    assert_eq!(env.ws(&["question", "list", "--json"]).ok().json()["questions"], json!([]));
}

#[test]
fn a_non_blocking_question_is_queued_with_its_default_and_a_preference_is_remembered() {
    let env = TestEnv::new();
    let a = env.feature("a", "standard");
    let pref = r#"{"type": "preference", "text": "Tabs or spaces?", "tags": ["indentation"], "default": "spaces"}"#;
    let asked = ask(&env, &a, pref, "--headless");
    assert_eq!((asked["route"].as_str(), asked["proceedWith"].as_str()), (Some("queue"), Some("spaces")));
    assert!(!env.path(".claude/suspended/001-a.json").exists(), "a non-blocking question suspends nothing");
    env.ws(&["question", "answer", "001-a.1", "tabs"]).ok();
    // A later question with the same tag, from another feature, is answered by the preference.
    let b = env.feature("b", "standard");
    let again = ask(
        &env,
        &b,
        r#"{"type": "preference", "text": "Indent style?", "tags": ["Indentation"], "default": "spaces"}"#,
        "--headless",
    );
    assert_eq!((again["route"].as_str(), again["answer"].as_str()), (Some("answered"), Some("tabs")));
}

#[test]
fn bad_questions_and_unreadable_markers_get_exit_2_naming_the_file() {
    let env = TestEnv::new();
    let a = env.feature("a", "standard");
    let bad = env.write("bad.json", r#"{"type": "urgent", "text": "x"}"#);
    env.ws(&["question", "ask", "--file", bad.to_str().unwrap(), "--feature", &a])
        .code(2)
        .stderr_has("bad.json")
        .stderr_has("urgent");
    env.write(".claude/suspended/001-a.json", r#"{"slug": "001-a"}"#);
    let out = env.ws(&["question", "list"]).code(2);
    out.stdout_has(".claude/suspended/001-a.json").stdout_has("required");
    // The broken marker is never overwritten.
    env.ws(&[
        "question",
        "ask",
        "--file",
        env.write("ok.json", BLOCKING).to_str().unwrap(),
        "--headless",
        "--feature",
        &a,
    ])
    .code(2);
    assert_eq!(env.read(".claude/suspended/001-a.json"), r#"{"slug": "001-a"}"#);
}

#[test]
fn the_backlog_skips_suspended_features_and_puts_an_arrived_answer_first() {
    let env = TestEnv::new();
    let a = env.feature("a", "standard");
    let b = env.feature("b", "standard");
    ask(&env, &a, BLOCKING, "--headless");
    let order = env.ws(&["backlog", "--json"]).ok().json();
    assert_eq!(order["next"]["feature"], b.as_str());
    assert_eq!(order["suspended"][0]["feature"], a.as_str());
    env.ws(&["question", "answer", "001-a.1", "Grid"]).ok();
    let order = env.ws(&["backlog", "--json"]).ok().json();
    assert_eq!(
        (order["next"]["feature"].as_str(), order["next"]["answerArrived"].as_bool()),
        (Some(a.as_str()), Some(true))
    );
    assert_eq!(order["suspended"], json!([]));
}

#[test]
fn session_start_names_suspended_features_and_arrived_answers() {
    let env = TestEnv::new();
    let a = env.feature("a", "standard");
    ask(&env, &a, BLOCKING, "--headless");
    let input = json!({"session_id": "s-1", "cwd": env.root(), "hook_event_name": "SessionStart", "source": "startup"});
    let out = Run::new(HOOK, &["session-start"], env.root()).stdin(input.to_string()).ok().json();
    let ctx = out["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(ctx.contains("suspended, waiting for an answer: 001-a (001-a.1)"), "{ctx}");
    env.ws(&["question", "answer", "001-a.1", "Grid"]).ok();
    let out = Run::new(HOOK, &["session-start"], env.root()).stdin(input.to_string()).ok().json();
    let ctx = out["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(ctx.contains("the answer to 001-a.1 arrived"), "{ctx}");
}

#[test]
fn the_stop_hook_never_holds_a_session_on_a_suspended_pipeline() {
    let env = TestEnv::new();
    let f = env.to_loop("s-1", "echo ok", 5);
    let file = env.write("q.json", BLOCKING);
    let asked = env.ws(&["question", "ask", "--file", file.to_str().unwrap(), "--feature", &f]).ok().json();
    assert_eq!(asked["route"], "suspend", "a pipeline is headless whatever the session");
    let before = env.loop_state(&f)["iteration"].clone();
    let input = json!({"session_id": "s-1", "cwd": env.root(), "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "waiting"});
    let out = Run::new(HOOK, &["stop"], env.root()).stdin(input.to_string()).ok();
    assert!(!out.stdout.contains("\"block\""), "{}", out.report());
    out.stdout_has("is suspended");
    assert_eq!(env.loop_state(&f)["iteration"], before, "a stop on a suspended item is not an iteration");
}

#[test]
fn a_paused_pipeline_asks_a_person_and_resumes_with_the_answer() {
    let env = TestEnv::new();
    let f = env.pipeline("s1");
    env.ws_as("s1", &["pipeline", "pause", "needs_clarification", "--message", "Which token lifetime?"]).ok();
    // next hands the decision to a person.
    let next = env.ws(&["pipeline", "next", "--json"]).ok().json();
    assert_eq!(next["then"][0], format!("workflow-state pipeline ask --feature {f}"));
    // Even from an interactive session: a pipeline runs unattended, so it suspends.
    let asked = env.ws(&["pipeline", "ask", "--feature", &f]).env("CLAUDE_CODE_ENTRYPOINT", "cli").ok().json();
    assert_eq!(asked["route"], "suspend");
    let marker: Value = serde_json::from_str(&env.read(&format!(".claude/suspended/{f}.json"))).unwrap();
    assert!(marker["question"].as_str().unwrap().contains("paused (needs_clarification): Which token lifetime?"));
    assert_eq!(marker["task_id"], "pipeline:requirements_gathering");
    // Waiting: next says so, resume is refused, asking again is refused.
    let next = env.ws(&["pipeline", "next", "--json"]).ok().json();
    assert!(next["then"].as_array().unwrap().is_empty());
    assert!(next["action"].as_str().unwrap().contains(&format!("waiting for the answer to {f}.1")));
    env.ws(&["pipeline", "resume", "--feature", &f]).code(1).stderr_has("is suspended").stderr_has("question answer");
    assert_eq!(env.ws(&["pipeline", "ask", "--feature", &f]).ok().json()["route"], "already-asked");
    // Answered: next says to resume with it; resume takes it in.
    env.ws(&["question", "answer", &format!("{f}.1"), "One hour, refresh tokens for a week."]).ok();
    let next = env.ws(&["pipeline", "next", "--json"]).ok().json();
    assert!(next["action"].as_str().unwrap().contains("\"One hour, refresh tokens for a week.\""));
    assert_eq!(next["then"][0], format!("workflow-state pipeline resume --feature {f}"));
    let resumed = env.ws(&["pipeline", "resume", "--feature", &f]).ok().json();
    assert_eq!(resumed["state"], "requirements_gathering");
    assert_eq!(resumed["answers"][0]["answer"], "One hour, refresh tokens for a week.");
    assert!(!env.path(&format!(".claude/suspended/{f}.json")).exists());
    assert!(env.path(&format!(".claude/questions/{f}.1.json")).exists());
}

#[test]
fn a_cancelled_pipeline_asks_nobody_the_user_who_cancelled_is_there() {
    let env = TestEnv::new();
    let f = env.pipeline("s1");
    env.ws_as("s1", &["pipeline", "pause", "cancelled", "--message", "cancelled by the user"]).ok();
    let next = env.ws(&["pipeline", "next", "--json"]).ok().json();
    assert_eq!(next["then"][0], format!("workflow-state pipeline resume --feature {f}"));
    env.ws(&["pipeline", "resume", "--feature", &f]).ok();
}

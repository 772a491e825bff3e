//! Interrupted, never lost (issue 33): the StopFailure hook records a turn
//! that Claude Code ended on an API error, with what was in flight and when
//! the work may go on; status and the next SessionStart say it in one line;
//! a turn of that session that ends well clears it.

use chrono::{Duration, Utc};
use serde_json::{Value, json};

use crate::util::{HOOK, Run, TestEnv};

const S: &str = "8b4bfb6c-590e-4b80-8d56-b0eb48d2d24a";

fn hook(env: &TestEnv, event: &str, session: &str, input: Value) -> crate::util::Done {
    let mut input = input;
    input["session_id"] = json!(session);
    input["cwd"] = json!(env.root());
    Run::new(HOOK, &[event], env.root()).stdin(input.to_string()).env("TZ", "UTC").ok()
}

fn stop_failure(env: &TestEnv, session: &str, error: &str, said: &str) -> crate::util::Done {
    hook(
        env,
        "stop-failure",
        session,
        json!({"hook_event_name": "StopFailure", "error": error, "last_assistant_message": said}),
    )
}

/// `h:mm am/pm` as Claude Code prints a reset in zone UTC.
fn printed(t: chrono::DateTime<Utc>) -> String {
    t.format("%-I:%M%P").to_string()
}

#[test]
fn a_usage_limit_is_recorded_with_what_was_in_flight_and_said_until_its_reset() {
    let env = TestEnv::new();
    let f = env.feature("export", "standard");
    env.ws(&["phase", "start", "specify"]).ok();
    let reset = Utc::now() + Duration::hours(2);
    let said = format!("You've hit your 5-hour limit · resets {} (UTC)", printed(reset));
    let out = stop_failure(&env, S, "rate_limit", &said);
    let message: Value = serde_json::from_str(out.stdout.trim()).unwrap();
    let message = message["systemMessage"].as_str().unwrap().to_owned();
    let until = format!("until {} (UTC)", reset.format("%H:%M"));
    assert!(message.contains("paused by a usage limit") && message.contains(&until), "{message}");
    assert!(message.contains(&format!("phase specify of {f} was in progress")), "{message}");
    assert!(message.contains("go on with `/phasegate:specify`"), "{message}");
    // Status, and a new session's start, say it; a resumed one knows it is its own.
    env.ws(&["status"]).ok().stdout_has(&format!("paused: session 8b4bfb6c was paused by a usage limit {until}"));
    let start = |session: &str| {
        hook(&env, "session-start", session, json!({"hook_event_name": "SessionStart", "source": "startup"})).stdout
    };
    assert!(start("another-session").contains("session 8b4bfb6c was paused by a usage limit"));
    assert!(start(S).contains("this session was paused by a usage limit"));
    // A turn of that session that ends well: it is over.
    hook(&env, "stop", S, json!({"hook_event_name": "Stop", "stop_hook_active": false}));
    assert!(!env.ws(&["status"]).ok().stdout.contains("paused:"));
    assert!(!start("third-session").contains("was paused"));
}

#[test]
fn server_errors_back_off_longer_each_time_and_a_billing_error_waits_for_a_person() {
    let env = TestEnv::new();
    env.feature("export", "standard");
    let record = || -> Value {
        let path = env.path(&format!(".git/phasegate/interrupted/{S}.json"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let said = "API Error: Repeated 529 Overloaded errors. The API is at capacity — this is usually temporary.";
    stop_failure(&env, S, "server_error", said);
    let first = record();
    assert_eq!((first["cause"].as_str(), first["attempt"].as_u64()), (Some("server-error"), Some(1)), "{first}");
    assert_eq!(first["resume"]["from"], "back-off");
    stop_failure(&env, S, "server_error", said);
    let second = record();
    let secs = |r: &Value| {
        let at = chrono::DateTime::parse_from_rfc3339(r["at"].as_str().unwrap()).unwrap();
        let resume = chrono::DateTime::parse_from_rfc3339(r["resume"]["at"].as_str().unwrap()).unwrap();
        (resume - at).num_seconds()
    };
    assert_eq!((secs(&first), secs(&second)), (30, 60), "{first}\n{second}");
    stop_failure(&env, S, "billing_error", "Credit balance is too low");
    let third = record();
    assert_eq!(third["resume"]["kind"], "person", "{third}");
    env.ws(&["status"]).ok().stdout_has("was stopped by an API error a person must fix");
}

#[test]
fn a_stop_failure_hook_with_bad_input_or_outside_a_repository_says_nothing_and_exits_0() {
    let env = TestEnv::new();
    for input in ["", "not json", "[]", r#"{"error": 7, "last_assistant_message": null}"#] {
        let out = Run::new(HOOK, &["stop-failure"], env.root()).stdin(input).ok();
        assert!(!out.stdout.contains("paused"), "{input}: {}", out.report());
    }
    let outside = tempfile::tempdir().unwrap();
    let out = Run::new(HOOK, &["stop-failure"], outside.path())
        .stdin(json!({"session_id": S, "cwd": outside.path(), "error": "rate_limit"}).to_string())
        .ok();
    assert!(out.stdout.trim().is_empty(), "{}", out.report());
    assert!(!outside.path().join(".phasegate").exists(), "nothing is written outside a repository");
}

#[test]
fn what_the_user_saw_is_kept_scrubbed_and_short() {
    let env = TestEnv::new();
    env.feature("export", "standard");
    let said = format!("API Error 401 · token sk-ant-api03-{} rejected {}", "a".repeat(40), "x".repeat(900));
    stop_failure(&env, S, "authentication_failed", &said);
    let text = std::fs::read_to_string(env.path(&format!(".git/phasegate/interrupted/{S}.json"))).unwrap();
    assert!(!text.contains("sk-ant-api03-aaaa"), "{text}");
    let r: Value = serde_json::from_str(&text).unwrap();
    assert!(r["said"].as_str().unwrap().len() <= 300, "{r}");
}

/// A process id no process has (above every system's largest).
const ENDED_PROCESS: u32 = 0x7FFF_FFF0;

/// Gives a session's record the process `pid` and a heartbeat `silent` ago.
fn crashed(env: &TestEnv, session: &str, silent: Duration) {
    let path = env.path(&format!(".git/phasegate/sessions/{session}.json"));
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let at = Utc::now() - silent;
    record["pid"] = json!(ENDED_PROCESS);
    record["heartbeat_at"] = json!(phasegate_core::time::stamp(at));
    std::fs::write(&path, record.to_string()).unwrap();
    std::fs::File::options().write(true).open(&path).unwrap().set_modified(at.into()).unwrap();
}

/// Issue 33, "Crashes heal at once": a session whose Claude Code process
/// is gone (killed 20 s ago, no SessionEnd) gives up its lease at the next
/// look, not 5 minutes later. One a usage limit paused keeps its lease
/// through SessionEnd and an hour of silence with its process gone, and the
/// session refused is told until when; after the reset and the grace, the
/// file is free.
#[test]
fn a_crashed_session_frees_its_files_at_once_and_a_paused_one_keeps_them_until_its_reset() {
    let env = TestEnv::new();
    env.write("src/a.rs", "a\n");
    env.write("src/b.rs", "a\n");
    let (a, b, c) = ("sess-a-crashes", "sess-b-waits", "sess-c-paused");
    for s in [a, b, c] {
        hook(&env, "session-start", s, json!({"hook_event_name": "SessionStart", "source": "startup"}));
    }
    assert_eq!(env.edit_as(a, "src/a.rs").stdout, "");
    assert_eq!(env.edit_as(c, "src/b.rs").stdout, "");
    crashed(&env, a, Duration::seconds(20));
    let granted = env.edit_as(b, "src/a.rs");
    assert!(!granted.stdout.contains("\"deny\""), "{}", granted.report());
    assert!(granted.stdout.contains("Claude Code process has ended"), "{}", granted.report());

    let reset = Utc::now() + Duration::hours(2);
    stop_failure(&env, c, "rate_limit", &format!("You've hit your 5-hour limit · resets {} (UTC)", printed(reset)));
    hook(&env, "session-end", c, json!({"hook_event_name": "SessionEnd", "reason": "other"}));
    crashed(&env, c, Duration::hours(1));
    let refused = env.edit_as(b, "src/b.rs");
    assert!(refused.stdout.contains("\"deny\""), "{}", refused.report());
    let until = format!("paused by a usage limit or an API error until {} UTC", reset.format("%Y-%m-%d %H:%M"));
    assert!(
        refused.stdout.contains(&until) && refused.stdout.contains("keeps the file until then"),
        "{}",
        refused.report()
    );
    let listed = env.ws(&["lease", "list", "--json"]).ok().json();
    assert!(listed.to_string().contains(c), "{listed}");
    env.ws(&["watch", "--once"]).ok().stdout_has(&format!("paused until {} UTC", reset.format("%H:%M")));

    // The reset and the grace passed, and nobody carried on: the file is free.
    resumed_ago(&env, c, Duration::minutes(6));
    let granted = env.edit_as(b, "src/b.rs");
    assert!(!granted.stdout.contains("\"deny\""), "{}", granted.report());
}

/// Moves a session's interruption's resume time to `ago` before now.
fn resumed_ago(env: &TestEnv, session: &str, ago: Duration) {
    let path = env.path(&format!(".git/phasegate/interrupted/{session}.json"));
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    record["resume"]["at"] = json!(phasegate_core::time::stamp(Utc::now() - ago));
    std::fs::write(&path, record.to_string()).unwrap();
}

/// Another session's Stop cleared every interruption whose reset had
/// passed, so a paused session lost its files at the reset itself, before
/// its runner resumed it (the runner waits the reset plus a grace). Now a
/// pause ends with its grace, and only then does another's Stop clear it.
#[test]
fn another_sessions_stop_ended_a_pause_at_the_reset_before_its_runner_resumed() {
    let env = TestEnv::new();
    env.write("src/b.rs", "a\n");
    let (b, c) = ("sess-b-works", "sess-c-paused");
    for s in [b, c] {
        hook(&env, "session-start", s, json!({"hook_event_name": "SessionStart", "source": "startup"}));
    }
    assert_eq!(env.edit_as(c, "src/b.rs").stdout, "");
    stop_failure(&env, c, "rate_limit", "You've hit your 5-hour limit · resets in 1h");
    hook(&env, "session-end", c, json!({"hook_event_name": "SessionEnd", "reason": "other"}));
    crashed(&env, c, Duration::hours(1));
    resumed_ago(&env, c, Duration::minutes(1));
    hook(&env, "stop", b, json!({"hook_event_name": "Stop", "stop_hook_active": false}));
    assert!(env.path(&format!(".git/phasegate/interrupted/{c}.json")).exists(), "the pause holds through its grace");
    let refused = env.edit_as(b, "src/b.rs");
    assert!(refused.stdout.contains("\"deny\""), "{}", refused.report());
    resumed_ago(&env, c, Duration::minutes(6));
    hook(&env, "stop", b, json!({"hook_event_name": "Stop", "stop_hook_active": false}));
    assert!(!env.path(&format!(".git/phasegate/interrupted/{c}.json")).exists(), "after the grace it is over");
    let granted = env.edit_as(b, "src/b.rs");
    assert!(!granted.stdout.contains("\"deny\""), "{}", granted.report());
}

//! Several sessions on one repository through the real binaries: the
//! PreToolUse hook denying a leased file and SessionEnd releasing it,
//! `monitor check --json` on a task whose recorded start lies 19 minutes
//! back, `events pending --json` and `events ack`, the ideation commands'
//! exit codes, and `workflow-state watch` in a real terminal (tmux).

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::{HOOK, Run, TestEnv, WORKFLOW_STATE};

fn hook(env: &TestEnv, event: &str, input: Value) -> crate::util::Done {
    Run::new(HOOK, &[event], env.root()).stdin(input.to_string()).ok()
}

fn start(env: &TestEnv, session: &str) {
    hook(
        env,
        "session-start",
        json!({"session_id": session, "cwd": env.root(), "hook_event_name": "SessionStart", "source": "startup"}),
    );
}

fn edit(env: &TestEnv, session: &str, rel: &str) -> crate::util::Done {
    hook(
        env,
        "pre-tool-use",
        json!({"session_id": session, "cwd": env.root(), "hook_event_name": "PreToolUse", "tool_name": "Edit",
               "tool_input": {"file_path": env.path(rel), "old_string": "a", "new_string": "b"}}),
    )
}

#[test]
fn the_hook_denies_a_file_another_session_leases_and_session_end_releases_it() {
    let env = TestEnv::new();
    start(&env, "sess-a");
    start(&env, "sess-b");
    assert_eq!(edit(&env, "sess-a", "src/lib.rs").stdout, "", "the first edit is silent");
    let denied = edit(&env, "sess-b", "src/lib.rs").json();
    let out = &denied["hookSpecificOutput"];
    assert_eq!(out["permissionDecision"], "deny");
    let reason = out["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("src/lib.rs is leased by session sess-a"), "{reason}");
    let leases = env.ws(&["lease", "list", "--json"]).ok().json();
    assert_eq!(leases["leases"][0]["holder"], "sess-a");
    assert_eq!(leases["waits"][0]["waiter"], "sess-b");
    hook(
        &env,
        "session-end",
        json!({"session_id": "sess-a", "cwd": env.root(), "hook_event_name": "SessionEnd", "reason": "exit"}),
    );
    assert_eq!(edit(&env, "sess-b", "src/lib.rs").stdout, "", "released at once");
    let sessions = env.ws(&["sessions", "list", "--json"]).ok().json();
    let states: Vec<(&str, &str)> = sessions
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_str().unwrap(), s["state"].as_str().unwrap()))
        .collect();
    assert_eq!(states, [("sess-a", "COMPLETE"), ("sess-b", "ACTIVE")]);
}

/// Sets the recorded start of `task` to `minutes` ago: the monitor's facts
/// come from the build's records, and the binaries read the real clock.
fn started_ago(env: &TestEnv, feature: &str, task: &str, minutes: i64) {
    let path = format!("docs/features/{feature}/.review-cycles.json");
    let mut cycles: Value = serde_json::from_str(&env.read(&path)).unwrap();
    let at = chrono::Utc::now() - chrono::Duration::minutes(minutes);
    cycles["sessions"][feature]["build"]["started"][task] = json!(phasegate_core::time::stamp(at));
    env.write(&path, &serde_json::to_string_pretty(&cycles).unwrap());
}

#[test]
fn monitor_check_json_reports_a_stuck_task_once_with_the_pms_decision() {
    let env = TestEnv::new();
    let f = env.feature("login", "standard");
    env.write(&format!("docs/features/{f}/tasks.md"), "- [ ] T1: Add the login endpoint [`files: src/auth.rs`]\n");
    start(&env, "sess-a");
    env.ws_as("sess-a", &["tasks", "start", "T1"]).ok();
    started_ago(&env, &f, "T1", 19);
    let c = env.ws(&["monitor", "check", "--json"]).ok().json();
    assert_eq!(c["ran"], true);
    assert_eq!(c["alerts"].as_array().unwrap().len(), 1, "{c}");
    assert_eq!(c["alerts"][0]["type"], "stuck_task");
    assert_eq!(c["alerts"][0]["message"], "Task T1 stuck for 19 min");
    assert_eq!(c["decisions"][0]["decision"]["action"], "WATCH");
    assert_eq!(c["report"]["stuck_tasks"][0]["session"], "sess-a");
    let again = env.ws(&["monitor", "check", "--json"]).ok().json();
    assert!(again["alerts"].as_array().unwrap().is_empty(), "no duplicate: {again}");
    assert_eq!(again["report"]["suppressed"][0]["type"], "stuck_task");
    // --if-due: the last check is younger than 2 minutes.
    let skipped = env.ws(&["monitor", "check", "--json", "--if-due"]).ok().json();
    assert_eq!(skipped["ran"], false);
    // The alert is an event for the PM.
    let pending = env.ws(&["events", "pending", "--json"]).ok().json();
    let types: Vec<&str> = pending["events"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert!(types.contains(&"alert.stuck_task"), "{pending}");
    let status = env.ws(&["status"]).ok();
    status.stdout_has("1 alert(s) and 1 PM decision(s) in the last 30 min");
    status.stdout_has("Last PM decision: WATCH");
}

#[test]
fn events_pending_lists_with_the_suggestion_and_ack_takes_them_off_once() {
    let env = TestEnv::new();
    let e = env.ws(&["events", "emit", "build.completed", "--feature", "001-x"]).ok().json();
    assert_eq!(e["id"], "e1");
    env.ws(&["events", "emit", "Not.An.Event"]).code(2).stderr_has("is not an event type");
    let p = env.ws(&["events", "pending", "--json"]).ok().json();
    assert_eq!(p["events"][0]["suggestion"]["command"], "/phasegate:retro");
    env.ws(&["events", "ack", "e1"]).ok();
    env.ws(&["events", "ack", "e1"]).code(1);
    env.ws(&["events", "pending"]).ok().stdout_has("No pending events.");
}

#[test]
fn ideation_commands_refuse_before_start_and_reject_bad_input() {
    let env = TestEnv::new();
    env.feature("habits", "standard");
    env.ws(&["ideation", "advance"]).code(1).stderr_has("ideation start");
    env.ws(&["ideation", "start", "A habit tracker"]).ok().stdout_has("EXPLORING");
    env.ws(&["ideation", "artifact", "persona", "nurses", "--confidence", "0.5"]).code(2);
    env.ws(&["ideation", "artifact", "target-user", "nurses", "--confidence", "70"]).code(2).stderr_has("0.7 for 70%");
    let shown = env.ws(&["ideation", "artifact", "target-user", "nurses", "--confidence", "0.7", "--json"]).ok().json();
    assert_eq!((shown["phase"].as_str(), shown["artifacts"].as_u64()), (Some("EXPLORING"), Some(1)));
    env.ws(&["ideation", "advance"]).ok().stdout_has("no problem artifact yet");
    env.ws(&["ideation", "prompt"]).ok().stdout_has("## What We Know So Far");
}

/// `workflow-state watch` in a real terminal: the view appears, and
/// refreshes when another session takes a lease. Needs tmux (a test that
/// cannot look at a terminal does not pass).
#[test]
fn watch_refreshes_in_a_real_terminal() {
    assert!(
        std::process::Command::new("tmux").arg("-V").output().is_ok(),
        "this test drives `workflow-state watch` in a real terminal: install tmux (apt-get install tmux, brew install tmux)"
    );
    let env = TestEnv::new();
    start(&env, "sess-a");
    edit(&env, "sess-a", "src/first.rs");
    let name = format!("phasegate-watch-{}", std::process::id());
    let socket = env.outer().join("tmux.sock");
    let tmux = |args: &[&str]| {
        std::process::Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux runs")
    };
    let command =
        format!("cd {} && {} watch --interval 1", shell_quote(env.root()), shell_quote(Path::new(WORKFLOW_STATE)));
    let made = tmux(&["new-session", "-d", "-s", &name, "-x", "160", "-y", "50", &command]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let pane = |want: &str| -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let out = tmux(&["capture-pane", "-p", "-t", &name]);
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            if text.contains(want) || Instant::now() > deadline {
                return text;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    let first = pane("src/first.rs");
    assert!(first.contains("SESSIONS (1)") && first.contains("sess-a  ACTIVE"), "{first}");
    assert!(first.contains("src/first.rs  held by sess-a"), "{first}");
    // Another session starts and takes a file: the view refreshes by itself.
    start(&env, "sess-b");
    edit(&env, "sess-b", "src/second.rs");
    let second = pane("src/second.rs");
    tmux(&["kill-server"]);
    assert!(second.contains("SESSIONS (2)") && second.contains("src/second.rs  held by sess-b"), "{second}");
    assert_eq!(second.matches("phasegate watch —").count(), 1, "the view replaces itself:\n{second}");
}

fn shell_quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// Eight sessions ask for one free file at the same moment: exactly one
/// gets it, the others are denied naming that one (the lease is written
/// under the leases' lock, after reading it again).
#[test]
fn sessions_racing_for_one_file_get_it_once() {
    let env = TestEnv::new();
    let sessions: Vec<String> = (0..8).map(|i| format!("racer-{i}")).collect();
    for s in &sessions {
        start(&env, s);
    }
    let outputs: Vec<(String, String)> = std::thread::scope(|scope| {
        let runs: Vec<_> =
            sessions.iter().map(|s| scope.spawn(|| (s.clone(), edit(&env, s, "src/hot.rs").stdout))).collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let granted: Vec<&String> = outputs.iter().filter(|(_, out)| out.is_empty()).map(|(s, _)| s).collect();
    assert_eq!(granted.len(), 1, "{outputs:?}");
    let winner = granted[0];
    for (s, out) in outputs.iter().filter(|(s, _)| s != winner) {
        assert!(out.contains(&format!("src/hot.rs is leased by session {winner}")), "{s}: {out}");
    }
    let leases = env.ws(&["lease", "list", "--json"]).ok().json();
    assert_eq!(leases["leases"][0]["holder"].as_str(), Some(winner.as_str()));
    assert_eq!(leases["waits"].as_array().unwrap().len(), 7);
}

/// Concurrent writers of the event log lose nothing: 6 processes emit 5
/// events each at once; all 30 are there, each with its own id.
#[test]
fn concurrent_event_writers_lose_no_event() {
    let env = TestEnv::new();
    std::thread::scope(|scope| {
        for w in 0..6 {
            let env = &env;
            scope.spawn(move || {
                for i in 0..5 {
                    env.ws(&["events", "emit", "spec.approved", "--task", &format!("W{w}-{i}")]).ok();
                }
            });
        }
    });
    let pending = env.ws(&["events", "pending", "--json"]).ok().json();
    let events = pending["events"].as_array().unwrap();
    let mut ids: Vec<&str> = events.iter().map(|e| e["id"].as_str().unwrap()).collect();
    let mut tasks: Vec<&str> = events.iter().map(|e| e["task"].as_str().unwrap()).collect();
    ids.sort();
    ids.dedup();
    tasks.sort();
    tasks.dedup();
    assert_eq!((ids.len(), tasks.len()), (30, 30), "{pending}");
    assert!(pending["corrupt"].as_array().unwrap().is_empty());
}

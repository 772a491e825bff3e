//! The hook protocol of every event through `phasegate-hook.exe`: exit 0,
//! valid hook JSON or nothing on stdout, nothing on stderr, whatever the
//! input, even on a panic (unwinding on Windows); SessionStart names the
//! active feature; the Stop hook holds a pipeline loop whose tests (run in
//! `cmd /C`) fail.

use serde_json::{Value, json};

use crate::wine::Project;

/// Hook input for `event` in the project, with `extra` fields.
fn input(p: &Project, event: &str, extra: Value) -> Value {
    let mut v =
        json!({"session_id": "s-1", "transcript_path": p.win("t.jsonl"), "cwd": p.win(""), "hook_event_name": event});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

/// Every event: (argument, event name, its fields).
fn events(p: &Project) -> Vec<(&'static str, Value)> {
    vec![
        ("session-start", input(p, "SessionStart", json!({"source": "startup"}))),
        ("user-prompt-submit", input(p, "UserPromptSubmit", json!({"prompt": "/phasegate:design add search"}))),
        (
            "pre-tool-use",
            input(
                p,
                "PreToolUse",
                json!({"tool_name": "Edit", "tool_input": {"file_path": p.win("src/lib.rs"), "old_string": "a", "new_string": "b"}}),
            ),
        ),
        (
            "post-tool-use",
            input(
                p,
                "PostToolUse",
                json!({"tool_name": "Bash", "tool_input": {"command": "dir"}, "tool_response": {}, "duration_ms": 20}),
            ),
        ),
        (
            "subagent-stop",
            input(p, "SubagentStop", json!({"agent_type": "chain-reviewer", "last_assistant_message": "done"})),
        ),
        ("stop", input(p, "Stop", json!({"stop_hook_active": false, "last_assistant_message": "done"}))),
        ("session-end", input(p, "SessionEnd", json!({"reason": "exit"}))),
    ]
}

/// Nothing, or one JSON object.
fn valid(out: &crate::wine::Done) {
    assert!(out.stderr.is_empty(), "{}", out.report());
    if !out.stdout.trim().is_empty() {
        assert!(out.json().is_object(), "{}", out.report());
    }
}

#[test]
fn every_event_exits_zero_with_valid_json_whatever_its_input() {
    let p = Project::new();
    p.feature("x");
    for (event, good) in events(&p) {
        valid(&p.hook(event, &good).ok());
        for bad in ["", "not json", "[1]", r#"{"cwd": 7}"#, r#"{"cwd": "Q:\\no\\such\\folder", "session_id": "s-9"}"#] {
            let out = crate::wine::Run::new(crate::wine::Exe::Hook, &[event], p.root()).stdin(bad).ok();
            valid(&out);
            assert!(
                !out.stdout.contains("\"deny\"") && !out.stdout.contains("\"block\""),
                "{event} {bad:?}: {}",
                out.report()
            );
        }
    }
    // Outside any repository, in a folder with nothing of phasegate's.
    let plain = Project::plain();
    for (event, good) in events(&plain) {
        let out = plain.hook(event, &good).ok();
        valid(&out);
    }
    // An unknown event is a usage error, exit 2.
    crate::wine::Run::new(crate::wine::Exe::Hook, &["no-such-event"], p.root()).code(2).stderr_has("usage");
}

#[test]
fn session_start_names_the_active_feature() {
    let p = Project::new();
    let f = p.feature("login");
    p.ws(&["phase", "start", "specify", "--feature", &f]).ok();
    let out = p.start("s-1");
    let context = out.json()["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_owned();
    assert!(context.contains(&format!("{f} (mode standard): phase specify is PARTIAL")), "{context}");
    assert!(context.contains("Next: /phasegate:specify"), "{context}");
    crate::wine::assert_plain("SessionStart", &context);
}

/// A panic in a hook answers valid JSON and exit 0, and leaves a line in
/// the problems log: panics unwind on windows-gnu as they do on Linux.
#[test]
fn a_panic_in_a_hook_still_answers_valid_json() {
    let p = Project::new();
    let out = p
        .hook("session-start", &input(&p, "SessionStart", json!({"source": "startup"})))
        .env("PHASEGATE_FAILPOINT", "session-start")
        .ok();
    let v = out.json();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart", "{}", out.report());
    let log = p.read(".git/phasegate/hooks/problems.jsonl");
    assert!(log.contains("panicked: failpoint session-start"), "{log}");
    p.ws(&["status"]).ok().stdout_has("Problems that reached nobody in the last 24 h: 1");
}

/// The fixtures of the Linux pipeline tests.
fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/fixtures/pipeline").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn review(reviewer: &str, model: &str) -> String {
    format!(
        r#"{{"id": "review-1", "reviewer": "{reviewer}", "model": "{model}", "status": "approved", "summary": "{model} approves", "findings": [], "blockers": [], "reviewed_at": "2026-11-22T10:00:00Z"}}"#
    )
}

/// A pipeline driven to its implementation loop by session `s`, whose
/// plan's tests are the `cmd` line `tests`.
fn to_loop(p: &Project, s: &str, tests: &str) -> String {
    p.write(".phasegate/pipeline.config.json", r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"]}}"#);
    let f =
        p.ws_as(s, &["pipeline", "start", "auth", "--request", "Add user authentication with JWT tokens"]).ok().json()
            ["feature"]
            .as_str()
            .unwrap()
            .to_owned();
    let task = |file: &str, text: &str| p.write(&format!("docs/features/{f}/.task/{file}"), text);
    task("user-story.json", &fixture("user-story.json"));
    task(
        "plan-refined.json",
        &fixture("plan-refined.json").replace("\"sh test.sh\"", &serde_json::to_string(tests).unwrap()),
    );
    for to in ["plan_drafting", "plan_refining", "plan_reviewing"] {
        p.ws_as(s, &["pipeline", "transition", to]).ok();
    }
    for model in ["sonnet", "opus"] {
        task(&format!("review-{model}.json"), &review("plan-reviewer", model));
        p.ws_as(s, &["pipeline", "review", model]).ok();
    }
    p.ws_as(s, &["pipeline", "final-gate"]).ok();
    p.ws_as(s, &["pipeline", "transition", "implementing"]).ok();
    p.ws_as(s, &["pipeline", "transition", "implementing_loop"]).ok();
    for model in ["sonnet", "opus"] {
        task(&format!("review-{model}.json"), &review("code-reviewer", model));
        p.ws_as(s, &["pipeline", "review", model]).ok();
    }
    p.ws_as(s, &["pipeline", "final-gate"]).ok();
    f
}

#[test]
fn stop_holds_a_pipeline_whose_tests_fail_in_cmd_and_lets_it_end_when_they_pass() {
    const PROMISE: &str = "<promise>IMPLEMENTATION_COMPLETE</promise>";
    let p = Project::new();
    // Broken while a file outside the repository says so (a change inside
    // would reopen the code review).
    let broken = p.root().parent().unwrap().join("broken.txt");
    std::fs::write(&broken, "x\r\n").unwrap();
    p.write(
        "test.cmd",
        &format!(
            "@echo off\r\nif exist \"{}\" (echo 1 test failed & exit /b 1)\r\necho All tests passed\r\n",
            crate::wine::win(&broken)
        ),
    );
    let f = to_loop(&p, "s-1", "test.cmd");
    let stop = |session: &str| {
        let out = p
            .hook("stop", &input(&p, "Stop", json!({"session_id": session, "stop_hook_active": true, "last_assistant_message": format!("Done. {PROMISE}")})))
            .ok();
        valid(&out);
        (!out.stdout.trim().is_empty()).then(|| out.json())
    };
    // Another session is never held.
    assert_eq!(stop("s-2"), None);
    let held = stop("s-1").expect("held while the tests fail");
    assert_eq!(held["decision"], "block", "{held}");
    let why = held["reason"].as_str().unwrap();
    assert!(why.contains("1 test failed"), "{why}");
    crate::wine::assert_plain("the Stop hook's reason", why);
    std::fs::remove_file(&broken).unwrap();
    let done = stop("s-1");
    let state = p.json(&format!("docs/features/{f}/.task/state.json"));
    assert_eq!(state["state"], "complete", "{done:?}");
}

/// Regression: the Slack poller a hook starts in the background, meant to
/// outlive it, held the hook's stdout open (a Windows child inherits every
/// inheritable handle of its parent, and the handles a process is started
/// with are), so whoever read the hook's answer to its end, as Claude Code
/// does, waited for the poller: here for ever, as Slack cannot be reached
/// and the poller keeps trying.
#[test]
fn the_slack_poller_a_hook_started_held_the_hooks_output_open() {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let p = Project::new();
    let f = p.feature("a");
    let config = |background: bool| {
        p.write(
            ".phasegate/questions.config.json",
            &format!(r#"{{"slack": {{"channels": {{"feature": "C0FEATURES"}}, "background": {background}, "pollIntervalSeconds": 5}}}}"#),
        )
    };
    config(false);
    let slack =
        [("PHASEGATE_SLACK_TOKEN", "xoxb-bot-secret-0001"), ("PHASEGATE_SLACK_API_URL", "http://127.0.0.1:9/api/")];
    let q = p.write(
        "q.json",
        r#"{"question": {"type": "blocking", "text": "Grid or list layout?", "options": [{"label": "Grid", "recommended": true}, {"label": "List"}], "allowFreeText": false}}"#,
    );
    let mut ask = p.ws(&["question", "ask", "--file", &crate::wine::win(&q), "--headless", "--feature", &f]);
    for (k, v) in slack {
        ask = ask.env(k, v);
    }
    let asked = ask.ok();
    crate::wine::assert_plain("question ask", &asked.stdout);
    let id = asked.json()["id"].as_str().unwrap().to_owned();
    config(true);
    // SessionStart starts the poller; its answer is read here to its end.
    let mut hook = Command::new(crate::wine::wine());
    hook.arg(crate::wine::Exe::Hook.win_path()).arg("session-start").current_dir(p.root());
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy();
        if k.starts_with("CLAUDE") || k.starts_with("PHASEGATE") || k.starts_with("GIT_") {
            hook.env_remove(&*k);
        }
    }
    hook.env("WINEDEBUG", "-all").envs(slack).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
    let mut child = hook.spawn().unwrap();
    let input = input(&p, "SessionStart", json!({"source": "startup"}));
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let started = Instant::now();
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        let _ = tx.send((text, started.elapsed()));
    });
    let read = rx.recv_timeout(Duration::from_secs(30));
    let _ = child.wait();
    // Answered, the question waits on Slack no more, and the poller ends.
    p.ws(&["question", "answer", &id, "Grid"]).ok();
    let (text, took) = read.expect("the hook's output stayed open after the hook ended: its poller held it");
    assert!(text.contains("suspended, waiting for an answer"), "{text}");
    assert!(took < Duration::from_secs(20), "the hook's output closed after {took:?}");
    // The poller did start, and tried Slack.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(p.path(".git/phasegate/slack-watch.log"))
        .is_ok_and(|l| l.contains("cannot reach Slack"))
    {
        assert!(Instant::now() < deadline, "no poller tried Slack");
        std::thread::sleep(Duration::from_millis(200));
    }
}

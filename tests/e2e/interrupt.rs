//! Interrupted, never lost (issue 33), in the real Claude Code: the runner
//! (`workflow-state run`) drives `claude -p` through an implement of two
//! reviewed tasks while the API answers a usage limit (429 with the
//! headers the real API sends), is overloaded (529, three times), or
//! `claude` is killed mid-task; each time the session resumes at the step,
//! and every task is implemented and reviewed exactly once.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};

use crate::support::{Fixture, WORKFLOW_STATE, bin_dir, plugin_root};

const CODE_REVIEWER: &str = "You are the code reviewer of a phasegate pipeline";

fn ws(args: &str) -> String {
    format!("workflow-state {args} --feature 001-login")
}

/// A feature with two tasks, T2 after T1.
fn two_tasks() -> Fixture {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "login"]);
    f.write(
        "docs/features/001-login/tasks.md",
        "- [ ] T1: Add the form\n  - Files: src/form.rs\n- [ ] T2: Check the token\n  - Files: src/token.rs\n  - Depends on: T1\n",
    );
    f
}

/// T1 whole, then T2 started: the turns before the interruption.
fn first_turns(f: &Fixture) -> Vec<Turn> {
    let src = |name: &str| f.path(&format!("src/{name}")).display().to_string();
    vec![
        Turn::tools(vec![ToolUse::bash(ws("tasks start T1"))]),
        Turn::tools(vec![ToolUse::write(src("form.rs"), "pub fn form() {}\n")]),
        Turn::tools(vec![ToolUse::bash(ws("tasks review T1 --reviewer phasegate:code-reviewer"))]),
        Turn::tools(vec![ToolUse::agent_briefed("phasegate:code-reviewer")]),
        Turn::tools(vec![ToolUse::bash(ws("tasks record T1"))]).expect_tool_result_contains("LGTM"),
        Turn::tools(vec![ToolUse::bash(ws("tasks start T2"))]).expect_tool_result_contains("\"decision\":\"approved\""),
    ]
}

/// T2's work, resumed: the first turn checks what the resumed session was told.
fn last_turns(resumed: Turn) -> Vec<Turn> {
    vec![
        resumed,
        Turn::tools(vec![ToolUse::bash(ws("tasks review T2 --reviewer phasegate:code-reviewer"))]),
        Turn::tools(vec![ToolUse::agent_briefed("phasegate:code-reviewer")]),
        Turn::tools(vec![ToolUse::bash(ws("tasks record T2"))]),
        Turn::text("T1 and T2 are done.").expect_tool_result_contains("\"decision\":\"approved\""),
    ]
}

fn write_token(f: &Fixture) -> ToolUse {
    ToolUse::write(f.path("src/token.rs").display().to_string(), "pub fn check(t: &str) -> bool { !t.is_empty() }\n")
}

struct Runner {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// `workflow-state run` in `f`'s repository, driving the real Claude Code
/// against `api` with a subscription's token (so a usage limit reads as
/// Claude Code shows it to subscribers).
fn run(f: &Fixture, api: &MockApi, envs: &[(&str, &str)]) -> Runner {
    let mut cmd = Command::new(WORKFLOW_STATE);
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &f.home)
        .env("TZ", "UTC")
        .env("ANTHROPIC_BASE_URL", api.base_url())
        .env("CLAUDE_CODE_OAUTH_TOKEN", "sk-ant-oat01-phasegate-e2e-runner")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("PHASEGATE_BIN_DIR", bin_dir())
        .current_dir(&f.repo)
        .args(["run", "--prompt", "/phasegate:implement 001-login", "--grace", "1", "--back-off", "1", "--claude"])
        .arg(phasegate_testkit::locate_binary())
        .envs(envs.iter().copied())
        .args(["--", "--plugin-dir"])
        .arg(plugin_root())
        .args(["--allowedTools", "Bash,Read,Write,Edit,Glob,Grep,Agent,Skill"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(240);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = child.wait_with_output().unwrap();
    Runner {
        code: status.and_then(|s| s.code()),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn now_secs() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// Both tasks done, each reviewed once, the tree as an uninterrupted run
/// leaves it, and nothing left standing.
fn assert_done_once(f: &Fixture, api: &MockApi, r: &Runner) {
    assert_eq!(r.code, Some(0), "runner:\n{}\n{}\n{}", r.stdout, r.stderr, api.report());
    api.assert_finished();
    let reviews = api.requests().iter().filter(|q| q.system_text().contains(CODE_REVIEWER)).count();
    assert_eq!(reviews, 2, "each task reviewed once:\n{}", api.report());
    let tasks = f.read("docs/features/001-login/tasks.md");
    assert!(tasks.contains("- [x] T1") && tasks.contains("- [x] T2"), "{tasks}");
    assert_eq!(f.read("src/form.rs"), "pub fn form() {}\n");
    assert_eq!(f.read("src/token.rs"), "pub fn check(t: &str) -> bool { !t.is_empty() }\n");
    assert!(r.stdout.contains("the session ended its work"), "{}", r.stdout);
    let interrupted = f.path(".git/phasegate/interrupted");
    let left: Vec<_> =
        std::fs::read_dir(&interrupted).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "the interruption is over once the session ended well: {left:?}");
    let state: serde_json::Value = serde_json::from_str(&f.read(".git/phasegate/runner.json")).unwrap();
    assert_eq!(state["now"]["kind"], "ended", "{state}");
}

#[test]
#[allow(clippy::print_stderr, reason = "the run's transcript, which README shows, belongs in the test output")]
fn the_runner_waits_out_a_usage_limit_and_resumes_the_same_session_at_the_step() {
    let f = two_tasks();
    let mut main = first_turns(&f);
    // Claude Code prints the reset to the minute: this minute, so the wait
    // is the grace.
    main.push(Turn::usage_limit(now_secs() + 1, "five_hour"));
    main.extend(last_turns(
        Turn::tools(vec![write_token(&f)])
            .expect_user_text_contains("The session was interrupted and resumes now")
            .expect_user_text_contains("T2 of 001-login was in progress"),
    ));
    let api =
        MockApi::start(Scenario::new().main(main).agent(CODE_REVIEWER, vec![Turn::text("LGTM"), Turn::text("LGTM")]));
    let r = run(&f, &api, &[]);
    // What README's "The runner" shows (`--nocapture` prints it).
    eprintln!("{}{}", r.stderr, r.stdout);
    assert!(r.stderr.contains("a usage limit resets; waiting until"), "{}", r.stderr);
    assert!(r.stderr.contains("(run 2)") && r.stderr.contains("resuming session"), "{}", r.stderr);
    assert_done_once(&f, &api, &r);
}

#[test]
fn the_runner_resumes_a_session_whose_claude_was_killed_mid_task() {
    let f = two_tasks();
    let mut main = first_turns(&f);
    main.push(Turn::tools(vec![ToolUse::bash("kill -9 $PPID")]));
    main.extend(last_turns(
        Turn::tools(vec![write_token(&f)]).expect_user_text_contains("The session was interrupted and resumes now"),
    ));
    let api =
        MockApi::start(Scenario::new().main(main).agent(CODE_REVIEWER, vec![Turn::text("LGTM"), Turn::text("LGTM")]));
    let r = run(&f, &api, &[]);
    assert!(r.stderr.contains("was killed (signal 9)"), "{}", r.stderr);
    assert_done_once(&f, &api, &r);
}

#[test]
fn the_runner_backs_off_when_the_api_is_overloaded_and_resumes() {
    let f = two_tasks();
    let mut main = first_turns(&f);
    // Claude Code tries three times (the first and two retries, as
    // CLAUDE_CODE_MAX_RETRIES says), then gives up on the turn.
    main.extend([Turn::overloaded(), Turn::overloaded(), Turn::overloaded()]);
    main.extend(last_turns(
        Turn::tools(vec![write_token(&f)]).expect_user_text_contains("The session was interrupted and resumes now"),
    ));
    let api =
        MockApi::start(Scenario::new().main(main).agent(CODE_REVIEWER, vec![Turn::text("LGTM"), Turn::text("LGTM")]));
    let r = run(&f, &api, &[("CLAUDE_CODE_MAX_RETRIES", "2")]);
    assert!(r.stderr.contains("after an API server error; waiting until"), "{}\n{}", r.stderr, api.report());
    assert_done_once(&f, &api, &r);
}

/// Ctrl-C: the runner asks the session to end, waits for it, records why
/// it stopped and exits 130; nothing of the session is left running, and
/// `--resume <session>` is what it says to run next.
#[test]
fn ctrl_c_stops_the_runner_and_its_session_cleanly() {
    let f = two_tasks();
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("echo started > started.txt; sleep 60")]),
        Turn::text("never reached"),
    ]));
    let mut cmd = Command::new(WORKFLOW_STATE);
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &f.home)
        .env("ANTHROPIC_BASE_URL", api.base_url())
        .env("ANTHROPIC_API_KEY", "test-key")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("PHASEGATE_BIN_DIR", bin_dir())
        .current_dir(&f.repo)
        .args(["run", "--prompt", "/phasegate:implement 001-login", "--claude"])
        .arg(phasegate_testkit::locate_binary())
        .args(["--", "--plugin-dir"])
        .arg(plugin_root())
        .args(["--allowedTools", "Bash"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !f.path("started.txt").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(f.path("started.txt").exists(), "the session never ran its command:\n{}", api.report());
    let stopped_at = Instant::now();
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(stopped_at.elapsed() < Duration::from_secs(20), "the runner did not stop within 20 s of Ctrl-C");
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(status.code(), Some(130), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("stopped by Ctrl-C") && stdout.contains("workflow-state run --resume "), "{stdout}");
    let state: serde_json::Value = serde_json::from_str(&f.read(".git/phasegate/runner.json")).unwrap();
    assert_eq!(state["now"]["kind"], "ended", "{state}");
    // The session's `sleep 60` went with it.
    let left =
        std::process::Command::new("pgrep").args(["-f", "echo started > started.txt; sleep 60"]).output().unwrap();
    assert!(left.stdout.is_empty(), "a process of the session outlived it: {}", String::from_utf8_lossy(&left.stdout));
}

//! Several Claude Code sessions on one repository, in the real Claude Code:
//! three sessions run at once (A and B live, C killed without SessionEnd).
//! B's edit of A's file is denied naming A; A and B wait for each other's
//! files and the monitor reports one deadlock; C's lease expires once its
//! heartbeat is 5 minutes old and B takes the file; A ends, its lease goes
//! at once and B's edit goes through. A second test holds a task past its
//! threshold (its recorded start moved back, since the binaries read the
//! real clock) and has the PM decide at 19, 21 and 31 minutes, walks every
//! ideation sub-phase of /phasegate:brainstorm, and offers a finished
//! feature's build.completed once, to the next session.

use std::path::Path;
use std::time::{Duration, Instant};

use phasegate_testkit::{MockApi, RecordedRequest, Scenario, ToolUse, Turn};

use crate::support::{Fixture, session_context};

const A: &str = "aaaaaaaa-0000-4000-8000-00000000000a";
const B: &str = "bbbbbbbb-0000-4000-8000-00000000000b";
const C: &str = "cccccccc-0000-4000-8000-00000000000c";

/// Anything the model was sent in this request (tool results, hook
/// context, reminders) contains `needle`.
fn request_has(needle: &'static str) -> impl Fn(&RecordedRequest) -> Result<(), String> + Send + Sync + 'static {
    move |req| {
        let all = serde_json::to_string(req.messages()).unwrap_or_default();
        match all.contains(needle) {
            true => Ok(()),
            false => Err(format!("the request lacks {needle:?}; its tail: {}", &all[all.len().saturating_sub(1500)..])),
        }
    }
}

/// Waits (bounded) until `path` exists.
fn wait_for(path: &Path, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(90);
    while !path.exists() {
        assert!(Instant::now() < deadline, "timed out waiting for {what} ({})", path.display());
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A shell line that waits for a marker file, bounded.
fn until(marker: &str) -> String {
    format!("for i in $(seq 600); do [ -f {marker} ] && break; sleep 0.1; done; [ -f {marker} ] && echo {marker}-seen")
}

fn lease_of(f: &Fixture, rel: &str) -> Option<String> {
    let list: serde_json::Value = serde_json::from_str(&f.ws(&["lease", "list", "--json"])).unwrap();
    list["leases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["path"] == rel)
        .map(|l| l["holder"].as_str().unwrap().to_owned())
}

#[test]
fn three_sessions_leases_denied_deadlocked_expired_and_released() {
    let f = Fixture::repo();
    let x = f.path("src/x.rs").display().to_string();
    let y = f.path("src/y.rs").display().to_string();
    let c_file = f.path("src/c.rs").display().to_string();

    // A: takes x, waits until B holds y, asks for y (denied: a wait A → B),
    // waits until B is done with the deadlock, then ends (SessionEnd).
    let api_a = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::write(&x, "pub fn x() {}\n")]),
        Turn::tools(vec![ToolUse::bash(until("b-holds-y"))]),
        Turn::tools(vec![ToolUse::write(&y, "// A's y\n")]).expect_tool_result_contains("b-holds-y-seen"),
        Turn::tools(vec![ToolUse::bash(format!("touch a-waits-y; {}", until("b-saw-deadlock")))])
            .expect_tool_result_contains(format!("src/y.rs is leased by session {} (", &B[..8])),
        Turn::text("A is done.").expect_tool_result_contains("b-saw-deadlock-seen"),
    ]));
    // C: takes its file, then hangs in a long command and is killed
    // (SIGKILL, no SessionEnd).
    let api_c = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::write(&c_file, "// C\n")]),
        Turn::tools(vec![ToolUse::bash("touch c-holds; sleep 120")]),
        Turn::text("never reached"),
    ]));
    let (fa, fc) = (&f, &f);
    std::thread::scope(|scope| {
        let a = scope.spawn(|| fa.claude().args(["--session-id", A]).prompt("work on x").run(&api_a));
        let c = scope.spawn(|| {
            fc.claude().args(["--session-id", C]).prompt("work on c").timeout(Duration::from_secs(20)).run(&api_c)
        });
        wait_for(&f.path("c-holds"), "C's lease");
        wait_for(&f.path(".git/phasegate/sessions").join(format!("{A}.json")), "A's record");
        let deadline = Instant::now() + Duration::from_secs(60);
        while lease_of(&f, "src/x.rs").is_none() {
            assert!(Instant::now() < deadline, "A never leased src/x.rs");
            std::thread::sleep(Duration::from_millis(100));
        }
        // C is killed: the run's processes get SIGKILL, no hook runs.
        let c_out = c.join().unwrap();
        assert!(c_out.timed_out, "C was to be killed: {}", c_out.report());
        let c_record = f.path(&format!(".git/phasegate/sessions/{C}.json"));
        let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&c_record).unwrap()).unwrap();
        assert_eq!(record["state"], "ACTIVE", "no SessionEnd ran for C");
        assert_eq!(lease_of(&f, "src/c.rs").as_deref(), Some(C));
        // Five minutes of silence, from its recorded heartbeat (the record's
        // time and the file's): the binaries read the real clock.
        let silent = std::time::SystemTime::now() - Duration::from_secs(5 * 60 + 1);
        let mut record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&c_record).unwrap()).unwrap();
        record["heartbeat_at"] = serde_json::json!(phasegate_core::time::stamp(chrono::DateTime::from(silent)));
        std::fs::write(&c_record, record.to_string()).unwrap();
        std::fs::File::options().write(true).open(&c_record).unwrap().set_modified(silent).unwrap();

        let api_b = MockApi::start(Scenario::new().main(vec![
            // B holds y, then asks for A's x: denied, naming A.
            Turn::tools(vec![ToolUse::write(&y, "// B's y\n")]),
            Turn::tools(vec![ToolUse::bash(format!("touch b-holds-y; {}", until("a-waits-y")))]),
            Turn::tools(vec![ToolUse::write(&x, "// B's x\n")]).expect_tool_result_contains("a-waits-y-seen"),
            // C's lease expired: B takes the file, and is told.
            Turn::tools(vec![ToolUse::write(&c_file, "// B's c\n")])
                .expect_tool_result_contains(format!("src/x.rs is leased by session {} (", &A[..8])),
            // A and B wait for each other: one deadlock.
            Turn::tools(vec![ToolUse::bash("workflow-state monitor check --json")])
                .expect(request_has("src/c.rs was leased by session cccccccc"))
                .expect(request_has("is down (no heartbeat for 5 min)")),
            Turn::tools(vec![ToolUse::bash("workflow-state monitor check --json")])
                .expect_tool_result_contains(format!("\"message\":\"Deadlock detected: {A} -> {B} -> {A}\"")),
            // Reported once: the second check raises nothing new.
            Turn::tools(vec![ToolUse::bash(format!(
                "touch b-saw-deadlock; for i in $(seq 600); do workflow-state sessions list --json | grep -q '\"id\":\"{A}\",\"state\":\"COMPLETE\"' && break; sleep 0.1; done; workflow-state sessions list"
            ))])
            .expect_tool_result_contains("\"alerts\":[]"),
            // A ended: its lease went at once; B's edit goes through.
            Turn::tools(vec![ToolUse::write(&x, "// B's x\n")]).expect_tool_result_contains("COMPLETE"),
            Turn::text("B is done.").expect(|req| {
                let r = req.tool_results();
                match r.iter().any(|t| t.text.contains("leased by")) {
                    false => Ok(()),
                    true => Err(format!("B's edit of x was refused after A ended: {}", r[0].text)),
                }
            }),
        ]));
        let b = f.claude().args(["--session-id", B]).prompt("work on y").run(&api_b);
        let a_out = a.join().unwrap();
        assert!(a_out.success(), "A: {}", a_out.report());
        api_a.assert_finished();
        assert!(b.success(), "B: {}", b.report());
        api_b.assert_finished();
        // B saw the other sessions at its start.
        let context = session_context(&api_b).unwrap_or_default();
        assert!(context.contains("1 other session works here") && context.contains(&A[..8]), "{context}");
    });
    assert_eq!(f.read("src/x.rs"), "// B's x\n");
    assert_eq!(f.read("src/c.rs"), "// B's c\n");
    // B ended too (its SessionEnd released x, y and c; the monitor expired
    // C's): nothing is held any more.
    let list: serde_json::Value = serde_json::from_str(&f.ws(&["lease", "list", "--json"])).unwrap();
    assert_eq!(list["leases"], serde_json::json!([]), "{list}");
}

/// Moves T1's recorded start back (the binaries read the real clock; the
/// monitor's facts are the build's records) and runs the monitor.
const AGE: &str = r#"at=$(date -u -d "-$2 minutes" +%Y-%m-%dT%H:%M:%S.000Z)
sed -i -E "s/\"T1\": \"20[0-9]{2}-[^\"]*Z\"/\"T1\": \"$at\"/" "docs/features/$1/.review-cycles.json"
"#;

fn aged_check(feature: &str, minutes: u32) -> String {
    format!("sh age.sh {feature} {minutes} && workflow-state monitor check --json")
}

#[test]
fn the_pm_decides_at_19_21_and_31_minutes_a_brainstorm_walks_ideation_and_an_event_is_offered_once() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "old"]);
    f.prove("001-old");
    f.ws(&["finish", "--feature", "001-old"]);
    f.ws(&["feature", "new", "login"]);
    f.write("docs/features/002-login/tasks.md", "- [ ] T1: Add the login endpoint [`files: src/auth.rs`]\n");
    let login = "002-login";
    f.write("age.sh", AGE);
    let ideation = |args: &str| format!("workflow-state ideation {args} --feature 003-habits");
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash(format!("workflow-state tasks start T1 --feature {login}"))]),
        Turn::tools(vec![ToolUse::bash(aged_check(login, 19))])
            .expect_tool_result_contains("\"leased\":[\"src/auth.rs\"]"),
        Turn::tools(vec![ToolUse::bash(aged_check(login, 21))])
            .expect_tool_result_contains("\"message\":\"Task T1 stuck for 19 min\"")
            .expect_tool_result_contains("\"action\":\"WATCH\""),
        Turn::tools(vec![ToolUse::bash(aged_check(login, 31))])
            .expect_tool_result_contains("\"alerts\":[]")
            .expect_tool_result_contains("\"action\":\"ESCALATE\"")
            .expect_tool_result_contains(format!("asked {login}.1 (suspend)")),
        Turn::tools(vec![ToolUse::bash(format!("cat docs/features/{login}/tasks.md"))])
            .expect_tool_result_contains("\"action\":\"INTERRUPT\"")
            .expect_tool_result_contains("T1 skipped"),
        // The brainstorm: every sub-phase, decided by the binary.
        Turn::tools(vec![ToolUse::bash(format!(
            "workflow-state phase start brainstorm --new habits && {} && {} && {} && {} && {}",
            ideation("start 'A habit tracker for night-shift nurses'"),
            ideation("artifact target-user 'night-shift nurses' --confidence 0.8"),
            ideation("artifact problem 'habits break on rotating shifts' --confidence 0.8"),
            ideation("artifact solution-concept 'shift-aware reminders' --confidence 0.8"),
            ideation("advance"),
        ))])
        .expect_tool_result_contains("- [-] T1"),
        Turn::tools(vec![ToolUse::bash(format!(
            "{} && {} && {} && {}",
            ideation("prompt"),
            ideation("artifact mvp-features 'reminders, streaks' --confidence 0.8"),
            ideation("artifact differentiator 'knows the rota' --confidence 0.8"),
            ideation("advance"),
        ))])
        .expect_tool_result_contains("EXPLORING → NARROWING"),
        Turn::tools(vec![ToolUse::bash(format!(
            "{} && {} && {} && {} && {}",
            ideation("decision 'nurses asked for it' --type validation"),
            ideation("decision 'rotas are digital' --type validation"),
            ideation("decision 'reminders help' --type validation"),
            ideation("risk 'hospitals block apps'"),
            ideation("advance"),
        ))])
        .expect_tool_result_contains("## What We Know So Far")
        .expect_tool_result_contains("NARROWING → VALIDATING"),
        Turn::tools(vec![ToolUse::bash(format!(
            "{} && {} && cat docs/features/003-habits/handoff.md",
            ideation("confidence 0.8"),
            ideation("artifact brief 'Shift-aware habit reminders for night-shift nurses' --confidence 0.8"),
        ))])
        .expect_tool_result_contains("VALIDATING → REFINING"),
        Turn::text("Ideation is complete.")
            .expect_tool_result_contains("Ideation is COMPLETE")
            .expect_tool_result_contains("| Brief | required | yes |")
            .expect_tool_result_contains("| Idea Summary | required | yes |"),
    ]));
    let out = f.claude().prompt("/phasegate:brainstorm habits for night-shift nurses").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    // The finished feature's build.completed reached this session at its start…
    let first = session_context(&api).unwrap_or_default();
    assert!(first.contains("e1: build.completed for 001-old") && first.contains("/phasegate:retro"), "{first}");
    let ideation_json: serde_json::Value =
        serde_json::from_str(&f.read("docs/features/003-habits/ideation.json")).unwrap();
    assert_eq!(ideation_json["phase"], "COMPLETE");
    // …and is not offered again to the next one, which gets what is new.
    let api2 = MockApi::start(Scenario::new().main(vec![Turn::text("ok")]));
    let out = f.claude().prompt("hello").run(&api2);
    assert!(out.success(), "{}", out.report());
    api2.assert_finished();
    let second = session_context(&api2).unwrap_or_default();
    assert!(!second.contains("e1:"), "offered once: {second}");
    assert!(second.contains("ideation.completed for 003-habits") || second.contains("more events"), "{second}");
    let pending: serde_json::Value = serde_json::from_str(&f.ws(&["events", "pending", "--json"])).unwrap();
    let e1 = pending["events"].as_array().unwrap().iter().find(|e| e["id"] == "e1").expect("e1 pending until acked");
    assert!(e1["offeredTo"].is_string());
}

/// The plugin's monitor (`monitors/monitors.json`) in an interactive
/// session, in a real terminal (tmux): Claude Code 2.1.328 arms it at
/// session start (not in `claude -p`), the watcher's first check finds a
/// session that went silent, and its line reaches the model as a
/// notification. When the session's terminal dies, the watcher ends too.
#[test]
fn the_plugin_monitor_runs_in_an_interactive_session_and_its_lines_reach_the_model() {
    let f = Fixture::repo();
    // A session that went silent 10 minutes ago while it held a file
    // another session waits for (one that held nothing would be gone, and
    // one whose file nobody waits for loses its lease quietly: no alert).
    let ghost = "ghost-session";
    let run_hook = |event: &str, input: serde_json::Value| {
        let mut hook = std::process::Command::new(crate::support::bin_dir().join("phasegate-hook"))
            .arg(event)
            .current_dir(&f.repo)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut hook.stdin.take().unwrap(), input.to_string().as_bytes()).unwrap();
        assert!(hook.wait().unwrap().success());
    };
    run_hook(
        "session-start",
        serde_json::json!({"session_id": ghost, "cwd": f.repo, "hook_event_name": "SessionStart", "source": "startup"}),
    );
    run_hook(
        "pre-tool-use",
        serde_json::json!({"session_id": ghost, "cwd": f.repo, "hook_event_name": "PreToolUse", "tool_name": "Write",
                           "tool_input": {"file_path": f.path("src/ghost.rs"), "content": "x"}}),
    );
    // Another session waits for that file: something is at stake.
    let waiting = "waiting-session";
    run_hook(
        "session-start",
        serde_json::json!({"session_id": waiting, "cwd": f.repo, "hook_event_name": "SessionStart", "source": "startup"}),
    );
    run_hook(
        "pre-tool-use",
        serde_json::json!({"session_id": waiting, "cwd": f.repo, "hook_event_name": "PreToolUse", "tool_name": "Write",
                           "tool_input": {"file_path": f.path("src/ghost.rs"), "content": "y"}}),
    );
    let record = f.path(&format!(".git/phasegate/sessions/{ghost}.json"));
    let silent = std::time::SystemTime::now() - Duration::from_secs(10 * 60);
    let mut r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    r["heartbeat_at"] = serde_json::json!(phasegate_core::time::stamp(chrono::DateTime::from(silent)));
    std::fs::write(&record, r.to_string()).unwrap();
    std::fs::File::options().write(true).open(&record).unwrap().set_modified(silent).unwrap();

    let api = MockApi::start(Scenario::new().main(vec![Turn::text("Noted: a session is down.").expect(request_has(
        "Session ghost-se stopped answering 10 min ago; session waiting- waits for a file it leased",
    ))]));
    let terminal = f.claude_in_terminal(&api, "");
    let deadline = Instant::now() + Duration::from_secs(90);
    while !api.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
    }
    let pane = terminal.screen();
    let watchers = || watchers_of(&f.home);
    // The watcher loops until its session is gone, so it runs now (checked
    // once the terminal is killed, so a failure leaves no session behind).
    let running = watchers();
    terminal.kill();
    assert!(!running.is_empty(), "no watcher ran:\n{pane}\n{}", api.report());
    api.assert_finished();
    assert!(pane.contains("Monitor event: phasegate monitor: error session_down"), "{pane}");
    // The terminal is gone: the watchers seen running notice their session
    // is gone and end (and no other watcher is left).
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut left = watchers();
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
        left = watchers();
    }
    let outlived: Vec<u32> = running.iter().copied().filter(|pid| left.contains(pid)).collect();
    assert!(outlived.is_empty(), "watchers {outlived:?} (of {running:?}) outlived their session");
    assert!(left.is_empty(), "a watcher outlived its session: {left:?}");
}

/// Processes running `monitor watch` for the Claude Code with this HOME.
fn watchers_of(home: &Path) -> Vec<u32> {
    let needle = format!("HOME={}", home.display());
    let Ok(procs) = std::fs::read_dir("/proc") else { return Vec::new() };
    procs
        .flatten()
        .filter_map(|p| p.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let has = |hay: &[u8], n: &[u8]| hay.windows(n.len()).any(|w| w == n);
            has(&cmd, b"monitor\0watch") && env.split(|b| *b == 0).any(|v| v == needle.as_bytes())
        })
        .collect()
}

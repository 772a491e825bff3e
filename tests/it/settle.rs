//! A day of real use, through the real hook binary: one file has one lease
//! however it is named, a hook answers in time while another process holds
//! a lock, an event reaches exactly one of eight sessions prompting at
//! once, and a Bash write's notice never advises what destroys another
//! session's work. Each test is named after the bug it pins.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::{HOOK, Run, TestEnv};

fn hook(env: &TestEnv, event: &str, input: Value) -> crate::util::Done {
    Run::new(HOOK, &[event], env.root()).stdin(input.to_string()).ok()
}

fn start(env: &TestEnv, session: &str) -> String {
    hook(
        env,
        "session-start",
        json!({"session_id": session, "cwd": env.root(), "hook_event_name": "SessionStart", "source": "startup"}),
    )
    .stdout
}

fn write(env: &TestEnv, session: &str, file: &str) -> Value {
    let out = hook(
        env,
        "pre-tool-use",
        json!({"session_id": session, "cwd": env.root(), "hook_event_name": "PreToolUse", "tool_name": "Write",
               "tool_input": {"file_path": file, "content": "x"}}),
    )
    .stdout;
    if out.trim().is_empty() { Value::Null } else { serde_json::from_str(&out).unwrap() }
}

fn decision(v: &Value) -> &str {
    v["hookSpecificOutput"]["permissionDecision"].as_str().unwrap_or("allow")
}

#[test]
fn leases_were_bypassed_by_spelling_and_by_links() {
    let env = TestEnv::new();
    let root = env.root().to_owned();
    env.write("src/a.txt", "mine\n");
    env.write("docs/readme.md", "x\n");
    start(&env, "sess-a");
    start(&env, "sess-b");
    assert_eq!(decision(&write(&env, "sess-a", &root.join("src/a.txt").display().to_string())), "allow");
    let parent = root.parent().unwrap();
    let name = root.file_name().unwrap().to_string_lossy();
    let spellings = [
        format!("{}/docs/../src/a.txt", root.display()),
        format!("{}/nope/../src/a.txt", root.display()),
        format!("{}/../{name}/src/a.txt", parent.join("x").display()),
        format!("{}/./src//a.txt", root.display()),
    ];
    for s in &spellings {
        let v = write(&env, "sess-b", s);
        assert_eq!(decision(&v), "deny", "{s}: {v}");
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("a.txt", root.join("src/soft.txt")).unwrap();
        std::fs::hard_link(root.join("src/a.txt"), root.join("src/hard.txt")).unwrap();
        for link in ["src/soft.txt", "src/hard.txt"] {
            let v = write(&env, "sess-b", &root.join(link).display().to_string());
            assert_eq!(decision(&v), "deny", "{link} is src/a.txt: {v}");
            assert!(v.to_string().contains("src/a.txt is leased by session sess-a"), "{v}");
        }
        // The holder edits its file by any name.
        assert_eq!(decision(&write(&env, "sess-a", &root.join("src/hard.txt").display().to_string())), "allow");
    }
    let leases = env.ws(&["lease", "list", "--json"]).ok().json();
    assert_eq!(leases["leases"].as_array().unwrap().len(), 1, "one file, one lease: {leases}");
}

#[test]
fn a_busy_leases_lock_let_a_leased_file_through() {
    let env = TestEnv::new();
    start(&env, "sess-a");
    start(&env, "sess-b");
    let file = env.path("src/lib.rs").display().to_string();
    write(&env, "sess-a", &file);
    let lock = env.path(".git/phasegate/locks/leases.lock");
    let _held = phasegate_store::lock::FileLock::acquire(&lock, Duration::from_secs(1)).unwrap();
    let began = Instant::now();
    let v = write(&env, "sess-b", &file);
    assert_eq!(decision(&v), "deny", "the lease reads true without its lock: {v}");
    assert!(began.elapsed() < Duration::from_secs(5), "answered in {:?}", began.elapsed());
}

#[test]
fn post_tool_use_waited_ten_seconds_per_leased_file() {
    let env = TestEnv::new();
    start(&env, "sess-a");
    start(&env, "sess-b");
    let files: Vec<String> = (0..4).map(|i| format!("src/f{i}.rs")).collect();
    for f in &files {
        write(&env, "sess-a", &env.path(f).display().to_string());
    }
    for f in &files {
        env.write(f, "changed by sess-b's shell\n");
    }
    let lock = env.path(".git/phasegate/locks/events.lock");
    let held = phasegate_store::lock::FileLock::acquire(&lock, Duration::from_secs(1)).unwrap();
    let began = Instant::now();
    let out = hook(
        &env,
        "post-tool-use",
        json!({"session_id": "sess-b", "cwd": env.root(), "hook_event_name": "PostToolUse", "tool_name": "Bash",
               "tool_input": {"command": "sed -i s/a/b/ src/*.rs"}, "tool_response": {}, "duration_ms": 200}),
    )
    .stdout;
    let took = began.elapsed();
    drop(held);
    assert!(took < Duration::from_secs(4), "the whole hook answers within its budget: {took:?}");
    for f in &files {
        assert!(out.contains(f), "{f}: {out}");
    }
}

#[test]
fn the_notice_after_a_bash_write_advised_git_checkout() {
    let env = TestEnv::new();
    start(&env, "sess-a");
    start(&env, "sess-b");
    write(&env, "sess-a", &env.path("app.py").display().to_string());
    env.write("app.py", "sess-b's shell wrote this\n");
    let out = hook(
        &env,
        "post-tool-use",
        json!({"session_id": "sess-b", "cwd": env.root(), "hook_event_name": "PostToolUse", "tool_name": "Bash",
               "tool_input": {"command": "echo > app.py"}, "tool_response": {}, "duration_ms": 50}),
    )
    .stdout;
    assert!(out.contains("app.py (leased by session sess-a)"), "{out}");
    assert!(!out.contains("git checkout") && !out.contains("git restore"), "{out}");
    assert!(out.contains("Do not undo it with git"), "{out}");
}

#[test]
fn one_event_was_offered_to_five_of_eight_sessions() {
    let env = TestEnv::new();
    let sessions: Vec<String> = (0..8).map(|i| format!("prompter-{i}")).collect();
    for s in &sessions {
        start(&env, s);
    }
    env.ws(&["events", "emit", "decision.requested", "--payload", r#"{"message": "wait, skip or retry?"}"#]).ok();
    let outputs: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = sessions
            .iter()
            .map(|s| {
                let env = &env;
                scope.spawn(move || {
                    hook(
                        env,
                        "user-prompt-submit",
                        json!({"session_id": s, "cwd": env.root(), "hook_event_name": "UserPromptSubmit", "prompt": "go on"}),
                    )
                    .stdout
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let told = outputs.iter().filter(|o| o.contains("decision.requested")).count();
    assert_eq!(told, 1, "{outputs:#?}");
    let pending = env.ws(&["events", "pending", "--json"]).ok().json();
    let offered_to = pending["events"][0]["offeredTo"].as_str().unwrap();
    let winner = sessions.iter().zip(&outputs).find(|(_, o)| o.contains("decision.requested")).unwrap().0;
    assert_eq!(offered_to, winner);
}

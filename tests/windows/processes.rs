//! Whether a process is still there, asked of Windows (OpenProcess,
//! GetExitCodeProcess): the monitor's watch ends when its Claude Code is
//! gone, and `pipeline reset` takes over the lock of a crashed process
//! but not a live one's. The processes are `pid.exe` (scripts/windows),
//! which prints its Windows process id.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::wine::{Exe, Project, helper, wine};

/// A Windows process that lives `seconds`, and its Windows process id.
fn windows_process(seconds: u32) -> (Child, u32) {
    let mut child = Command::new(wine())
        .arg(helper("pid.exe"))
        .arg(seconds.to_string())
        .env("WINEDEBUG", "-all")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pid.exe under Wine");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let pid = line.trim().parse().unwrap_or_else(|_| panic!("pid.exe printed {line:?}"));
    (child, pid)
}

/// The id of a Windows process that has ended.
fn gone_process() -> u32 {
    let (mut child, pid) = windows_process(0);
    assert!(child.wait().unwrap().success());
    pid
}

/// `workflow-state.exe monitor watch --interval 1` for the Claude Code
/// whose Windows process id is `claude`, started in the background.
fn watch(p: &Project, claude: u32) -> Child {
    let mut cmd = Command::new(wine());
    cmd.arg(Exe::Ws.win_path()).args(["monitor", "watch", "--interval", "1"]);
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy();
        if k.starts_with("CLAUDE") || k.starts_with("PHASEGATE") || k.starts_with("GIT_") {
            cmd.env_remove(&*k);
        }
    }
    cmd.current_dir(p.root())
        .env("WINEDEBUG", "-all")
        .env("CLAUDE_PID", claude.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the watch")
}

/// Waits at most `limit` for `child` to end; whether it did.
fn ends_within(child: &mut Child, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// Regression: process liveness read `/proc`, which Windows does not have
/// (and under Wine is Linux's, whose ids are not Windows process ids): a
/// watch whose Claude Code crashed ran on for ever.
#[test]
fn process_liveness_read_proc_so_a_crashed_sessions_watch_ran_on() {
    let p = Project::new();
    // Claude Code gone before the watch starts: it ends after its first round.
    let mut early = watch(&p, gone_process());
    let ended = ends_within(&mut early, Duration::from_secs(30));
    let _ = early.kill();
    assert!(ended, "the watch of a gone Claude Code did not end");
    // Claude Code alive: the watch goes on, and ends once it is killed.
    let (mut claude, pid) = windows_process(120);
    let mut w = watch(&p, pid);
    let early_end = ends_within(&mut w, Duration::from_secs(5));
    claude.kill().unwrap();
    claude.wait().unwrap();
    if early_end {
        panic!("the watch ended while its Claude Code (Windows process {pid}) was alive");
    }
    let ended = ends_within(&mut w, Duration::from_secs(30));
    let _ = w.kill();
    assert!(ended, "the watch went on after its Claude Code (Windows process {pid}) was killed");
}

/// What `host()` reads under Wine: the current drive is Z:, so
/// `/proc/sys/kernel/hostname` is Linux's.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_else(|_| "unknown".into())
}

#[test]
fn pipeline_reset_takes_over_the_lock_of_a_crashed_process_only() {
    let p = Project::new();
    let f = p.ws_as("s-1", &["pipeline", "start", "auth", "--request", "Add login"]).ok().json()["feature"]
        .as_str()
        .unwrap()
        .to_owned();
    let lock = p.path(&format!("docs/features/{f}/.task/.orchestrator.lock"));
    let holder = |pid: u32| {
        let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        std::fs::write(
            &lock,
            format!(r#"{{"pid": {pid}, "host": "{}", "at": "{at}", "operation": "reset"}}"#, hostname()),
        )
        .unwrap();
    };
    // A live holder refuses the reset.
    let (mut live, pid) = windows_process(120);
    holder(pid);
    let refused = p.ws_as("s-1", &["pipeline", "reset"]).output();
    live.kill().unwrap();
    live.wait().unwrap();
    assert_eq!(refused.code, Some(2), "{}", refused.report());
    refused.stderr_has(&format!("is held by process {pid}"));
    // A holder that crashed is cleaned up.
    let dead = gone_process();
    holder(dead);
    let out = p.ws_as("s-1", &["pipeline", "reset"]).ok().json();
    assert!(out["note"].as_str().unwrap().contains(&format!("removed a stale lock of process {dead}")), "{out}");
    assert!(!lock.exists(), "the lock is released");
}

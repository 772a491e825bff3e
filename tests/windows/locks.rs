//! Locks on Windows (LockFileEx, through `File::lock`) keep concurrent
//! writers apart: processes writing one log at once lose nothing, features
//! made at once get a number each, and atomic replaces (a rename over a
//! file others read) hold under readers.

use std::collections::BTreeSet;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::wine::{Project, helper, win, wine};

#[test]
fn concurrent_event_writers_lose_no_event() {
    let p = Project::new();
    std::thread::scope(|scope| {
        for w in 0..4 {
            let p = &p;
            scope.spawn(move || {
                for i in 0..4 {
                    p.ws(&["events", "emit", "spec.approved", "--task", &format!("W{w}-{i}")]).ok();
                }
            });
        }
    });
    let pending = p.ws(&["events", "pending", "--json"]).ok().json();
    let events = pending["events"].as_array().unwrap();
    let ids: BTreeSet<&str> = events.iter().map(|e| e["id"].as_str().unwrap()).collect();
    let tasks: BTreeSet<&str> = events.iter().map(|e| e["task"].as_str().unwrap()).collect();
    assert_eq!((ids.len(), tasks.len()), (16, 16), "{pending}");
    assert!(pending["corrupt"].as_array().unwrap().is_empty(), "{pending}");
}

#[test]
fn features_made_at_once_get_a_number_each() {
    let p = Project::new();
    let names: Vec<String> = std::thread::scope(|scope| {
        let p = &p;
        let runs: Vec<_> = (0..5).map(|i| scope.spawn(move || p.feature(&format!("f{i}")))).collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let numbers: BTreeSet<String> = names.iter().map(|n| n[..3].to_owned()).collect();
    assert_eq!(numbers, ["001", "002", "003", "004", "005"].map(String::from).into(), "{names:?}");
    let listed = p.ws(&["status", "--json"]).ok();
    for n in &names {
        assert!(listed.stdout.contains(n.as_str()), "{n}: {}", listed.report());
    }
}

/// Readers of a state file while writers replace it: every read sees a
/// whole file (the old or the new), never a torn or missing one, and no
/// writer fails because a reader has the file open. (Found by this test:
/// `phase start` failed with "cannot replace …\.meta.json: Access denied"
/// when a `feature show` had it open.)
#[test]
fn a_state_file_replaced_under_its_readers_is_always_whole() {
    let p = Project::new();
    let f = p.feature("x");
    let writing = AtomicBool::new(true);
    std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            for phase in ["brainstorm", "specify", "design", "create-plan"] {
                p.ws(&["phase", "start", phase, "--feature", &f]).ok();
                p.ws(&["phase", "complete", phase, "--feature", &f]).ok();
            }
            writing.store(false, Ordering::SeqCst);
        });
        for _ in 0..3 {
            scope.spawn(|| {
                while writing.load(Ordering::SeqCst) {
                    let shown = p.ws(&["feature", "show", "--feature", &f]).ok().json();
                    assert_eq!(shown["name"], f.as_str());
                }
            });
        }
        writer.join().unwrap();
    });
    let meta = p.json(&format!("docs/features/{f}/.meta.json"));
    assert!(meta["phases"]["create-plan"]["completed"].is_string(), "{meta}");
}

/// A Windows process that holds `file` open (as its stdin) for `seconds`,
/// started once the file is open.
fn hold_open(file: &std::path::Path, seconds: u32) -> std::process::Child {
    use std::io::BufRead;
    let line = format!("{} {seconds} < {}", win(&helper("pid.exe")), win(file));
    let mut child = std::process::Command::new(wine())
        .args(["cmd", "/C", &line])
        .env("WINEDEBUG", "-all")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start cmd under Wine");
    let mut pid = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut pid).unwrap();
    assert!(pid.trim().parse::<u32>().is_ok(), "pid.exe printed {pid:?}");
    child
}

/// A reader that holds `.meta.json` open for a second delays a command
/// that replaces it, never fails it; one that holds it past the replace's
/// patience (3 s) fails it with the file named, and the file is whole.
#[test]
fn a_replace_waits_for_a_reader_holding_the_file_then_names_it() {
    let p = Project::new();
    let f = p.feature("x");
    let meta = p.path(&format!("docs/features/{f}/.meta.json"));
    let mut holder = hold_open(&meta, 1);
    p.ws(&["phase", "start", "brainstorm", "--feature", &f]).ok();
    holder.wait().unwrap();
    assert_eq!(p.json(&format!("docs/features/{f}/.meta.json"))["currentPhase"], "brainstorm");
    let mut holder = hold_open(&meta, 6);
    let refused = p.ws(&["phase", "complete", "brainstorm", "--feature", &f]).output();
    holder.wait().unwrap();
    assert_eq!(refused.code, Some(2), "{}", refused.report());
    refused.stderr_has("cannot replace").stderr_has(".meta.json");
    assert_eq!(p.json(&format!("docs/features/{f}/.meta.json"))["currentPhase"], "brainstorm");
    // Let go, it goes through.
    p.ws(&["phase", "complete", "brainstorm", "--feature", &f]).ok();
}

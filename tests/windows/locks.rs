//! Locks on Windows (LockFileEx, through `File::lock`) keep concurrent
//! writers apart: processes writing one log at once lose nothing, features
//! made at once get a number each, and atomic replaces (a rename over a
//! file others read) hold under readers.

use std::collections::BTreeSet;

use crate::wine::Project;

#[test]
#[ignore = "needs the Windows build and Wine: scripts/test-windows.sh"]
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
#[ignore = "needs the Windows build and Wine: scripts/test-windows.sh"]
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
/// writer fails because a reader has the file open.
#[test]
#[ignore = "needs the Windows build and Wine: scripts/test-windows.sh"]
fn a_state_file_replaced_under_its_readers_is_always_whole() {
    let p = Project::new();
    let f = p.feature("x");
    std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            for phase in ["brainstorm", "specify", "design", "create-plan"] {
                p.ws(&["phase", "start", phase, "--feature", &f]).ok();
                p.ws(&["phase", "complete", phase, "--feature", &f]).ok();
            }
        });
        for _ in 0..3 {
            scope.spawn(|| {
                for _ in 0..4 {
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

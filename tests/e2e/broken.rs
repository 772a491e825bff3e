//! Broken surroundings never break a session: the hook turns them into a
//! short line of context and the session goes on.

use std::path::Path;

use phasegate_testkit::{MockApi, Scenario, Turn};

use crate::support::{Fixture, plugin_root, session_context};

fn run_session(f: &Fixture, cwd: &Path) -> (Option<String>, String) {
    let api = MockApi::start(Scenario::new().main(vec![Turn::text("still working")]));
    let out = f.claude_in(cwd).prompt("hello").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    (session_context(&api), out.result())
}

#[test]
fn a_corrupt_meta_json_is_one_line_of_context() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "good"]);
    f.ws(&["feature", "new", "bad"]);
    f.write("docs/features/002-bad/.meta.json", "{\"id\": \"002\", truncated");
    let (context, result) = run_session(&f, &f.repo);
    let context = context.expect("no context");
    assert!(context.contains("- 001-good"), "{context}");
    assert_eq!(context.lines().filter(|l| l.contains("002-bad") && l.contains("unreadable")).count(), 1, "{context}");
    assert_eq!(result, "still working");
    assert_eq!(f.read("docs/features/002-bad/.meta.json"), "{\"id\": \"002\", truncated", "the hook must not touch it");
}

#[test]
fn a_directory_that_is_not_a_repository() {
    let f = Fixture::plain();
    let (context, result) = run_session(&f, &f.repo);
    assert_eq!(context, None);
    assert_eq!(result, "still working");
    // Features in a plain directory are still reported.
    f.ws(&["feature", "new", "notes"]);
    let (context, _) = run_session(&f, &f.repo);
    assert!(context.unwrap().contains("- 001-notes"));
}

/// A checkout whose binaries were never built: the hook says how to build
/// them, the session works, and a command that needs the CLI stops with the
/// same instruction.
#[test]
fn binaries_not_built() {
    let f = Fixture::repo();
    let copy = f.home.join("plugin-copy");
    for part in [".claude-plugin", "hooks", "commands", "agents", "skills", "bin"] {
        copy_dir(&plugin_root().join(part), &copy.join(part));
    }
    let api = MockApi::start(Scenario::new().main(vec![Turn::text("still working")]));
    let out = phasegate_testkit::ClaudeCode::new()
        .home(&f.home)
        .cwd(&f.repo)
        .plugin_dir(&copy)
        .allowed_tools("Bash")
        .prompt("hello")
        .run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let context = session_context(&api).expect("no context");
    assert!(context.contains("binaries are not built") && context.contains("scripts/install.sh"), "{context}");

    let api = MockApi::start(Scenario::new());
    let out = phasegate_testkit::ClaudeCode::new()
        .home(&f.home)
        .cwd(&f.repo)
        .plugin_dir(&copy)
        .prompt("/phasegate:status")
        .run(&api);
    assert!(out.result().contains("workflow-state: phasegate's binaries are not built"), "{}", out.report());
    assert!(out.result().contains("scripts/install.sh"), "{}", out.report());
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

//! SessionStart: what the hook puts into the model's context, in real sessions.

use phasegate_testkit::{MockApi, Scenario, Turn};

use crate::support::{Fixture, session_context};

fn session(f: &Fixture, cwd: &std::path::Path) -> Option<String> {
    let api = MockApi::start(Scenario::new().main(vec![Turn::text("ok")]));
    let out = f.claude_in(cwd).prompt("hello").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    session_context(&api)
}

#[test]
fn no_features_no_context() {
    let f = Fixture::repo();
    assert_eq!(session(&f, &f.repo), None);
}

#[test]
fn active_partial_completed_and_worktree_states() {
    let f = Fixture::repo();
    // 001: mid-workflow, specify completed.
    f.ws(&["feature", "new", "mid", "--mode", "quick"]);
    f.ws(&["phase", "complete", "specify", "--feature", "mid"]);
    // 002: design started and interrupted after one reviewer iteration.
    f.ws(&["feature", "new", "partial"]);
    f.write("docs/features/002-partial/spec.md", "spec");
    f.ws(&["phase", "complete", "specify", "--feature", "partial"]);
    f.ws(&["phase", "start", "design", "--feature", "partial"]);
    let verdict = f.write(
        "verdict.json",
        r#"{"approved": false, "issues": [{"severity": "blocker", "description": "x"}], "summary": "s"}"#,
    );
    f.ws(&["review", "record", "design", "--feature", "partial", "--verdict-file", verdict.to_str().unwrap()]);
    // 003: completed: must stay silent.
    f.ws(&["feature", "new", "done"]);
    f.prove("003-done");
    f.ws(&["finish", "--feature", "done"]);
    // 004: has a worktree; the session runs in the main checkout.
    f.ws(&["feature", "new", "wt", "--worktree", "--mode", "full"]);

    let context = session(&f, &f.repo).expect("the hook said nothing");
    let worktree = f.path(".worktrees/004-wt");
    // The events of the transitions above follow the features, offered once.
    let (context, events) = context.split_once("\nphasegate: e1: ").expect("the transitions' events are offered");
    assert!(events.starts_with("spec.approved for 001-mid"), "{events}");
    assert!(events.contains("e3: build.completed for 003-done"), "{events}");
    assert_eq!(
        context,
        format!(
            "phasegate: 3 active features\n\
             - 001-mid (mode quick): phase specify completed. Next: /phasegate:design\n\
             - 002-partial (mode standard): phase design is PARTIAL (started, not completed; 1 of 3 reviewer iterations used). Next: /phasegate:design\n\
             - 004-wt (mode full): no phase started yet. Next: /phasegate:brainstorm\n  \
             WARNING: this session runs in {} but the feature's worktree is {}; cd there before changing code.",
            f.repo.display(),
            worktree.display()
        )
    );
    assert!(!context.contains("003-done"));

    // From inside the worktree: no warning, and the session knows its feature.
    let inside = session(&f, &worktree).expect("the hook said nothing");
    assert!(inside.starts_with("phasegate: 3 active features; this session is in the worktree of 004-wt"), "{inside}");
    assert!(!inside.contains("WARNING"), "{inside}");
}

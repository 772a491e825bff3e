//! `workflow-state finish`.

use crate::util::TestEnv;

#[test]
fn finish_completes_deletes_history_and_keeps_the_summary() {
    let env = TestEnv::new();
    let name = env.feature("a", "standard");
    env.ws(&["phase", "start", "brainstorm"]).ok();
    let no = env.verdict(false, r#"{"severity": "warning", "description": "vague goal"}"#);
    let yes = env.verdict(true, "");
    env.ws(&["review", "record", "brainstorm", "--verdict-file", &no]).ok();
    env.ws(&["review", "record", "brainstorm", "--verdict-file", &yes]).ok();
    let history = format!("docs/features/{name}/.review-history.md");
    assert!(env.path(&history).exists());

    env.prove(&name);
    let out = env.ws(&["finish"]).ok().json();
    assert_eq!(out["toCommit"], serde_json::json!([format!("docs/features/{name}")]));
    assert!(out["message"].as_str().unwrap().contains(&format!("Commit its folder docs/features/{name}")));
    assert_eq!(out["status"], "completed");
    assert_eq!(out["historyDeleted"], true);
    assert_eq!(out["totalIterations"], 2);
    assert!(out["warning"].as_str().unwrap().contains("skips"));
    assert!(!env.path(&history).exists());
    let meta = env.meta(&name);
    assert_eq!(meta["status"], "completed");
    assert_eq!(meta["currentPhase"], "finish");
    assert!(meta["completed"].is_string());
    assert_eq!(meta["phases"]["brainstorm"]["iterations"], 2);
    // The counts are those of the last verdict (approved, no issues).
    assert_eq!(meta["phases"]["brainstorm"]["issues"], serde_json::json!({"blocker": 0, "warning": 0, "note": 0}));
    assert_eq!(meta["phases"]["brainstorm"]["summary"], "review summary");

    // A finished feature is no longer active and refuses changes.
    env.ws(&["finish", "--feature", "a"]).code(1).stderr_has("completed");
    env.ws(&["phase", "start", "design", "--feature", "a"]).code(1);
    env.ws(&["validate", "brainstorm"]).code(2).stderr_has("no active feature");
}

//! `workflow-state review record|brief`: the reviewer loop's bookkeeping.

use crate::util::TestEnv;

const BLOCKER: &str =
    r#"{"severity": "blocker", "description": "acceptance criteria missing", "location": "Requirements"}"#;

#[test]
fn approve_on_first_pass() {
    let env = TestEnv::new();
    let name = env.feature("a", "standard");
    env.ws(&["phase", "start", "specify"]).ok();
    let v = env.verdict(true, r#"{"severity": "note", "description": "typo"}"#);
    let out = env.ws(&["review", "record", "specify", "--verdict-file", &v]).ok().json();
    assert_eq!(out["decision"], "approved");
    assert_eq!(out["iteration"], 1);
    assert!(out["message"].as_str().unwrap().contains("Next: /phasegate:design"));
    let meta = env.meta(&name);
    let rec = &meta["phases"]["specify"];
    assert_eq!(rec["iterations"], 1);
    assert_eq!(rec["outcome"], "approved");
    assert!(rec["completed"].is_string());
    assert_eq!(rec["reviewerNotes"], serde_json::json!([]));
    let history = env.read(&format!("docs/features/{name}/.review-history.md"));
    assert!(history.starts_with("## Phase: specify\n\n### Iteration 1 - "), "{history}");
    assert!(history.contains("**Issues:**\n- [note] typo\n"), "{history}");
}

#[test]
fn the_mode_cap_ends_the_loop_with_reviewer_notes() {
    let env = TestEnv::new();
    let name = env.feature("a", "quick");
    env.ws(&["phase", "start", "specify"]).ok();
    let v = env.verdict(false, BLOCKER);
    let first = env.ws(&["review", "record", "specify", "--verdict-file", &v]).ok().json();
    assert_eq!(first["decision"], "revise");
    assert_eq!(first["maxIterations"], 2);
    let second =
        env.ws(&["review", "record", "specify", "--verdict-file", &v, "--changes", "Added criteria."]).ok().json();
    assert_eq!(second["decision"], "cap-reached");
    let rec = &env.meta(&name)["phases"]["specify"];
    assert_eq!(rec["iterations"], 2);
    assert_eq!(rec["outcome"], "cap-reached");
    assert_eq!(rec["reviewerNotes"], serde_json::json!(["[blocker] acceptance criteria missing (Requirements)"]));
    let history = env.read(&format!("docs/features/{name}/.review-history.md"));
    assert_eq!(history.matches("### Iteration").count(), 2);
    assert!(history.contains("**Changes Made:**\nAdded criteria.\n"), "{history}");
    // The loop is over: another verdict is refused and not counted.
    env.ws(&["review", "record", "specify", "--verdict-file", &v]).code(2).stderr_has("not in progress");
    assert_eq!(env.meta(&name)["phases"]["specify"]["iterations"], 2);
}

#[test]
fn invalid_verdicts_are_explained_and_nothing_is_recorded() {
    let env = TestEnv::new();
    let name = env.feature("a", "standard");
    env.ws(&["phase", "start", "design"]).ok();
    let before = env.read(&format!("docs/features/{name}/.meta.json"));
    let bad = env.outer().join("bad.json");
    std::fs::write(&bad, r#"{"approved": "yes", "issues": [{"severity": "major", "description": "x"}]}"#).unwrap();
    env.ws(&["review", "record", "design", "--verdict-file", bad.to_str().unwrap()])
        .code(2)
        .stderr_has("bad.json")
        .stderr_has("at /approved")
        .stderr_has("at /issues/0/severity")
        .stderr_has("\"summary\" is a required property")
        .stderr_has("Nothing was recorded")
        .stderr_has("Spawn the reviewer once more with the same prompt");
    std::fs::write(&bad, "The design looks fine to me.").unwrap();
    env.ws(&["review", "record", "design", "--verdict-file", bad.to_str().unwrap()])
        .code(2)
        .stderr_has("no JSON object found");
    env.ws(&["review", "record", "design", "--verdict-file", "/nonexistent/v.json"])
        .code(2)
        .stderr_has("/nonexistent/v.json");
    assert_eq!(env.read(&format!("docs/features/{name}/.meta.json")), before);
    assert!(!env.path(&format!("docs/features/{name}/.review-history.md")).exists());
}

#[test]
fn verdicts_wrapped_in_prose_and_read_from_stdin() {
    let env = TestEnv::new();
    env.feature("a", "standard");
    env.ws(&["phase", "start", "brainstorm"]).ok();
    let reply = "Review done.\n```json\n{\"approved\": true, \"issues\": [], \"summary\": \"clear\"}\n```\n";
    let out = env.ws(&["review", "record", "brainstorm", "--verdict-file", "-"]).stdin(reply).ok().json();
    assert_eq!(out["decision"], "approved");
}

#[test]
fn recording_needs_a_started_phase() {
    let env = TestEnv::new();
    env.feature("a", "standard");
    let v = env.verdict(true, "");
    env.ws(&["review", "record", "design", "--verdict-file", &v])
        .code(2)
        .stderr_has("workflow-state phase start design");
    env.ws(&["review", "record", "finish", "--verdict-file", &v]).code(2).stderr_has("no reviewer loop");
}

#[test]
fn brief_names_the_reviewer_and_the_artifacts() {
    let env = TestEnv::new();
    let name = env.feature("a", "standard");
    env.write(&format!("docs/features/{name}/spec.md"), "spec");
    env.write(&format!("docs/features/{name}/design.md"), "design");
    let out = env.ws(&["review", "brief", "design"]).ok();
    out.stdout_has("Reviewer agent: phasegate:chain-reviewer")
        .stdout_has(&format!("Previous artifact: {}/docs/features/{name}/spec.md", env.root().display()))
        .stdout_has("Plan needs:");
    env.ws(&["review", "brief", "verify"]).ok().stdout_has("phasegate:final-reviewer").stdout_has("matches spec.md");
}

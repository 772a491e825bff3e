//! `workflow-state validate`: the rule table through the CLI, both forms.

use crate::util::TestEnv;

#[test]
fn flag_form_needs_no_files() {
    let env = TestEnv::plain();
    let out = env.ws(&["validate", "implement", "--current", "create-tasks", "--artifacts", "plan,tasks"]).code(1);
    assert_eq!(out.json()["type"], "blocked");
    assert!(out.json()["message"].as_str().unwrap().contains("spec.md"));

    let out = env.ws(&["validate", "create-tasks", "--current", "create-plan", "--artifacts", "spec,plan"]).ok();
    assert_eq!(out.stdout.trim(), r#"{"allowed":true,"type":"proceed","message":null}"#);

    let out = env.ws(&["validate", "design", "--current", "brainstorm", "--artifacts", "brainstorm.md"]).ok();
    assert_eq!(out.json()["type"], "warning");
    assert_eq!(out.json()["message"], "design skips specify after brainstorm");

    let out = env.ws(&["validate", "brainstorm", "--current", "none"]).ok();
    assert_eq!(out.json()["type"], "proceed");

    let out = env.ws(&["validate", "create-plan", "--current", "design", "--in-progress", "--artifacts", "spec"]).ok();
    assert_eq!(out.json()["type"], "warning");
}

#[test]
fn usage_errors_exit_2_and_say_what_is_valid() {
    let env = TestEnv::plain();
    env.ws(&["validate", "plan", "--current", "none"])
        .code(2)
        .stderr_has("unknown phase `plan`")
        .stderr_has("create-plan");
    env.ws(&["validate", "design", "--current", "none", "--artifacts", "code"])
        .code(2)
        .stderr_has("unknown artifact `code`");
    env.ws(&["validate", "design", "--artifacts", "spec"]).code(2).stderr_has("--current");
    env.ws(&["validate"]).code(2);
}

#[test]
fn file_form_reads_the_feature() {
    let env = TestEnv::new();
    let name = env.feature("auth", "standard");
    // No spec.md yet: implement is blocked.
    let out = env.ws(&["validate", "implement"]).code(1);
    assert_eq!(out.json()["allowed"], false);
    env.write(&format!("docs/features/{name}/spec.md"), "# Spec\n");
    env.ws(&["phase", "complete", "specify"]).ok();
    let out = env.ws(&["validate", "design"]).ok();
    assert_eq!(out.json()["type"], "proceed");
    let out = env.ws(&["validate", "implement"]).ok();
    assert_eq!(out.json()["type"], "warning");
    assert!(out.json()["message"].as_str().unwrap().contains("skips design, create-plan, create-tasks"));
}

#[test]
fn an_empty_artifact_does_not_count() {
    let env = TestEnv::new();
    let name = env.feature("auth", "standard");
    env.write(&format!("docs/features/{name}/spec.md"), "");
    env.ws(&["validate", "implement"]).code(1);
}

#[test]
fn finding_the_feature_from_the_working_directory() {
    let env = TestEnv::new();
    // No feature at all.
    env.ws(&["validate", "brainstorm"]).code(2).stderr_has("no active feature").stderr_has("feature new");
    let a = env.feature("alpha", "standard");
    let b = env.feature("beta", "standard");
    // Two active features and no hint: name them, exit 2.
    env.ws(&["validate", "brainstorm"]).code(2).stderr_has(&a).stderr_has(&b).stderr_has("--feature");
    // Inside a feature folder.
    env.write(&format!("docs/features/{b}/notes/x.md"), "x");
    env.ws_in(&format!("docs/features/{b}/notes"), &["validate", "brainstorm"]).ok();
    // By name, id, slug, or path.
    for given in [a.as_str(), "1", "001", "alpha", &format!("docs/features/{a}")] {
        env.ws(&["validate", "brainstorm", "--feature", given]).ok();
    }
    env.ws(&["validate", "brainstorm", "--feature", "gamma"])
        .code(2)
        .stderr_has("no feature matches `gamma`")
        .stderr_has(&a);
    // Abandoning one leaves the other as the only active feature.
    env.ws(&["feature", "abandon", "--feature", "beta"]).ok();
    env.ws(&["validate", "brainstorm"]).ok();
    // The abandoned one is blocked.
    let out = env.ws(&["validate", "brainstorm", "--feature", "beta"]).code(1);
    assert!(out.json()["message"].as_str().unwrap().contains("abandoned"));
}

#[test]
fn inside_the_feature_worktree() {
    let env = TestEnv::new();
    let a = env.ws(&["feature", "new", "alpha", "--worktree"]).ok();
    let a_dir = a.stdout.trim().to_owned();
    env.feature("beta", "standard");
    // From the worktree the feature is found although two are active.
    let out = env.ws_in(".worktrees/001-alpha", &["feature", "show"]).ok();
    assert_eq!(out.json()["name"], "001-alpha");
    assert_eq!(out.json()["dir"], a_dir);
    env.ws_in(".worktrees/001-alpha", &["validate", "brainstorm"]).ok();
}

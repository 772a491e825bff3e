//! Regression tests for what a full run of the plugin in Claude Code found
//! (issue "Room to grow", bugs 1–11), each named after its bug.

use serde_json::Value;

use crate::util::TestEnv;

fn json_file(env: &TestEnv, rel: &str) -> Value {
    serde_json::from_str(&env.read(rel)).unwrap()
}

/// Bug 1: `phase start` took the person's answer in, but the round loop's
/// question stayed open and `rounds prompt` refused ("Q1 is not answered
/// yet"); the answer must become the next A_n, marked as the person's.
#[test]
fn an_answered_question_never_reaches_the_round_loop() {
    let env = TestEnv::new();
    let f = env.feature("dash", "standard");
    let brief = env.write("brief.md", "Design the dashboard.\n");
    env.ws(&["rounds", "start", "design", "--feature", &f, "--brief-file", brief.to_str().unwrap()]).ok();
    env.ws(&["rounds", "record", "design", "--feature", &f, "--reply-file", "-"])
        .stdin("STATUS: QUESTION\nQUESTION: Which brand colour?\nCONTEXT: Not in the spec.\n")
        .ok();
    env.ws(&["rounds", "ask", "design", "--feature", &f, "--headless"]).ok();
    env.ws(&["question", "answer", &f, "Teal"]).ok();
    let started = env.ws(&["phase", "start", "design", "--feature", &f]).ok().json();
    assert_eq!(started["answers"][0]["answer"], "Teal", "{started}");
    let rounds = json_file(&env, &format!("docs/features/{f}/.rounds.json"));
    let answer = &rounds["phases"]["design"]["qa"][0]["answer"];
    assert_eq!((answer["text"].as_str(), answer["by"].as_str()), (Some("Teal"), Some("human")), "{rounds}");
    let p = env.ws(&["rounds", "prompt", "design", "--feature", &f]).ok().json();
    assert!(p["prompt"].as_str().unwrap().contains("Q1: Which brand colour?\nA1: Teal\n"), "{p}");

    // A loop left open by the old behaviour (answer taken in, loop not
    // told) is healed by the next prompt, with the person's answer.
    let mut broken = rounds.clone();
    broken["phases"]["design"]["qa"][0].as_object_mut().unwrap().remove("answer");
    env.write(&format!("docs/features/{f}/.rounds.json"), &broken.to_string());
    let p = env.ws(&["rounds", "prompt", "design", "--feature", &f]).ok().json();
    assert!(p["prompt"].as_str().unwrap().contains("A1: Teal\n"), "{p}");
    let healed = json_file(&env, &format!("docs/features/{f}/.rounds.json"));
    assert_eq!(healed["phases"]["design"]["qa"][0]["answer"]["by"], "human");
}

/// A feature with a task list and a reviewer agent the project adds.
fn reviewed(tasks: &str) -> (TestEnv, String, tempfile::TempDir) {
    let env = TestEnv::new();
    let f = env.feature("login", "standard");
    env.write(&format!("docs/features/{f}/tasks.md"), tasks);
    env.write(
        ".claude/agents/security-auditor.md",
        "---\nname: security-auditor\ndescription: Reviews authentication.\nmodel: opus\n---\nYou audit security.\n",
    );
    crate::util::commit_all(env.root());
    (env, f, tempfile::tempdir().unwrap())
}

/// Bug 4: a task with no `agent` went to the pipeline's implementer, told to
/// implement `.task/plan-refined.json`; orchestrated tasks get a delegate of
/// their own, and the package names the feature.
#[test]
fn the_default_task_delegate_gets_pipeline_instructions() {
    let (env, f, home) = reviewed("- [ ] T1: Add the login endpoint\n  - Files: src/auth.rs\n");
    let c = env.ws(&["tasks", "context", "T1"]).env("HOME", home.path().to_str().unwrap()).ok().json();
    assert_eq!(c["agent"], "phasegate:task-implementer");
    assert!(c["prompt"].as_str().unwrap().starts_with(&format!("FEATURE: {f} (")), "{c}");
    let agent =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("agents/task-implementer.md"))
            .unwrap();
    for pipeline_only in [".task/", "plan-refined", "pipeline test", "impl-result"] {
        assert!(!agent.contains(pipeline_only), "task-implementer.md speaks of {pipeline_only}");
    }
}

/// Bug 6: when the session did a task itself, the review request and the
/// revise message still named phasegate:implementer. Also: re-review needs
/// no --reviewer once the cycle began (friction), and workers are no
/// reviewer candidates.
#[test]
fn the_wrong_implementer_is_named() {
    let (env, _f, home) = reviewed("- [ ] T1: Add the login endpoint\n  - Files: src/auth.rs\n");
    let ws = |args: &[&str]| env.ws(args).env("HOME", home.path().to_str().unwrap());
    ws(&["tasks", "start", "T1", "--by", "self"]).ok();
    env.write("src/auth.rs", "pub fn login() {}\n");
    ws(&["tasks", "review", "T1"]).code(2).stderr_has("--reviewer");
    let brief = ws(&["tasks", "review", "T1", "--reviewer", "security-auditor"]).ok().json();
    let prompt = brief["prompt"].as_str().unwrap();
    assert!(prompt.contains("Implemented by: the orchestrating session itself\n"), "{prompt}");
    env.write("reply.md", "NEEDS REVISION\nThe password is never checked.");
    let out = ws(&["tasks", "record", "T1", "--reply-file", "reply.md", "--headless"]).ok().json();
    let message = out["message"].as_str().unwrap();
    assert!(message.starts_with("Fix the findings yourself in this session"), "{message}");
    assert!(!message.contains("phasegate:implementer"), "{message}");
    // The next cycle resumes with its reviewer, without naming it again.
    let again = ws(&["tasks", "review", "T1"]).ok().json();
    assert_eq!((again["cycle"].as_u64(), again["agent"].as_str()), (Some(2), Some("security-auditor")));
    ws(&["tasks", "start", "T1", "--by", "rm -rf /"]).code(2).stderr_has("--by");
}

/// Bug 9: `phase start finish` was accepted, and a chain review ran with
/// "Next phase ((none))"; finish is a command, not a phase to review.
#[test]
fn auto_runs_finish_as_a_phase() {
    let env = TestEnv::new();
    let f = env.feature("done", "standard");
    env.ws(&["phase", "start", "finish", "--feature", &f]).code(1).stderr_has("`workflow-state finish`");
    env.ws(&["review", "brief", "finish", "--feature", &f]).code(1).stderr_has("no reviewer");
    let auto =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("commands/auto.md")).unwrap();
    assert!(auto.contains("/phasegate:finish"), "auto.md says what to do with finish");
}

/// Bug 11: a suspension marker in seed 000's own shape (its example's 11
/// fields, written by another tool or by hand) was refused as unreadable.
/// It is read, answered, filled in, and its unknown fields kept.
#[test]
fn a_suspension_marker_in_seed_000s_own_shape_is_refused_as_unreadable() {
    let env = TestEnv::new();
    let f = env.feature("ux-designer-feature", "standard");
    let seed = format!(
        r#"{{
  "slug": "{f}",
  "item_type": "feature",
  "item_path": "docs/feature-backlog/9-ux-designer-feature.md",
  "plan_path": ".claude/plans/9-ux-designer-feature.yaml",
  "task_id": "0.2",
  "question": "Should the dashboard use a grid or list layout?",
  "question_context": "The spec mentions both options...",
  "slack_thread_ts": null,
  "slack_channel_id": null,
  "suspended_at": "2026-02-18T10:00:00Z",
  "timeout_minutes": 1440,
  "written_by": "another-tool"
}}"#
    );
    env.write(&format!(".claude/suspended/{f}.json"), &seed);
    let list = env.ws(&["question", "list", "--json"]).ok().json();
    assert_eq!(list["questions"][0]["id"], format!("{f}.0"), "{list}");
    env.ws(&["phase", "start", "brainstorm", "--feature", &f]).code(1).stderr_has("is suspended");
    let b = env.ws(&["backlog", "--json"]).ok().json();
    assert!(b["next"].is_null() && b["suspended"][0]["feature"] == f.as_str(), "{b}");
    env.ws(&["question", "answer", &f, "a grid"]).ok();
    let answered = json_file(&env, &format!(".claude/suspended/{f}.json"));
    assert_eq!(answered["answer"]["text"], "a grid");
    assert_eq!(answered["written_by"], "another-tool", "unknown fields are kept");
    assert_eq!(answered["item_path"], "docs/feature-backlog/9-ux-designer-feature.md");
    let started = env.ws(&["phase", "start", "brainstorm", "--feature", &f]).ok().json();
    assert_eq!(started["answers"][0]["answer"], "a grid");
}

/// Bug 10: after a review round asked for changes, `pipeline next` said
/// "the implementer is fixing the findings" before anyone had resumed it; a
/// model that followed it ended its turn and spent a loop iteration.
#[test]
fn pipeline_next_says_the_implementer_is_fixing_before_anyone_resumed_it() {
    let env = TestEnv::new();
    let f = env.to_loop("s1", "true", 3);
    env.review_stage("s1", &f, "code-reviewer", "sonnet", "needs_changes");
    let next = env.ws_as("s1", &["pipeline", "next", "--json"]).ok().json();
    assert!(next.get("next").is_none(), "the action is at the top level, not under \"next\": {next}");
    let action = next["action"].as_str().unwrap_or_else(|| panic!("no action: {next}")).to_owned();
    assert!(!action.contains("is fixing"), "{action}");
    assert!(action.contains("resume the implementer now with the findings"), "{action}");
    assert!(action.find("resume").unwrap() < action.find("end your turn").unwrap(), "resume first: {action}");
}

/// Friction: a new feature while another was active was guesswork, the
/// brief could not see the user's words. With `--words` it names the
/// feature they mean, or says they name none and how to start one.
#[test]
fn a_new_feature_while_another_is_active_is_guesswork() {
    let env = TestEnv::new();
    let f = env.feature("search", "standard");
    let out = env.ws(&["phase", "brief", "specify", "--words", "add dark mode to the settings"]).ok();
    out.stdout_has("the user's words name no feature: \"add dark mode to the settings\"")
        .stdout_has("workflow-state phase start specify --new 'add dark mode to the settings'")
        .stdout_has(&format!("active features: {f}"));
    env.ws(&["phase", "brief", "specify", "--words", "search"]).ok().stdout_has(&format!("phasegate: feature {f} "));
    env.ws(&["phase", "brief", "specify", "--words", ""]).ok().stdout_has(&format!("phasegate: feature {f} "));
}

//! `phasegate-hook pre-tool-use`: Edit and Write of phasegate's state files
//! are denied with the command to use instead; everything else passes
//! silently; the hook never breaks a session.

use serde_json::json;

use crate::util::{HOOK, Run, TestEnv};

fn hook(env: &TestEnv, tool: &str, path: &str) -> String {
    let input = json!({
        "session_id": "s-1", "cwd": env.root(), "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": {"file_path": path, "content": "{}"}, "tool_use_id": "toolu_1"
    });
    let out = Run::new(HOOK, &["pre-tool-use"], env.root()).stdin(input.to_string()).ok();
    assert!(out.stderr.is_empty(), "{}", out.report());
    out.stdout
}

#[test]
fn edits_of_state_files_are_denied_with_the_command_to_use() {
    let env = TestEnv::new();
    let f = env.feature("a", "standard");
    let meta = env.path(&format!("docs/features/{f}/.meta.json")).display().to_string();
    let out: serde_json::Value = serde_json::from_str(&hook(&env, "Edit", &meta)).unwrap();
    let specific = &out["hookSpecificOutput"];
    assert_eq!(
        (specific["hookEventName"].as_str(), specific["permissionDecision"].as_str()),
        (Some("PreToolUse"), Some("deny"))
    );
    let reason = specific["permissionDecisionReason"].as_str().unwrap();
    assert!(reason.contains("workflow-state review record") && reason.contains(&meta), "{reason}");
    for rel in ["docs/features/001-a/.review-history.md", "docs/features/001-a/.task/state.json"] {
        assert!(hook(&env, "Write", &env.path(rel).display().to_string()).contains("\"deny\""), "{rel}");
    }
}

#[test]
fn other_files_and_tools_pass_silently() {
    let env = TestEnv::new();
    for (tool, rel) in [
        ("Write", "docs/features/001-a/spec.md"),
        ("Write", "docs/features/001-a/.verdict.json"),
        ("Write", "docs/features/001-a/.task/plan-refined.json"),
        ("Read", "docs/features/001-a/.meta.json"),
        ("Bash", "x"),
    ] {
        assert_eq!(hook(&env, tool, &env.path(rel).display().to_string()), "", "{tool} {rel}");
    }
    // Garbage in: no block, no failure.
    for input in ["", "not json", "[1]", r#"{"tool_name": 7}"#] {
        let out = Run::new(HOOK, &["pre-tool-use"], env.root()).stdin(input).ok();
        assert!(!out.stdout.contains("deny"), "{input:?}: {}", out.report());
    }
}

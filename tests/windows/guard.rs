//! The state guard (PreToolUse): a hand edit of phasegate's state files is
//! denied with the command to use instead, however Windows spells the
//! path; every other file passes silently.

use serde_json::{Value, json};

use crate::wine::Project;

fn decision(out: &crate::wine::Done) -> Option<(String, String)> {
    if out.stdout.trim().is_empty() {
        return None;
    }
    let v: Value = out.json();
    let specific = &v["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse", "{}", out.report());
    Some((
        specific["permissionDecision"].as_str().unwrap_or_default().to_owned(),
        specific["permissionDecisionReason"].as_str().unwrap_or_default().to_owned(),
    ))
}

#[test]
fn an_edit_of_meta_json_is_denied_in_every_spelling() {
    let p = Project::new();
    let f = p.feature("x");
    let abs = p.win(&format!("docs/features/{f}/.meta.json"));
    for spelled in [
        abs.clone(),
        abs.replace('\\', "/"),
        abs.to_uppercase(),
        abs.to_lowercase(),
        format!("docs\\features\\{f}\\.meta.json"),
        format!("docs/features/{f}/.META.JSON"),
        format!("src\\..\\docs\\features\\{f}\\.meta.json"),
    ] {
        for tool in ["Edit", "Write", "MultiEdit"] {
            let out = p.pre_tool_use("s-1", tool, &spelled);
            let (verdict, reason) = decision(&out).unwrap_or_else(|| panic!("{tool} {spelled}: not denied"));
            assert_eq!(verdict, "deny", "{tool} {spelled}: {}", out.report());
            assert!(reason.contains("workflow-state"), "{tool} {spelled}: {reason}");
            crate::wine::assert_plain("the reason", &reason);
        }
    }
}

#[test]
fn the_other_state_files_are_denied_and_other_files_pass() {
    let p = Project::new();
    let f = p.feature("x");
    for rel in [
        format!("docs/features/{f}/.review-history.md"),
        format!("docs/features/{f}/evidence.json"),
        format!("docs/features/{f}/.task/state.json"),
        ".git/phasegate/index.json".to_owned(),
    ] {
        let out = p.pre_tool_use("s-1", "Write", &p.win(&rel));
        assert_eq!(decision(&out).map(|d| d.0).as_deref(), Some("deny"), "{rel}: {}", out.report());
    }
    for rel in [format!("docs/features/{f}/spec.md"), format!("docs/features/{f}/.verdict.json"), "src/lib.rs".into()] {
        let out = p.pre_tool_use("s-1", "Write", &p.win(&rel));
        assert_eq!(decision(&out), None, "{rel}: {}", out.report());
    }
    // Reading a state file is no edit.
    let out = p.pre_tool_use("s-1", "Read", &p.win(&format!("docs/features/{f}/.meta.json")));
    assert_eq!(decision(&out), None, "{}", out.report());
}

/// An Edit of tasks.md that only ticks a checkbox is denied (the command
/// records it), also in a tasks.md with Windows line ends.
#[test]
fn a_checkbox_only_edit_of_a_crlf_tasks_md_is_denied() {
    let p = Project::new();
    let f = p.feature("x");
    let rel = format!("docs/features/{f}/tasks.md");
    p.write(&rel, "# Tasks\r\n\r\n- [ ] T1: Add the endpoint\r\n- [ ] T2: Test it\r\n");
    let edit = |old: &str, new: &str| {
        p.hook(
            "pre-tool-use",
            &json!({
                "session_id": "s-1", "cwd": p.win(""), "hook_event_name": "PreToolUse", "tool_name": "Edit",
                "tool_input": {"file_path": p.win(&rel), "old_string": old, "new_string": new}
            }),
        )
        .ok()
    };
    let out = edit("- [ ] T1: Add the endpoint\r\n", "- [x] T1: Add the endpoint\r\n");
    assert_eq!(decision(&out).map(|d| d.0).as_deref(), Some("deny"), "{}", out.report());
    let out = edit("- [ ] T2: Test it", "- [ ] T2: Test it well");
    assert_eq!(decision(&out).map(|d| d.0).as_deref(), None, "{}", out.report());
}

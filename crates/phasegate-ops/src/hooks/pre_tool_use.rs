//! PreToolUse: the model must not edit phasegate's state files with Edit or
//! Write; each has a command that changes it exactly (atomically, under a
//! lock, by the rules). The check looks at the path (and, for a feature's
//! tasks.md, at the edit's text: checkboxes are ticked by the binary only):
//! no file is read, no repository opened, so it costs what a process start
//! costs.

use std::path::{Component, Path};

use serde_json::Value;

use super::HookInput;

/// The tools that write files by path.
const WRITING_TOOLS: [&str; 4] = ["Write", "Edit", "MultiEdit", "NotebookEdit"];

/// Why an edit is refused, and what to run instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deny {
    pub reason: String,
}

/// The decision for one tool call: None lets it through.
pub fn check(input: &HookInput) -> Option<Deny> {
    let tool = input.tool_name.as_deref()?;
    if !WRITING_TOOLS.contains(&tool) {
        return None;
    }
    let tool_input = input.tool_input.as_ref()?;
    let path =
        ["file_path", "notebook_path", "path"].iter().find_map(|k| tool_input.get(*k).and_then(Value::as_str))?;
    if let Some(deny) = ticks_by_hand(tool, path, tool_input) {
        return Some(deny);
    }
    let instead = protected(Path::new(path))?;
    Some(Deny {
        reason: format!(
            "phasegate: {path} is workflow state that only workflow-state writes (atomically, under a lock, by the workflow's rules); do not {} it. Instead: {instead}",
            tool.to_lowercase()
        ),
    })
}

/// An Edit of a feature's tasks.md that only changes checkboxes: the
/// binary ticks them (`tasks start|complete|skip|fail`), so the state it
/// reads on a restart is the state it wrote. Writing the list itself (the
/// tasks phase) stays free.
fn ticks_by_hand(tool: &str, path: &str, tool_input: &Value) -> Option<Deny> {
    let parts: Vec<&str> = Path::new(path).iter().filter_map(|c| c.to_str()).collect();
    let n = parts.len();
    if n < 4 || parts[n - 1] != "tasks.md" || parts[n - 3] != "features" || parts[n - 4] != "docs" {
        return None;
    }
    let pairs: Vec<(&str, &str)> = match tool {
        "Edit" => vec![(tool_input.get("old_string")?.as_str()?, tool_input.get("new_string")?.as_str()?)],
        "MultiEdit" => tool_input
            .get("edits")?
            .as_array()?
            .iter()
            .filter_map(|e| Some((e.get("old_string")?.as_str()?, e.get("new_string")?.as_str()?)))
            .collect(),
        _ => return None,
    };
    let mark = |line: &str| -> Option<(String, char)> {
        let t = line.trim_start();
        let body = t.strip_prefix("- [").or_else(|| t.strip_prefix("* ["))?;
        let c = body.chars().next()?;
        let rest = body[c.len_utf8()..].strip_prefix(']')?;
        Some((format!("{}{rest}", &line[..line.len() - t.len()]), c))
    };
    let ticks = pairs.iter().any(|(old, new)| {
        old.lines().zip(new.lines()).any(|(o, n)| match (mark(o), mark(n)) {
            (Some((a, x)), Some((b, y))) => a == b && x != y,
            _ => false,
        })
    });
    ticks.then(|| Deny {
        reason: format!(
            "phasegate: {path}'s checkboxes are the task state that only workflow-state ticks; do not {} them. Instead: `workflow-state tasks start|complete|skip|fail <task>`",
            tool.to_lowercase()
        ),
    })
}

/// The command to use instead, when `path` is one of phasegate's state files.
pub fn protected(path: &Path) -> Option<&'static str> {
    let parts: Vec<&str> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            Component::Prefix(_) | Component::RootDir | Component::CurDir | Component::ParentDir => None,
        })
        .collect();
    let n = parts.len();
    let name = *parts.last()?;
    // The file is `depth` folders below the feature folder, in docs/features.
    let under_features =
        |depth: usize| n >= depth + 4 && parts[n - depth - 4] == "docs" && parts[n - depth - 3] == "features";
    // docs/features/<NNN-slug>/<file>
    if under_features(0) {
        return match name {
            ".meta.json" => Some(
                "`workflow-state phase start|complete`, `workflow-state review record`, `workflow-state feature abandon` or `workflow-state finish`",
            ),
            ".review-history.md" => Some("`workflow-state review record` appends each iteration"),
            ".rounds.json" => Some("`workflow-state rounds start|record|answer|ask`"),
            ".review-cycles.json" => Some("`workflow-state tasks start|review|record|fail`"),
            _ => None,
        };
    }
    // docs/features/<NNN-slug>/.task/<file>
    if under_features(1) && parts[n - 2] == ".task" {
        return match name {
            "state.json" => Some(
                "`workflow-state pipeline transition|pause|resume|fail|recover|reset` (`workflow-state pipeline next` says which)",
            ),
            "loop-state.json" => Some("`workflow-state pipeline cancel`, `claim` or `resume`"),
            ".orchestrator.lock" | ".codex-session-active" => Some("`workflow-state pipeline reset` or `final-gate`"),
            _ => None,
        };
    }
    // .claude/suspended/<slug>.json: suspension markers.
    if n >= 3 && parts[n - 3] == ".claude" && parts[n - 2] == "suspended" && name.ends_with(".json") {
        return Some("the `workflow-state question` commands (ask, answer) change suspension markers");
    }
    // .claude/questions/<id>.json: queued and answered questions.
    if n >= 3 && parts[n - 3] == ".claude" && parts[n - 2] == "questions" && name.ends_with(".json") {
        return Some("`workflow-state question answer <id> <answer>` records an answer");
    }
    // .git/phasegate/**: locks, journals, records.
    if let Some(i) = parts.iter().position(|p| *p == ".git")
        && parts.get(i + 1) == Some(&"phasegate")
    {
        return Some("nothing: these are phasegate's runtime files (locks, journals, session records)");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(tool: &str, path: &str) -> HookInput {
        HookInput {
            tool_name: Some(tool.into()),
            tool_input: Some(json!({"file_path": path, "content": "x"})),
            ..HookInput::default()
        }
    }

    #[test]
    fn ticking_a_task_by_hand_is_denied_and_writing_the_list_is_not() {
        let edit = |old: &str, new: &str| HookInput {
            tool_name: Some("Edit".into()),
            tool_input: Some(
                json!({"file_path": "/r/docs/features/001-a/tasks.md", "old_string": old, "new_string": new}),
            ),
            ..HookInput::default()
        };
        let d = check(&edit("- [ ] T1: model", "- [x] T1: model")).unwrap();
        assert!(d.reason.contains("workflow-state tasks start|complete|skip|fail"), "{}", d.reason);
        assert!(check(&edit("  - [~] **Search**", "  - [ ] **Search**")).is_some());
        assert!(check(&edit("- [ ] T1: model", "- [ ] T1: the model in src/model.rs")).is_none());
        let multi = HookInput {
            tool_name: Some("MultiEdit".into()),
            tool_input: Some(
                json!({"file_path": "docs/features/001-a/tasks.md", "edits": [{"old_string": "- [ ] T2: a", "new_string": "- [x] T2: a"}]}),
            ),
            ..HookInput::default()
        };
        assert!(check(&multi).is_some());
        assert!(check(&input("Write", "/r/docs/features/001-a/tasks.md")).is_none());
        assert!(check(&edit("- [ ] x", "- [x] x")).is_some());
        let elsewhere = HookInput {
            tool_name: Some("Edit".into()),
            tool_input: Some(
                json!({"file_path": "/r/notes/tasks.md", "old_string": "- [ ] a", "new_string": "- [x] a"}),
            ),
            ..HookInput::default()
        };
        assert!(check(&elsewhere).is_none(), "only a feature's task list");
    }

    #[test]
    fn state_files_are_protected_and_worker_files_are_not() {
        for p in [
            "/r/docs/features/001-a/.meta.json",
            "docs/features/001-a/.review-history.md",
            "/r/docs/features/002-b/.task/state.json",
            "/r/docs/features/002-b/.task/loop-state.json",
            "/r/.claude/suspended/9-x.json",
            "/r/.claude/questions/9-x.2.json",
            "/r/docs/features/001-a/.rounds.json",
            "/r/docs/features/001-a/.review-cycles.json",
            "/r/.git/phasegate/index.json",
        ] {
            assert!(check(&input("Write", p)).is_some(), "{p}");
            assert!(check(&input("Edit", p)).is_some(), "{p}");
        }
        for p in [
            "/r/docs/features/001-a/spec.md",
            "/r/docs/features/001-a/.verdict.json",
            "/r/docs/features/002-b/.task/user-story.json",
            "/r/docs/features/002-b/.task/review-sonnet.json",
            "/r/src/.meta.json",
            "/r/state.json",
        ] {
            assert_eq!(check(&input("Write", p)), None, "{p}");
        }
        assert_eq!(check(&input("Read", "/r/docs/features/001-a/.meta.json")), None);
        let d = check(&input("Edit", "/r/docs/features/001-a/.meta.json")).unwrap();
        assert!(
            d.reason.contains("workflow-state review record") && d.reason.contains("do not edit it"),
            "{}",
            d.reason
        );
    }
}

//! PreToolUse: the model must not edit phasegate's state files with Edit or
//! Write; each has a command that changes it exactly (atomically, under a
//! lock, by the rules). The check looks at the path, however it is spelled
//! (`..`, `.`, another case), against the one table of state files
//! (`phasegate_core::state`); for a feature's tasks.md, at whether the edit
//! changes a task's checkbox (ticked by the binary only). Only a Write of a
//! tasks.md reads a file (that tasks.md); no repository is opened, so it
//! costs what a process start costs. Input it cannot judge is refused.

use std::collections::BTreeMap;
use std::path::Path;

use phasegate_core::state;
use phasegate_core::words::{BINARY, Command};
use serde_json::Value;

use super::{Contributor, HookCtx, HookInput, ToolVote};
use crate::hook::WRITING_TOOLS;

/// The state-file guard as a PreToolUse contributor.
pub struct StateFiles;

pub static STATE_FILES: StateFiles = StateFiles;

impl Contributor for StateFiles {
    fn pre_tool_use(&self, ctx: &HookCtx<'_>) -> ToolVote {
        match check(ctx.input).or_else(|| through_a_link(ctx)) {
            Some(deny) => ToolVote::Deny(deny.reason),
            None => ToolVote::Pass,
        }
    }
}

/// A write that reaches a state file through a symbolic link (the path
/// resolved is one) or a hard link (another name of a file phasegate
/// witnessed): refused as the state file itself would be. A path with no
/// link costs one look at its folders.
fn through_a_link(ctx: &HookCtx<'_>) -> Option<Deny> {
    let resolved = ctx.edited_file()?;
    let target = match state::protected(&resolved) {
        Some(_) => resolved,
        None => ctx.project().ok()?.linked_state_file(&resolved)?,
    };
    let file = state::protected(&target)?;
    Some(Deny {
        reason: format!(
            "phasegate: this path is another name of {} (a link), workflow state that only {BINARY} writes; do not write it. Instead: {}",
            target.display(),
            file.written_by
        ),
    })
}

/// Why an edit is refused, and what to run instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deny {
    pub reason: String,
}

/// The decision when the tool input could not be read whole (too large, or
/// not JSON): a writing tool's edit cannot be judged, so it is refused.
pub fn unjudged(tool_hint: Option<&str>, why: &str) -> Option<Deny> {
    match tool_hint {
        Some(t) if !WRITING_TOOLS.contains(&t) => None,
        _ => Some(Deny {
            reason: format!(
                "phasegate could not read this tool call's input ({why}), so it cannot check that it leaves phasegate's state files alone; write the file in smaller parts"
            ),
        }),
    }
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
    if let Some(deny) = ticks_by_hand(tool, path, tool_input, input.cwd.as_deref()) {
        return Some(deny);
    }
    let file = state::protected(Path::new(path))?;
    Some(Deny {
        reason: format!(
            "phasegate: {path} is workflow state that only {BINARY} writes (atomically, under a lock, by the workflow's rules); do not {} it. Instead: {}",
            tool.to_lowercase(),
            file.written_by
        ),
    })
}

/// Whether `path` is a feature's task list (`docs/features/<f>/tasks.md`,
/// however spelled).
fn is_task_list(path: &Path) -> bool {
    state::StateFile {
        path: "docs/features/*/tasks.md",
        schema: None,
        written_by: state::WrittenBy(&[]),
        witnessed: false,
    }
    .matches(path)
}

/// An edit of a feature's tasks.md that changes a task's checkbox: the
/// binary ticks them (`tasks start|complete|skip|fail`), so the state it
/// reads on a restart is the state it wrote. Writing the list itself (the
/// tasks phase: new tasks, new words) stays free.
fn ticks_by_hand(tool: &str, path: &str, tool_input: &Value, cwd: Option<&Path>) -> Option<Deny> {
    if !is_task_list(Path::new(path)) {
        return None;
    }
    // The edit's effect on the whole file when it can be read (one file,
    // only for a task list), else on the edit's own strings.
    let on_disk = Path::new(path);
    // A relative path is the session's: the input's folder, else the
    // hook's own (Claude Code runs hooks in the project).
    let file = match (on_disk.is_absolute(), cwd) {
        (true, _) => Some(on_disk.to_owned()),
        (false, Some(c)) => Some(c.join(on_disk)),
        (false, None) => std::env::current_dir().ok().map(|c| c.join(on_disk)),
    };
    // The store's bounded read of a regular file: the model names the path.
    let current = file.and_then(|f| phasegate_store::files::read_optional(&f).ok().flatten());
    let edits: Vec<(String, String, bool)> = match tool {
        "Edit" => vec![(
            tool_input.get("old_string")?.as_str()?.to_owned(),
            tool_input.get("new_string")?.as_str()?.to_owned(),
            tool_input.get("replace_all").and_then(Value::as_bool).unwrap_or(false),
        )],
        "MultiEdit" => tool_input
            .get("edits")?
            .as_array()?
            .iter()
            .filter_map(|e| {
                Some((
                    e.get("old_string")?.as_str()?.to_owned(),
                    e.get("new_string")?.as_str()?.to_owned(),
                    e.get("replace_all").and_then(Value::as_bool).unwrap_or(false),
                ))
            })
            .collect(),
        "Write" => vec![(current.clone()?, tool_input.get("content")?.as_str()?.to_owned(), false)],
        _ => return None,
    };
    let pairs: Vec<(String, String)> = match (&current, tool) {
        (Some(text), "Edit" | "MultiEdit") => {
            let mut after = text.clone();
            for (old, new, all) in &edits {
                after = if *all { after.replace(old.as_str(), new) } else { after.replacen(old.as_str(), new, 1) };
            }
            vec![(text.clone(), after)]
        }
        _ => edits.into_iter().map(|(old, new, _)| (old, new)).collect(),
    };
    let ticks = pairs.iter().any(|(old, new)| {
        let before = marks(old);
        marks(new).iter().any(|(task, mark)| before.get(task).is_some_and(|m| m != mark))
            || (current.is_none() && box_edited(old, new))
    });
    ticks.then(|| Deny {
        reason: format!(
            "phasegate: {path}'s checkboxes are the task state that only {BINARY} ticks; do not {} them. Instead: `{tasks_start}`", tool.to_lowercase(), tasks_start = Command::new("tasks start|complete|skip|fail").word("<task>")),
    })
}

/// Whether an edit whose file could not be read changes what sits right
/// before a `]`: `' ] T1'` → `'x] T1'` is a box ticked by hand, though
/// neither string holds a whole checkbox.
fn box_edited(old: &str, new: &str) -> bool {
    let prefix = old.chars().zip(new.chars()).take_while(|(a, b)| a == b).count();
    let (o, n): (Vec<char>, Vec<char>) = (old.chars().skip(prefix).collect(), new.chars().skip(prefix).collect());
    let suffix = o.iter().rev().zip(n.iter().rev()).take_while(|(a, b)| a == b).count();
    let (o_mid, n_mid) = (&o[..o.len() - suffix], &n[..n.len() - suffix]);
    let after = o.get(o.len() - suffix).copied();
    o_mid.len() == 1 && n_mid.len() == 1 && after == Some(']')
}

/// Each checkbox line's task (its text, spaces collapsed) and mark, for any
/// list marker or none (`- [x]`, `* [x]`, `1. [x]`, `[x]`).
fn marks(text: &str) -> BTreeMap<String, char> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let t = line.trim_start();
        let t = t
            .strip_prefix("- ")
            .or_else(|| t.strip_prefix("* "))
            .or_else(|| t.strip_prefix("+ "))
            .or_else(|| {
                let digits = t.bytes().take_while(u8::is_ascii_digit).count();
                (digits > 0).then(|| t[digits..].strip_prefix(". ").or_else(|| t[digits..].strip_prefix(") ")))?
            })
            .unwrap_or(t)
            .trim_start();
        let Some(body) = t.strip_prefix('[') else { continue };
        let mut chars = body.chars();
        let Some(c) = chars.next() else { continue };
        let Some(rest) = chars.as_str().strip_prefix(']') else { continue };
        let task = rest.split_whitespace().collect::<Vec<_>>().join(" ");
        if !task.is_empty() {
            out.insert(task, c.to_ascii_lowercase());
        }
    }
    out
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

    // Regression: an Edit of tasks.md from `' ] T1'` to `'x] T1'` ticked a
    // box by hand when the file could not be read to see the whole line.
    #[test]
    fn a_box_ticked_by_a_fragment_of_its_line_was_let_through() {
        let edit = |old: &str, new: &str| HookInput {
            tool_name: Some("Edit".into()),
            tool_input: Some(
                json!({"file_path": "/nowhere/docs/features/001-a/tasks.md", "old_string": old, "new_string": new}),
            ),
            ..HookInput::default()
        };
        for (old, new) in [(" ] T1", "x] T1"), ("[ ]", "[x]"), ("~] T2: x", "-] T2: x")] {
            assert!(check(&edit(old, new)).is_some(), "{old:?} -> {new:?}");
        }
        for (old, new) in [("T1: model", "T1: the model"), ("] T1", "] T2"), ("a]", "ab]")] {
            assert!(check(&edit(old, new)).is_none(), "{old:?} -> {new:?}");
        }
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
            // A gate's review: the binary writes it from the reviewer's reply.
            "/r/docs/features/002-b/.task/review-sonnet.json",
            "/r/.git/phasegate/index.json",
        ] {
            assert!(check(&input("Write", p)).is_some(), "{p}");
            assert!(check(&input("Edit", p)).is_some(), "{p}");
        }
        for p in [
            "/r/docs/features/001-a/spec.md",
            "/r/docs/features/001-a/.verdict.json",
            "/r/docs/features/002-b/.task/user-story.json",
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

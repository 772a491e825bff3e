//! The knowledge base in the hooks.
//!
//! **Just in time** (PreToolUse on Edit, Write, MultiEdit, NotebookEdit):
//! when the model is about to change a file, the §10.1 gotchas of that file
//! that this session has not been given yet (by a brief it asked for, or
//! earlier here) are added as context, at most `justInTime.maxBytes` (600)
//! bytes, each item once per session. The common case must cost what a
//! process start costs: no repository is opened (the working tree and
//! git's folder are found by looking for `.git` upwards), a tree without a
//! knowledge base stops after two stats, and a fresh index answers from at
//! most four small shard files, each checked against its checksum. The
//! lessons given are read from their item files, and only from the files
//! the index was built from (one small read per item given, once per
//! session). Only a stale index (items changed since it was built) or one
//! that fails a check opens the project to rebuild it.
//!
//! **Compaction** (SessionStart with source `compact`): the gotchas this
//! session was given come back, newest first, within the compact budget.

use std::path::Path;

use phasegate_core::agent::Agent;
use phasegate_core::brief::{BriefKind, CONTEXT_CONFIG_PATH, ContextConfig, JustInTime};
use phasegate_core::knowledge::IndexEntry;
use phasegate_core::session::SessionId;
use phasegate_store::Project;
use phasegate_store::git::RepoLayout;
use phasegate_store::knowledge::given::{GivenItem, add_given, add_told, given_path, read_given};
use phasegate_store::knowledge::{IndexDir, IndexFault, KNOWLEDGE_DIR, index_dir};
use serde_json::Value;

use super::inject;
use crate::env;
use crate::hook;
use crate::hook::{Contributor, HookCtx, ToolVote};

/// The knowledge base as a hook contributor.
pub struct Knowledge;

pub static KNOWLEDGE: Knowledge = Knowledge;

impl Contributor for Knowledge {
    fn pre_tool_use(&self, ctx: &HookCtx<'_>) -> ToolVote {
        if matches!(ctx.input.tool_name.as_deref(), Some("Agent" | "Task")) {
            given_to_worker(ctx);
            return ToolVote::Pass;
        }
        match just_in_time(ctx) {
            Some(text) => ToolVote::Context(text),
            None => ToolVote::Pass,
        }
    }

    fn session_start(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        if ctx.input.source.as_deref() != Some("compact") {
            return Vec::new();
        }
        let (Ok(project), Some(session)) = (ctx.project(), ctx.session()) else { return Vec::new() };
        after_compaction(ctx, project, &session)
    }
}

/// The worker under whose name a pipeline's build state keeps what its
/// implementer was given (its code reviewer checks those).
pub const WORKER_GIVEN: Agent = Agent::Implementer;

/// A worker spawned with gotchas in its prompt (`inject::section`'s lines)
/// was given them: they are recorded for this session (the just-in-time
/// hook stays silent on them) and, when the session runs a pipeline, for
/// its implementer (the code reviewer checks them). Only what the prompt
/// carries counts: a brief that printed gotchas the worker never got
/// records nothing.
fn given_to_worker(ctx: &HookCtx<'_>) {
    let Some(prompt) = ctx.input.tool_input.as_ref().and_then(|i| i.get("prompt")).and_then(Value::as_str) else {
        return;
    };
    let ids = inject::ids_in(prompt);
    if ids.is_empty() {
        return;
    }
    let (Ok(project), Some(session)) = (ctx.project(), ctx.session()) else { return };
    let worker = ctx
        .input
        .tool_input
        .as_ref()
        .and_then(|i| i.get("subagent_type"))
        .and_then(Value::as_str)
        .unwrap_or(WORKER_GIVEN.name())
        .to_owned();
    let env = env::Env { session_var: Some(session.to_string()), ..ctx.env.clone() };
    let given = std::collections::BTreeMap::from([(worker, ids.clone())]);
    inject::remember_for_session(&env, &project.runtime_dir(), &given);
    if let Ok(Some(feature)) = project.coordination().session_feature(&session) {
        let _ = inject::remember_for_tasks(
            &env,
            &feature,
            &std::collections::BTreeMap::from([(WORKER_GIVEN.name().to_owned(), ids)]),
        );
    }
}

/// The context to add before this tool call, if any.
pub fn just_in_time(ctx: &HookCtx<'_>) -> Option<String> {
    let (input, env) = (ctx.input, ctx.env);
    let tool = input.tool_name.as_deref()?;
    let abs = ctx.edited_file()?;
    let session = ctx.session()?;
    let layout = ctx.repo_of(&abs)?;
    let items = layout.current_root.join(KNOWLEDGE_DIR);
    let runtime = layout.common_dir.join("phasegate");
    // A knowledge folder, or an index folder, through a link out of the
    // repository is a problem to name: no gotcha is read through it.
    match phasegate_store::knowledge::own_folder(&layout.current_root, &items, &runtime) {
        Ok(true) => {}
        Ok(false) => return None,
        Err(problem) => return tell_once(&given_path(&runtime, &session), &problem.to_string()),
    }
    let config = jit_config(&layout.current_root);
    if !config.enabled {
        return None;
    }
    let rel = relative(&layout.current_root, &abs)?;
    if rel.starts_with(".git/") || rel.starts_with(".phasegate/") {
        return None;
    }
    let action = if tool == "Write" && !phasegate_store::files::exists(&abs) { "CREATE" } else { "UPDATE" };
    let log_path = given_path(&runtime, &session);
    let new = new_gotchas(ctx, &layout, &items, &rel, action, &log_path)?;
    let refs: Vec<&IndexEntry> = new.iter().collect();
    let (text, shown) = render(&rel, &refs, config.max_bytes)?;
    let given: Vec<GivenItem> =
        shown.iter().map(|e| GivenItem { id: e.id.clone(), for_: rel.clone(), at: env.now }).collect();
    let _ = add_given(&log_path, &given);
    Some(text)
}

/// The knowledge base cannot be read (`problem`): said once per session,
/// at the first edit that would have been given gotchas, so the session
/// knows why none come, without a line at every edit. Said again only
/// when the session's log cannot record it.
fn tell_once(log_path: &Path, problem: &str) -> Option<String> {
    let said = format!("phasegate: no gotchas are given before edits in this session: {}", hook::one_line(problem));
    match add_told(log_path, "knowledge-unreadable") {
        Ok(false) => None,
        Ok(true) | Err(_) => Some(hook::clip(&said, 600)),
    }
}

/// The gotchas of `rel` for `action` that the session was not given yet,
/// their lessons read from the items: from the index as the hook finds it
/// (fresh by the folder's time), or from one built again when it is stale,
/// fails a check, or names an item file that changed since.
fn new_gotchas(
    ctx: &HookCtx<'_>,
    layout: &RepoLayout,
    items: &Path,
    rel: &str,
    action: &str,
    log_path: &Path,
) -> Option<Vec<IndexEntry>> {
    let pick = |index: &IndexDir| -> Result<(Vec<IndexEntry>, bool), IndexFault> {
        let found = super::base::gotchas_in(index, rel, Some(action))?;
        if found.is_empty() {
            return Ok((found, true));
        }
        let log = read_given(log_path);
        let new: Vec<IndexEntry> = found.into_iter().filter(|e| !log.has(&e.id)).collect();
        Ok(inject::verified(items, &new))
    };
    let at = index_dir(&layout.common_dir.join("phasegate"), &layout.current_root);
    let fault = match IndexDir::by_folder(&at, items).map(|index| pick(&index)) {
        Some(Ok((entries, true))) => return Some(entries),
        Some(Ok((_, false)) | Err(_)) => true,
        None => false,
    };
    let project = ctx.project_at(&layout.current_root)?;
    let deadline = Some(std::time::Instant::now() + super::base::HOOK_REBUILD_BUDGET);
    let index = if fault {
        super::base::rebuild_index(&project, &layout.current_root, deadline)
    } else {
        super::base::fresh_index(&project, &layout.current_root, deadline)
    };
    pick(&index.ok()??).ok().map(|(entries, _)| entries)
}

/// `.phasegate/context.config.json`'s just-in-time settings (the defaults
/// without a file or when it cannot be read: the commands name that).
fn jit_config(root: &Path) -> JustInTime {
    let path = root.join(CONTEXT_CONFIG_PATH);
    match phasegate_store::files::read_optional(&path) {
        Ok(Some(text)) => ContextConfig::parse(&text).map(|c| c.just_in_time).unwrap_or_default(),
        _ => JustInTime::default(),
    }
}

/// `abs` relative to `root`, with `.` and `..` resolved by their text.
fn relative(root: &Path, abs: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for c in abs.strip_prefix(root).ok()?.components() {
        match c {
            std::path::Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            std::path::Component::ParentDir => {
                parts.pop()?;
            }
            _ => {}
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The injection: a heading and one line per item while it fits in `max`
/// bytes (the first is cut to fit rather than left out). None when nothing
/// fits.
fn render<'a>(rel: &str, entries: &[&'a IndexEntry], max: usize) -> Option<(String, Vec<&'a IndexEntry>)> {
    if entries.is_empty() {
        return None;
    }
    let mut text = format!("phasegate: gotchas known for {rel} (AVOID THESE MISTAKES):\n");
    let mut shown = Vec::new();
    for e in entries {
        let line = format!("- {}\n", e.content.split_whitespace().collect::<Vec<_>>().join(" "));
        if text.len() + line.len() <= max {
            text.push_str(&line);
            shown.push(*e);
        } else if shown.is_empty() {
            let room = max.saturating_sub(text.len() + 4);
            if room < 40 {
                return None;
            }
            text.push_str(&hook::clip(&line, room));
            text.push('\n');
            shown.push(*e);
            break;
        } else {
            break;
        }
    }
    Some((text.trim_end().to_owned(), shown))
}

/// After `/compact`: the gotchas this session was given, newest first,
/// within the compact budget (the features' lines say the phase; the tasks'
/// lines the task and its review cycle).
fn after_compaction(ctx: &HookCtx<'_>, project: &Project, session: &SessionId) -> Vec<String> {
    let log = read_given(&project.knowledge().given_path(session));
    if log.items.is_empty() {
        return Vec::new();
    }
    let budget = project
        .knowledge()
        .context_config()
        .map(|c| c.budget(BriefKind::Compact.name(), BriefKind::Compact.default_budget()))
        .unwrap_or(BriefKind::Compact.default_budget())
        * 4;
    let root = project.root().to_owned();
    let ids: Vec<String> = log.items.iter().rev().map(|i| i.id.clone()).collect();
    let mut entries = inject::entries_of(project, &root, &ids);
    // Items of a linked worktree's knowledge base are read there.
    if entries.len() < ids.len()
        && let Some(l) = ctx.repo()
        && l.current_root != root
    {
        for e in inject::entries_of(project, &l.current_root, &ids) {
            if !entries.iter().any(|x| x.id == e.id) {
                entries.push(e);
            }
        }
    }
    let mut lines = vec![
        "phasegate: gotchas given to this session before it was compacted (still AVOID THESE MISTAKES):".to_owned(),
    ];
    let mut used = lines[0].len();
    for id in &ids {
        let Some(e) = entries.iter().find(|e| &e.id == id) else { continue };
        let for_ = log.items.iter().rev().find(|i| &i.id == id).map(|i| i.for_.as_str()).unwrap_or("-");
        let line = format!("- {} ({for_})", e.content.split_whitespace().collect::<Vec<_>>().join(" "));
        if used + line.len() + 1 > budget {
            break;
        }
        used += line.len() + 1;
        lines.push(line);
    }
    if lines.len() == 1 { Vec::new() } else { lines }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(content: &str) -> IndexEntry {
        IndexEntry {
            id: format!("gotcha-{}", content.len()),
            item_type: phasegate_core::knowledge::KnowledgeType::Gotcha,
            file_pattern: None,
            action: None,
            topic: None,
            confidence: 0.7,
            occurrences: 1,
            content: content.to_owned(),
            fingerprint: String::new(),
        }
    }

    #[test]
    fn an_injection_stays_within_its_bytes_and_cuts_a_long_first_item() {
        let short = entry("Close the pool in the migration's down step or the next up step hangs");
        let long = entry(&"A very long lesson that goes on and on. ".repeat(40));
        let (text, shown) =
            render("db/1.sql", &[&short, &short, &short, &short, &short, &short, &short, &short], 600).unwrap();
        assert!(text.len() <= 600, "{}", text.len());
        assert!(shown.len() < 8);
        let (text, shown) = render("db/1.sql", &[&long], 600).unwrap();
        assert!(text.len() <= 600 && shown.len() == 1, "{}", text.len());
        assert!(render("db/1.sql", &[], 600).is_none());
    }

    #[test]
    fn relative_paths_resolve_dot_dot_by_text() {
        let root = Path::new("/r");
        assert_eq!(relative(root, Path::new("/r/a/../db/1.sql")).as_deref(), Some("db/1.sql"));
        assert_eq!(relative(root, Path::new("/r/./db/1.sql")).as_deref(), Some("db/1.sql"));
        assert_eq!(relative(root, Path::new("/elsewhere/x")), None);
    }
}

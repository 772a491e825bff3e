//! The knowledge base reaching the model: the gotchas of the files a brief's
//! work names, in seed 004 §5.5's shape ("## Gotchas (AVOID THESE
//! MISTAKES)"), for the implementer; the same items named for the reviewer,
//! who checks they were respected; and the record of which items each task
//! and each session received (the retrospective judges them, the hook gives
//! an item once per session, a compacted session gets them back).
//!
//! Every lookup is the §10.1 query answered from the index (rebuilt when
//! stale): per file, the items of its patterns and of no pattern, for the
//! action the work is (CREATE for a file that does not exist yet, UPDATE
//! otherwise, or the plan step's own). A task with several files keeps the
//! five best over all of them, by confidence.
//!
//! The index says which items; what reaches the model is each item's
//! lesson read again from its file, and only from the file the index was
//! built from ([`verified`]): a shard that fails its check makes the index
//! rebuild, and an edited shard cannot put words in a brief.

use std::collections::BTreeMap;
use std::path::Path;

use phasegate_core::knowledge::{self, IndexEntry, MAX_GOTCHAS};
use phasegate_store::Project;
use phasegate_store::knowledge::given::{GivenItem, add_given};
use phasegate_store::knowledge::{IndexDir, IndexFault};

use super::base::{gotchas_in, looked_up, patterns_in};
use crate::env::Env;
use crate::error::OpResult;

/// The §5.5 heading.
pub const HEADING: &str = "## Gotchas (AVOID THESE MISTAKES)";
/// The reviewer's heading.
pub const REVIEW_HEADING: &str = "## Gotchas the implementer was given (check each was respected)";

/// One piece of work a brief covers: a task (or plan step) and its files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Work {
    pub task: String,
    /// Paths relative to the working tree's root.
    pub files: Vec<String>,
    /// The action for every file, when the work says (a plan step's);
    /// otherwise CREATE or UPDATE by whether the file exists.
    pub action: Option<String>,
}

/// The open tasks of the feature's task list with their files (none when
/// it has no readable list).
pub fn tasks_work(feature: &phasegate_store::Feature) -> Vec<Work> {
    let Ok((list, _)) = feature.task_list() else { return Vec::new() };
    list.tasks
        .iter()
        .filter(|t| !t.mark.settled() && !t.files.is_empty())
        .map(|t| Work { task: t.id.clone(), files: t.files.clone(), action: None })
        .collect()
}

/// The pipeline plan's steps, each its own piece of work with its action.
pub fn plan_work(plan: &phasegate_core::pipeline::files::PlanRefined) -> Vec<Work> {
    plan.steps
        .iter()
        .map(|s| Work {
            task: format!("step-{}", s.id),
            files: vec![s.file.clone()],
            action: Some(s.action_type().to_owned()),
        })
        .collect()
}

/// The action a change to `rel` in `root` is, when the work does not say.
pub fn action_for(root: &Path, rel: &str) -> &'static str {
    if phasegate_store::files::exists(&root.join(rel)) { "UPDATE" } else { "CREATE" }
}

/// A file name as a task list writes it (`src/db.rs`, `` `src/db.rs` ``,
/// `src/db.rs (new)`), reduced to the path; None for what is not one.
pub fn clean_path(file: &str) -> Option<String> {
    let first = file.split_whitespace().next()?;
    let p = first.trim_matches(|c: char| c == '`' || c == '"' || c == '\'' || c == ',' || c == ';');
    let p = p.strip_prefix("./").unwrap_or(p);
    (!p.is_empty() && !p.contains('*')).then(|| p.replace('\\', "/"))
}

/// The entries whose item file in `items` is still the one the index was
/// built from (its fingerprint), each with its lesson read from that file.
/// The second value is false when one was not (the index is stale).
pub fn verified(items: &Path, entries: &[IndexEntry]) -> (Vec<IndexEntry>, bool) {
    let mut out = Vec::new();
    for e in entries {
        let Some((_, text)) = phasegate_store::knowledge::read_item(items, &e.id) else {
            continue;
        };
        if knowledge::hex(knowledge::fingerprint(text.as_bytes())) != e.fingerprint {
            continue;
        }
        if let Some(content) = knowledge::lesson_of(&text) {
            out.push(IndexEntry { content, ..e.clone() });
        }
    }
    let whole = out.len() == entries.len();
    (out, whole)
}

/// The gotchas of each piece of work (task → its best five over its files),
/// their lessons read from the items.
pub fn for_work(project: &Project, root: &Path, work: &[Work]) -> BTreeMap<String, Vec<IndexEntry>> {
    if work.iter().all(|w| w.files.is_empty()) {
        return BTreeMap::new();
    }
    let look = |index: &IndexDir| -> Result<BTreeMap<String, Vec<IndexEntry>>, IndexFault> {
        let mut out = BTreeMap::new();
        for w in work {
            let mut found: Vec<IndexEntry> = Vec::new();
            for file in w.files.iter().filter_map(|f| clean_path(f)) {
                let action = w.action.clone().unwrap_or_else(|| action_for(root, &file).to_owned());
                for e in gotchas_in(index, &file, Some(&action))? {
                    if !found.iter().any(|f| f.id == e.id) {
                        found.push(e);
                    }
                }
            }
            found.sort_by(|a, b| {
                b.confidence.total_cmp(&a.confidence).then(b.occurrences.cmp(&a.occurrences)).then(a.id.cmp(&b.id))
            });
            found.truncate(MAX_GOTCHAS);
            if !found.is_empty() {
                out.insert(w.task.clone(), found);
            }
        }
        Ok(out)
    };
    let Ok(Some((_, by_task))) = looked_up(project, root, look) else { return BTreeMap::new() };
    let items = phasegate_store::knowledge::dir_in(root);
    by_task
        .into_iter()
        .filter_map(|(task, entries)| {
            let (entries, _) = verified(&items, &entries);
            (!entries.is_empty()).then_some((task, entries))
        })
        .collect()
}

/// The §10.1 patterns and decisions for `topics`, from the index of the
/// tree at `root`, their lessons read from the items.
pub fn patterns_for(project: &Project, root: &Path, topics: &[String]) -> Vec<IndexEntry> {
    if topics.is_empty() {
        return Vec::new();
    }
    let Ok(Some((_, found))) = looked_up(project, root, |index| patterns_in(index, topics)) else { return Vec::new() };
    verified(&phasegate_store::knowledge::dir_in(root), &found).0
}

/// The topics a feature is about: the words of its slug (`user-auth-flow`:
/// user, auth, flow), as the knowledge base's topics are single words.
pub fn topics_of(feature: &str) -> Vec<String> {
    let slug = phasegate_core::slug::split_feature_name(feature).map_or(feature, |(_, s)| s);
    slug.split('-').filter(|w| w.len() >= 3).map(str::to_lowercase).collect()
}

/// The section of patterns and decisions that worked here.
pub fn patterns_section(entries: &[IndexEntry]) -> Option<String> {
    if entries.is_empty() {
        return None;
    }
    let mut out =
        String::from("\n## Patterns and decisions that worked here (follow them unless the spec says otherwise)\n");
    for e in entries {
        out.push_str(&format!(
            "- {} ({}: {})\n",
            one_line(&e.content),
            e.item_type.name(),
            e.topic.as_deref().unwrap_or("-")
        ));
    }
    Some(out)
}

/// The entries of a map, each once, in the order first met.
fn unique(by_task: &BTreeMap<String, Vec<IndexEntry>>) -> Vec<(&IndexEntry, Vec<&str>)> {
    let mut out: Vec<(&IndexEntry, Vec<&str>)> = Vec::new();
    for (task, entries) in by_task {
        for e in entries {
            match out.iter_mut().find(|(x, _)| x.id == e.id) {
                Some((_, tasks)) => tasks.push(task),
                None => out.push((e, vec![task.as_str()])),
            }
        }
    }
    out
}

/// One lesson on one line.
fn one_line(content: &str) -> String {
    content.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The implementer's section (§5.5): `- <lesson> (<files>: <tasks>) [<id>]`:
/// what each lesson is about (the file pattern it was learned on, else its
/// action or topic), the tasks it is for, and its id, by which a hook knows
/// it reached a worker's prompt ([`ids_in`]).
pub fn section(by_task: &BTreeMap<String, Vec<IndexEntry>>) -> Option<String> {
    let items = unique(by_task);
    if items.is_empty() {
        return None;
    }
    let mut out = format!("\n{HEADING}\n");
    for (e, tasks) in items {
        let about = e.file_pattern.clone().or_else(|| e.action.clone()).or_else(|| e.topic.clone());
        let wh = match about {
            Some(a) => format!("{a}: {}", tasks.join(", ")),
            None => tasks.join(", "),
        };
        out.push_str(&format!("- {} ({wh}) [{}]\n", one_line(&e.content), e.id));
    }
    Some(out)
}

/// The ids of the lessons a text carries in [`section`]'s shape (a
/// worker's prompt the session wrote): the `[<id>]` ending the lines under
/// the heading.
pub fn ids_in(text: &str) -> Vec<String> {
    let Some((_, after)) = text.split_once(HEADING) else { return Vec::new() };
    let mut out: Vec<String> = Vec::new();
    for line in after.lines().map(str::trim).skip_while(|l| l.is_empty()) {
        let Some(body) = line.strip_prefix("- ") else { break };
        let id = body.strip_suffix(']').and_then(|b| b.rsplit_once(" [")).map(|(_, id)| id.to_owned());
        if let Some(id) = id.filter(|id| phasegate_core::knowledge::validate_id(id).is_ok())
            && !out.contains(&id)
        {
            out.push(id);
        }
    }
    out
}

/// The reviewer's section: each lesson with its id, to check it was
/// respected.
pub fn review_section(entries: &[IndexEntry]) -> Option<String> {
    if entries.is_empty() {
        return None;
    }
    let mut out = format!("\n{REVIEW_HEADING}\n");
    for e in entries {
        out.push_str(&format!("- {} [{}]\n", one_line(&e.content), e.id));
    }
    out.push_str("Name any that the change does not respect as an issue.\n");
    Some(out)
}

/// The entries of these ids, from the items of the tree at `root` (ids no
/// longer in the knowledge base are left out).
pub fn entries_of(project: &Project, root: &Path, ids: &[String]) -> Vec<IndexEntry> {
    if ids.is_empty() {
        return Vec::new();
    }
    let Ok(loaded) = super::base::load(project, root) else { return Vec::new() };
    ids.iter()
        .filter_map(|id| loaded.items.iter().find(|s| &s.item.id == id))
        .map(|s| IndexEntry {
            id: s.item.id.clone(),
            item_type: s.item.item_type,
            file_pattern: s.item.file_pattern.clone(),
            action: s.item.action.clone(),
            topic: s.item.topic.clone(),
            confidence: s.item.confidence,
            occurrences: s.item.occurrences,
            content: s.item.content.clone(),
            fingerprint: knowledge::hex(s.fingerprint),
        })
        .collect()
}

/// The ids of each task's gotchas.
pub fn ids(by_task: &BTreeMap<String, Vec<IndexEntry>>) -> BTreeMap<String, Vec<String>> {
    by_task.iter().map(|(t, es)| (t.clone(), es.iter().map(|e| e.id.clone()).collect())).collect()
}

/// Records in the feature's build state which gotchas each task's brief
/// carried (added to what earlier briefs carried), under the feature's lock.
pub fn remember_for_tasks(
    env: &Env,
    feature: &phasegate_store::Feature,
    given: &BTreeMap<String, Vec<String>>,
) -> OpResult<()> {
    if given.is_empty() {
        return Ok(());
    }
    let guard = feature.lock(env.lock_timeout)?;
    let mut cycles = guard.feature().read_review_cycles()?;
    let build = &mut cycles.sessions.entry(feature.name().to_owned()).or_default().build;
    let before = build.gotchas.clone();
    for (task, ids) in given {
        let known = build.gotchas.entry(task.clone()).or_default();
        for id in ids {
            if !known.contains(id) {
                known.push(id.clone());
            }
        }
    }
    if build.gotchas != before {
        guard.commit("gotchas given", vec![guard.feature().review_cycles_change(&cycles, env.now)])?;
    }
    Ok(())
}

/// Records in the session's log which items it was given (best effort: the
/// log only saves giving an item twice).
pub fn remember_for_session(env: &Env, runtime: &Path, given: &BTreeMap<String, Vec<String>>) {
    let Ok(Some(session)) = env.session(None) else { return };
    let items: Vec<GivenItem> = given
        .iter()
        .flat_map(|(task, ids)| ids.iter().map(move |id| GivenItem { id: id.clone(), for_: task.clone(), at: env.now }))
        .collect();
    let _ = add_given(&phasegate_store::knowledge::given::given_path(runtime, &session), &items);
}

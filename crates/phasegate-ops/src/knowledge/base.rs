//! The knowledge base's verbs: query, record, reinforce, supersede, list,
//! show, lint, and the index that makes a query fast. Items are the files;
//! the index is rebuilt from them whenever it is stale. Every change holds
//! the knowledge lock and reads the items again under it, so two sessions
//! recording at once lose nothing. A file that cannot be read is named by
//! every command; a change is refused while one cannot be read (it could be
//! the item the change is about), and nothing is ever reinitialised.

use std::path::{Path, PathBuf};
use std::time::Instant;

use chrono::{DateTime, Utc};
use phasegate_core::knowledge::{
    self, Evidence, IndexEntry, Indexed, InjectionOutcome, KnowledgeIndex, KnowledgeItem, KnowledgeType, Lesson,
    LessonKept, LessonRecorded, RecordDecision, Retirement, SourceText,
};
use phasegate_core::words::Command;
use phasegate_store::Project;
use phasegate_store::knowledge::{BadItem, IndexDir, IndexFault, Manifest, StoredItem};
use serde::Serialize;

use crate::env::Env;
use crate::error::{Invalid, InvalidInput, OpError, OpResult, Refusal};
use crate::session;

/// The items of one working tree, as read.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The working tree's root.
    pub root: PathBuf,
    /// Its items folder.
    pub dir: PathBuf,
    pub items: Vec<StoredItem>,
    pub bad: Vec<BadItem>,
}

impl Loaded {
    pub fn plain(&self) -> Vec<KnowledgeItem> {
        self.items.iter().map(|s| s.item.clone()).collect()
    }

    /// Refused while a file cannot be read: it could be the item a change
    /// is about, and a change is never made over what cannot be read.
    pub fn ensure_readable(&self) -> OpResult<()> {
        match self.bad.first() {
            None => Ok(()),
            Some(b) => Err(Invalid::UnreadableKnowledge { path: b.path.clone(), why: b.error.clone() }.into()),
        }
    }

    /// The lines naming the files that cannot be read.
    pub fn unreadable(&self) -> Vec<String> {
        self.bad.iter().map(|b| format!("{}: {}", b.path.display(), b.error)).collect()
    }

    fn indexed(&self) -> Vec<Indexed<'_>> {
        self.items.iter().map(|s| Indexed { item: &s.item, fingerprint: s.fingerprint }).collect()
    }

    /// The id of the index these items make.
    pub fn build(&self) -> String {
        knowledge::build_id(&self.indexed(), &self.unreadable())
    }

    /// The index these items make.
    pub fn index(&self) -> KnowledgeIndex {
        knowledge::build_index(&self.indexed(), &self.unreadable())
    }
}

/// The root of the working tree `dir` is in (the main checkout outside git).
pub fn tree_root(project: &Project, dir: &Path) -> PathBuf {
    match phasegate_store::git::layout(dir) {
        Ok(Some(l)) => l.current_root,
        Ok(None) | Err(_) => project.root().to_owned(),
    }
}

/// Reads the items of the working tree at `root`.
pub fn load(project: &Project, root: &Path) -> OpResult<Loaded> {
    let dir = phasegate_store::knowledge::dir_in(root);
    let (items, bad) = project.knowledge().items_in(&dir)?;
    Ok(Loaded { root: root.to_owned(), dir, items, bad })
}

/// How long a hook may spend reading items to rebuild the index: Claude
/// Code gives a hook 10 s, and the other contributors run in it too. A
/// rebuild that runs out writes what it read, marked partial: the hooks
/// answer from it, the next command builds the index whole.
pub const HOOK_REBUILD_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);

/// Rebuilds the index of `loaded`'s working tree when it is stale: its
/// manifest does not match the folder as a listing and stats see it (an
/// item added, removed, or edited in place), or it was built from other
/// items than these. True when it was rebuilt.
pub fn refresh_index(project: &Project, loaded: &Loaded) -> bool {
    let scan = Manifest::scan(&loaded.dir);
    let at = project.knowledge().index_dir(&loaded.root);
    if IndexDir::matching(&at, &scan).is_some_and(|i| i.build() == loaded.build()) {
        return false;
    }
    // Best effort: the index is a cache, and a query rebuilds it again.
    let _ = project.knowledge().write_index(&loaded.root, &loaded.index(), &scan, &loaded.unreadable());
    true
}

/// The items folder of the working tree at `root`, when it is one: a link
/// out of the tree is refused, naming it (an index built before the link
/// was made must not answer for it). None when the tree has no knowledge
/// base.
fn items_dir(root: &Path) -> OpResult<Option<PathBuf>> {
    Ok(phasegate_store::knowledge::items_dir_of(root)?)
}

/// The index of the working tree at `root`, fresh: checked by a listing
/// and one stat per item, rebuilt from the items only when stale (reading
/// them until `deadline`, a hook's). None when the tree has no knowledge
/// base.
pub fn fresh_index(project: &Project, root: &Path, deadline: Option<Instant>) -> OpResult<Option<IndexDir>> {
    let Some(items) = items_dir(root)? else { return Ok(None) };
    let scan = Manifest::scan(&items);
    if let Some(index) = IndexDir::matching(&project.knowledge().index_dir(root), &scan) {
        return Ok(Some(index));
    }
    rebuild_index(project, root, deadline)
}

/// Rebuilds the index of the working tree at `root` from its items now
/// (reading them until `deadline`, a hook's), and opens it. None when the
/// tree has no knowledge base.
pub fn rebuild_index(project: &Project, root: &Path, deadline: Option<Instant>) -> OpResult<Option<IndexDir>> {
    let Some(items) = items_dir(root)? else { return Ok(None) };
    let scan = Manifest::scan(&items);
    let (read, bad, complete) = project.knowledge().items_until(&items, deadline)?;
    let loaded = Loaded { root: root.to_owned(), dir: items, items: read, bad };
    project.knowledge().write_index_of(root, &loaded.index(), &scan, &loaded.unreadable(), complete)?;
    Ok(IndexDir::open(&project.knowledge().index_dir(root)))
}

/// The §10.1 gotchas for one file from `index`: candidates, whose lessons
/// are read again from the items (`inject::verified`, or [`query`]'s
/// reading) before they reach the model.
pub fn gotchas_in(index: &IndexDir, rel: &str, action: Option<&str>) -> Result<Vec<IndexEntry>, IndexFault> {
    let Ok(names) = knowledge::gotcha_shards_for(rel) else { return Ok(Vec::new()) };
    let mut shards = Vec::new();
    for name in &names {
        shards.extend(index.shard(name)?);
    }
    let refs: Vec<&knowledge::Shard> = shards.iter().collect();
    Ok(knowledge::gotchas_from_shards(&refs, rel, action).map(|v| v.into_iter().cloned().collect()).unwrap_or_default())
}

/// The §10.1 patterns and decisions for `topics` from `index` (candidates,
/// as [`gotchas_in`]).
pub fn patterns_in(index: &IndexDir, topics: &[String]) -> Result<Vec<IndexEntry>, IndexFault> {
    let mut shards = Vec::new();
    for topic in topics {
        shards.extend(index.shard(&knowledge::topic_shard_name(topic))?);
    }
    let refs: Vec<&knowledge::Shard> = shards.iter().collect();
    let topics: Vec<&str> = topics.iter().map(String::as_str).collect();
    Ok(knowledge::patterns_from_shards(&refs, &topics).into_iter().cloned().collect())
}

/// `look` over the fresh index of the tree at `root`, with the index; when
/// a file of the index fails its check, the index is rebuilt from the items
/// and `look` runs once more. None when the tree has no knowledge base (or
/// the rebuilt index fails again).
pub fn looked_up<T>(
    project: &Project,
    root: &Path,
    look: impl Fn(&IndexDir) -> Result<T, IndexFault>,
) -> OpResult<Option<(IndexDir, T)>> {
    let Some(index) = fresh_index(project, root, None)? else { return Ok(None) };
    if let Ok(found) = look(&index) {
        return Ok(Some((index, found)));
    }
    let Some(index) = rebuild_index(project, root, None)? else { return Ok(None) };
    Ok(look(&index).ok().map(|found| (index, found)))
}

/// An item and where it is.
#[derive(Debug, Clone, Serialize)]
pub struct Shown {
    pub path: String,
    #[serde(flatten)]
    pub item: KnowledgeItem,
    /// The lesson (the item's body).
    pub content: String,
}

impl Shown {
    fn of(s: &StoredItem) -> Shown {
        Shown::at(&s.path, s.item.clone())
    }

    fn at(path: &Path, item: KnowledgeItem) -> Shown {
        Shown { path: path.display().to_string(), content: item.content.clone(), item }
    }
}

/// What `kb query` prints: seed 004 §10.1's answer.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryResult {
    /// The path asked about, relative to its working tree.
    pub path: Option<String>,
    /// The pattern the path maps to (`*.sql`, `server/routes/*`, …).
    pub pattern: Option<String>,
    pub action: Option<String>,
    /// At most 5 gotchas: the path's own pattern first, then by confidence.
    pub gotchas: Vec<Shown>,
    /// Patterns and decisions for the topics asked about, by confidence.
    pub patterns: Vec<Shown>,
    /// Files that could not be read (named, never dropped silently).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

/// The path relative to its working tree's root, as patterns see it.
pub fn relative(root: &Path, path: &str) -> OpResult<String> {
    let p = Path::new(path);
    let rel = if p.is_absolute() {
        p.strip_prefix(root)
            .map_err(|_| Invalid::OutsideWorkingTree { path: path.to_owned(), root: root.to_owned() })?
            .to_string_lossy()
            .into_owned()
    } else {
        path.to_owned()
    };
    Ok(rel.replace('\\', "/"))
}

/// Seed 004 §10.1's queries: gotchas for a path and action, patterns for
/// topics. Answered from the index (a listing and a stat per item check
/// that it is fresh; it is rebuilt from the items only when stale), then
/// only the items found are read whole.
pub fn query(env: &Env, path: Option<&str>, action: Option<&str>, topics: &[String]) -> OpResult<QueryResult> {
    let project = session::project(env)?;
    let root = tree_root(&project, &env.cwd);
    let dir = phasegate_store::knowledge::dir_in(&root);
    let rel_pattern = match path {
        Some(p) => {
            let rel = relative(&root, &absolute(&env.cwd, p))?;
            let pattern = knowledge::pattern_for(&rel).invalid(p.to_string())?;
            Some((rel, pattern))
        }
        None => None,
    };
    let look = |index: &IndexDir| -> Result<(Vec<IndexEntry>, Vec<IndexEntry>), IndexFault> {
        let gotchas = match &rel_pattern {
            Some((rel, _)) => gotchas_in(index, rel, action)?,
            None => Vec::new(),
        };
        Ok((gotchas, patterns_in(index, topics)?))
    };
    // Each item found is read whole from its file: the index only says
    // which, and only while the file is the one it was built from.
    let read = |e: &IndexEntry| -> Option<Shown> {
        let (file, text) = phasegate_store::knowledge::read_item(&dir, &e.id)?;
        let same = knowledge::hex(knowledge::fingerprint(text.as_bytes())) == e.fingerprint;
        same.then(|| KnowledgeItem::parse(&text).ok().map(|item| Shown::at(&file, item))).flatten()
    };
    let mut answer = looked_up(&project, &root, look)?;
    let all_read = |found: &[IndexEntry]| found.iter().all(|e| read(e).is_some());
    if answer.as_ref().is_some_and(|(_, (g, p))| !all_read(g) || !all_read(p)) {
        // An item changed since the index was built: build it again.
        answer = rebuild_index(&project, &root, None)?.and_then(|index| look(&index).ok().map(|found| (index, found)));
    }
    let (gotchas, patterns, unreadable) = match &answer {
        Some((index, (g, p))) => {
            (g.iter().filter_map(read).collect(), p.iter().filter_map(read).collect(), index.unreadable())
        }
        None => (Vec::new(), Vec::new(), Vec::new()),
    };
    let (rel, pattern) = rel_pattern.map_or((None, None), |(r, p)| (Some(r), Some(p)));
    Ok(QueryResult { path: rel, pattern, action: action.map(str::to_owned), gotchas, patterns, unreadable })
}

/// `path` made absolute against `cwd`.
fn absolute(cwd: &Path, path: &str) -> String {
    let p = Path::new(path);
    if p.is_absolute() { path.to_owned() } else { cwd.join(p).to_string_lossy().into_owned() }
}

/// What `kb record` is given.
#[derive(Debug, Clone)]
pub struct RecordInput {
    pub item_type: KnowledgeType,
    pub content: String,
    /// A file the lesson is about (its pattern is recorded).
    pub path: Option<String>,
    /// A pattern given directly (`*.sql`, `server/routes/*`).
    pub pattern: Option<String>,
    pub action: Option<String>,
    pub topic: Option<String>,
    pub confidence: Option<f64>,
    /// The failure excerpt, or what shows the lesson.
    pub evidence: String,
    pub feature: Option<String>,
    pub task: Option<String>,
    pub commit: Option<String>,
}

/// What recording did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recorded {
    /// `created`, `reinforced`, `superseded` or `known`.
    pub decision: &'static str,
    /// The item that holds the lesson now.
    pub id: String,
    /// The item it replaced (`superseded`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced: Option<String>,
    pub confidence: f64,
    pub occurrences: u32,
    pub path: String,
    /// It now meets every condition for CLAUDE.md but the user's yes
    /// (`kb promote` asks).
    pub promotable: bool,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: LessonRecorded,
}

/// Records a lesson (seed 004 §10.1): admitted only with evidence and when
/// it says what the source does not; a similar item with higher or equal
/// confidence is reinforced instead, a lower one superseded.
pub fn record(env: &Env, input: RecordInput) -> OpResult<Recorded> {
    let project = session::project(env)?;
    let root = tree_root(&project, &env.cwd);
    let lesson = lesson_of(env, &root, &input)?;
    let texts = source_texts(env, &root, &input);
    let sources: Vec<SourceText<'_>> = texts.iter().map(|(n, t)| SourceText { name: n, text: t }).collect();
    let admitted = knowledge::admit(lesson, &sources).map_err(|r| Refusal::NotAdmitted {
        why: match r {
            knowledge::Refusal::NoEvidence | knowledge::Refusal::NoFailure => format!(
                "{r} (`--evidence <the failure output>`, with `--task` and `--feature` when it was learned in one)"
            ),
            other => other.to_string(),
        },
    })?;
    let _lock = project.knowledge().lock(env.lock_timeout)?;
    let loaded = load(&project, &root)?;
    loaded.ensure_readable()?;
    let recording = knowledge::record(&loaded.plain(), admitted, env.now).invalid("the lesson cannot be recorded")?;
    let (decision, id, kept) = match &recording.decision {
        RecordDecision::Create { new } => ("created", new.clone(), LessonKept::Created),
        RecordDecision::Reinforce { existing } => ("reinforced", existing.clone(), LessonKept::Reinforced),
        RecordDecision::Supersede { existing, new } => {
            ("superseded", new.clone(), LessonKept::Superseded { replaced: existing.clone() })
        }
        RecordDecision::Known { existing } => ("known", existing.clone(), LessonKept::Known),
    };
    let writes: Vec<KnowledgeItem> = recording.changes.iter().map(|c| c.after.clone()).collect();
    if !writes.is_empty() {
        project.knowledge().commit("kb record", &loaded.dir, &writes)?;
    }
    let reloaded = load(&project, &root)?;
    refresh_index(&project, &reloaded);
    let now = reloaded.items.iter().find(|s| s.item.id == id).ok_or_else(|| Invalid::NotReadBack { id: id.clone() })?;
    let claude = phasegate_store::files::read_optional(&root.join("CLAUDE.md")).ok().flatten().unwrap_or_default();
    let promotable = knowledge::should_update_claude_md(&now.item, &claude).unwrap_or(false);
    let replaced = match &kept {
        LessonKept::Superseded { replaced } => Some(replaced.clone()),
        LessonKept::Created | LessonKept::Reinforced | LessonKept::Known => None,
    };
    let message = LessonRecorded {
        kept,
        id: id.clone(),
        confidence: now.item.confidence,
        occurrences: now.item.occurrences,
        promotable,
    };
    Ok(Recorded {
        decision,
        promotable,
        confidence: now.item.confidence,
        occurrences: now.item.occurrences,
        path: now.path.display().to_string(),
        id,
        replaced,
        message,
    })
}

/// The lesson `input` gives, with its evidence (the feature, task and
/// commit it was learned at) and the files it is about.
fn lesson_of(env: &Env, root: &Path, input: &RecordInput) -> OpResult<Lesson> {
    let file_pattern = match (&input.pattern, &input.path) {
        (Some(p), _) => {
            knowledge::validate_pattern(p).invalid(format!("--pattern {p}"))?;
            Some(p.clone())
        }
        (None, Some(path)) => {
            let rel = relative(root, &absolute(&env.cwd, path))?;
            Some(knowledge::pattern_for(&rel).invalid(format!("--path {path}"))?)
        }
        (None, None) => None,
    };
    let feature = input.feature.clone().or_else(|| session::find(env, None).ok().map(|(_, f)| f.name().to_owned()));
    let commit = match input.commit.clone() {
        Some(c) => Some(c),
        None => phasegate_store::git::head_commit(root).ok().flatten(),
    };
    let evidence = Evidence {
        task: input.task.clone().unwrap_or_else(|| "-".to_owned()),
        feature: feature.unwrap_or_else(|| "-".to_owned()),
        commit,
        at: env.now,
        excerpt: knowledge::excerpt(&input.evidence),
    };
    Ok(Lesson {
        item_type: input.item_type,
        content: input.content.trim().to_owned(),
        file_pattern,
        action: input.action.clone(),
        topic: input.topic.clone(),
        confidence: input.confidence.unwrap_or(knowledge::DISCOVERY),
        evidence: if input.evidence.trim().is_empty() { Vec::new() } else { vec![evidence] },
        discovered_by: env.session_var.clone().unwrap_or_else(|| "workflow-state".to_owned()),
    })
}

/// What the source already says: the project's CLAUDE.md and README, and
/// the file the lesson is about (name, text).
fn source_texts(env: &Env, root: &Path, input: &RecordInput) -> Vec<(String, String)> {
    let mut texts: Vec<(String, String)> = Vec::new();
    for name in ["CLAUDE.md", "README.md"] {
        if let Ok(Some(t)) = phasegate_store::files::read_optional(&root.join(name)) {
            texts.push((name.to_owned(), t));
        }
    }
    if let Some(path) = &input.path
        && let Ok(Some(t)) = phasegate_store::files::read_optional(Path::new(&absolute(&env.cwd, path)))
    {
        texts.push((path.clone(), t));
    }
    texts
}

/// How an item was met again.
#[derive(Debug, Clone)]
pub enum Reinforcement {
    /// Seen again, with new evidence (seed §10.2: 0.85 once seen twice).
    Seen { evidence: String, feature: Option<String>, task: Option<String> },
    /// It was in a brief and the task went through first time (0.95).
    Prevented,
    /// It was in a brief and the task still failed the way it warns of.
    NotHelped,
}

/// Applies a lifecycle change (seed 004 §10.2) to one item.
pub fn reinforce(env: &Env, id: &str, how: Reinforcement) -> OpResult<Shown> {
    change_one(env, id, "kb reinforce", |item, _, now| match &how {
        Reinforcement::Seen { evidence, feature, task } => {
            let e = Evidence {
                task: task.clone().unwrap_or_else(|| "-".to_owned()),
                feature: feature.clone().unwrap_or_else(|| "-".to_owned()),
                commit: None,
                at: now,
                excerpt: knowledge::excerpt(evidence),
            };
            Ok(knowledge::seen_again(item, &[e], now).unwrap_or_else(|| item.clone()))
        }
        Reinforcement::Prevented => answer(item, InjectionOutcome::Prevented, now),
        Reinforcement::NotHelped => answer(item, InjectionOutcome::NotHelped, now),
    })
}

/// An injection and its outcome together: the brief that carried the item
/// is the injection the outcome answers.
pub fn answer(item: &KnowledgeItem, outcome: InjectionOutcome, now: DateTime<Utc>) -> OpResult<KnowledgeItem> {
    let answered = u64::from(item.prevented) + u64::from(item.not_helped);
    let base = if answered >= u64::from(item.injected) { knowledge::injected(item, now) } else { item.clone() };
    knowledge::outcome(&base, outcome, now).invalid_input()
}

/// Retires an item: superseded by another, or obsolete for a reason.
pub fn supersede(env: &Env, id: &str, by: Option<&str>, reason: Option<&str>) -> OpResult<Shown> {
    let retirement = match (by, reason) {
        (Some(b), _) => Retirement::SupersededBy(b.to_owned()),
        (None, Some(r)) if !r.trim().is_empty() => Retirement::Obsolete(r.trim().to_owned()),
        (None, _) => {
            return Err(Invalid::RetireHow.into());
        }
    };
    change_one(env, id, "kb supersede", |item, items, now| {
        if let Retirement::SupersededBy(b) = &retirement {
            if !items.iter().any(|s| s.item.id == *b) {
                return Err(Invalid::NoSupersedingItem { id: id.to_owned(), by: b.clone() }.into());
            }
            let plain: Vec<KnowledgeItem> = items.iter().map(|s| s.item.clone()).collect();
            if let Some(chain) = knowledge::supersede_cycle(&plain, id, b) {
                return Err(
                    Refusal::SupersedeCycle { id: id.to_owned(), by: b.clone(), chain: chain.join(" → ") }.into()
                );
            }
        }
        knowledge::retire(item, retirement.clone(), now).invalid_input()
    })
}

/// Reads the items under the lock, changes `id` and writes it.
fn change_one(
    env: &Env,
    id: &str,
    operation: &str,
    change: impl FnOnce(&KnowledgeItem, &[StoredItem], DateTime<Utc>) -> OpResult<KnowledgeItem>,
) -> OpResult<Shown> {
    knowledge::validate_id(id).invalid_input()?;
    let project = session::project(env)?;
    let root = tree_root(&project, &env.cwd);
    let _lock = project.knowledge().lock(env.lock_timeout)?;
    let loaded = load(&project, &root)?;
    loaded.ensure_readable()?;
    let stored = loaded
        .items
        .iter()
        .find(|s| s.item.id == id)
        .ok_or_else(|| OpError::from(Invalid::NoKnowledgeItem { id: id.to_owned() }))?;
    let after = change(&stored.item, &loaded.items, env.now)?;
    if after != stored.item {
        project.knowledge().commit(operation, &loaded.dir, std::slice::from_ref(&after))?;
    }
    let reloaded = load(&project, &root)?;
    refresh_index(&project, &reloaded);
    Ok(Shown::at(&stored.path, after))
}

/// What `kb list` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    pub items: Vec<Shown>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

/// The items (not superseded, unless `all`), by type then confidence.
pub fn list(env: &Env, item_type: Option<KnowledgeType>, all: bool) -> OpResult<Listed> {
    let project = session::project(env)?;
    let loaded = load(&project, &tree_root(&project, &env.cwd))?;
    refresh_index(&project, &loaded);
    let mut items: Vec<&StoredItem> = loaded
        .items
        .iter()
        .filter(|s| all || !s.item.is_superseded())
        .filter(|s| item_type.is_none_or(|t| s.item.item_type == t))
        .collect();
    items.sort_by(|a, b| {
        a.item
            .item_type
            .name()
            .cmp(b.item.item_type.name())
            .then(b.item.confidence.total_cmp(&a.item.confidence))
            .then(a.item.id.cmp(&b.item.id))
    });
    Ok(Listed { items: items.into_iter().map(Shown::of).collect(), unreadable: loaded.unreadable() })
}

/// One item.
pub fn show(env: &Env, id: &str) -> OpResult<Shown> {
    knowledge::validate_id(id).invalid_input()?;
    let project = session::project(env)?;
    let loaded = load(&project, &tree_root(&project, &env.cwd))?;
    loaded.items.iter().find(|s| s.item.id == id).map(Shown::of).ok_or_else(|| {
        let unreadable: Vec<String> = loaded.bad.iter().map(|b| b.path.display().to_string()).collect();
        match unreadable.is_empty() {
            true => Invalid::NoKnowledgeItem { id: id.to_owned() }.into(),
            false => Invalid::NoReadableItem { id: id.to_owned(), unreadable }.into(),
        }
    })
}

/// One problem `kb lint` found.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    pub path: String,
    pub problem: String,
}

/// What `kb lint` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Linted {
    pub items: usize,
    pub problems: Vec<Problem>,
}

/// Checks the whole knowledge base: every file readable, ids that name
/// their files, superseding items that exist, no two live items that are
/// similar, an index that says what the items say, and CLAUDE.md's
/// phasegate block well formed.
pub fn lint(env: &Env) -> OpResult<Linted> {
    let project = session::project(env)?;
    let root = tree_root(&project, &env.cwd);
    let loaded = load(&project, &root)?;
    let mut problems: Vec<Problem> =
        loaded.bad.iter().map(|b| Problem { path: b.path.display().to_string(), problem: b.error.clone() }).collect();
    let ids: Vec<&str> = loaded.items.iter().map(|s| s.item.id.as_str()).collect();
    for s in &loaded.items {
        if let Some(by) = &s.item.superseded_by
            && !ids.contains(&by.as_str())
        {
            problems.push(Problem {
                path: s.path.display().to_string(),
                problem: format!("superseded by `{by}`, which is not in the knowledge base"),
            });
        }
    }
    for chain in knowledge::supersede_cycles(&loaded.plain()) {
        let first = loaded.items.iter().find(|s| s.item.id == chain[0]);
        problems.push(Problem {
            path: first.map_or_else(|| chain[0].clone(), |s| s.path.display().to_string()),
            problem: format!(
                "superseded in a circle ({}): each item of it is retired, so its lesson reaches no query; clear `superseded_by` in the one that holds the lesson best",
                chain.join(" → ")
            ),
        });
    }
    // Similar items share their type, pattern and action: compare within
    // those groups only (10,000 items are not 50 million pairs).
    type Key<'a> = (&'a str, Option<&'a str>, Option<&'a str>);
    let mut groups: std::collections::BTreeMap<Key<'_>, Vec<&StoredItem>> = std::collections::BTreeMap::new();
    for s in loaded.items.iter().filter(|s| !s.item.is_superseded()) {
        groups
            .entry((s.item.item_type.name(), s.item.file_pattern.as_deref(), s.item.action.as_deref()))
            .or_default()
            .push(s);
    }
    for live in groups.values() {
        for (i, a) in live.iter().enumerate() {
            for b in &live[i + 1..] {
                let lesson = Lesson {
                    item_type: a.item.item_type,
                    content: a.item.content.clone(),
                    file_pattern: a.item.file_pattern.clone(),
                    action: a.item.action.clone(),
                    topic: a.item.topic.clone(),
                    confidence: a.item.confidence,
                    evidence: Vec::new(),
                    discovered_by: String::new(),
                };
                if knowledge::similar(&lesson, &b.item) {
                    problems.push(Problem {
                        path: b.path.display().to_string(),
                        problem: format!("says what `{}` says; supersede one of them", a.item.id),
                    });
                }
            }
        }
    }
    // The index is a cache, but one that says what the items do not is
    // named (a query would rebuild it; a hook may use it until then).
    let index_at = project.knowledge().index_dir(&root);
    for fault in phasegate_store::knowledge::check_index(&index_at, &loaded.index(), &loaded.unreadable()) {
        problems.push(Problem {
            path: fault.file.display().to_string(),
            problem: format!(
                "the knowledge index is corrupt: {}; it is a cache of the items: `{kb_index}` builds it again (so does the next query)", fault.what, kb_index = Command::new("kb index")),
        });
    }
    let claude = root.join("CLAUDE.md");
    if let Ok(Some(text)) = phasegate_store::files::read_optional(&claude)
        && let Err(e) = knowledge::promoted_ids(&text)
    {
        problems.push(Problem { path: claude.display().to_string(), problem: e.to_string() });
    }
    Ok(Linted { items: loaded.items.len(), problems })
}

/// What `kb index` did.
#[derive(Debug, Clone, Serialize)]
pub struct Rebuilt {
    pub items: usize,
    pub unreadable: Vec<String>,
}

/// Rebuilds the index from the items now (`kb index`), fresh or not: it
/// is a cache, and this is how to replace one that is in doubt. A write
/// that is refused (a linked index folder) is an error here, where the
/// other commands go on without the cache.
pub fn index(env: &Env) -> OpResult<Rebuilt> {
    let project = session::project(env)?;
    let root = tree_root(&project, &env.cwd);
    let loaded = load(&project, &root)?;
    items_dir(&root)?;
    let scan = Manifest::scan(&loaded.dir);
    project.knowledge().write_index(&root, &loaded.index(), &scan, &loaded.unreadable())?;
    Ok(Rebuilt { items: loaded.items.len(), unreadable: loaded.unreadable() })
}

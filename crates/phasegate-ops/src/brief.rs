//! The one place a brief is finished before the model reads it: its budget
//! comes from `.phasegate/context.config.json` (or the builder's default),
//! each capability that has something for the brief's subject adds its
//! section at the builder's slot (the knowledge base its gotchas, by the
//! brief's loading strategy, seed 004 §9.1), then the brief is packed under
//! its budget (`phasegate_core::brief`, §9.2) and says what it cut.
//! Builders make the rest of the brief and never know who adds what.

use std::collections::BTreeMap;
use std::path::PathBuf;

use phasegate_core::brief::{Brief, Loading, Packed, SectionKind};
use phasegate_core::knowledge::IndexEntry;
use phasegate_store::{Feature, Project};

use crate::env::Env;
use crate::knowledge::WORKER_GIVEN;
use crate::knowledge::inject::{self, Work};

/// Who reads the brief.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Role {
    /// Does the work: gets the gotchas to avoid.
    #[default]
    Implementer,
    /// Reviews it: gets the gotchas the implementer was given, to check.
    Reviewer,
}

/// What a brief is about, for the capabilities that add to it.
#[derive(Debug, Clone)]
pub struct Subject<'a> {
    /// The feature the brief is for.
    pub feature: Option<&'a Feature>,
    /// The tasks (or plan steps) it covers, with their files.
    pub work: Vec<Work>,
    /// The working tree the files are in (the feature's code directory;
    /// the project's root when None).
    pub root: Option<PathBuf>,
    pub role: Role,
    pub loading: Loading,
}

impl<'a> Subject<'a> {
    /// A brief about a feature and no particular files.
    pub fn feature(feature: &'a Feature, loading: Loading) -> Subject<'a> {
        Subject { feature: Some(feature), work: Vec::new(), root: None, role: Role::Implementer, loading }
    }
}

/// A finished brief, and the knowledge items it carries for each task (for
/// the caller to remember with [`remember`]).
#[derive(Debug, Clone)]
pub struct Finished {
    pub packed: Packed,
    pub given: BTreeMap<String, Vec<String>>,
}

impl Finished {
    pub fn text(&self) -> &str {
        &self.packed.text
    }
}

/// Sets the brief's budget, adds every contributor's sections for
/// `subject`, and packs it. Never fails: a configuration that cannot be read
/// becomes a line of the brief and the defaults apply.
pub fn finish(project: &Project, mut brief: Brief, subject: &Subject<'_>) -> Finished {
    match project.knowledge().context_config() {
        Ok(config) => brief.budget = config.budget(brief.name, brief.budget),
        Err(e) => {
            brief.push(
                "context-config",
                SectionKind::Task,
                format!("phasegate: {}; the default budgets apply", phasegate_store::project::one_line(&e.to_string())),
            );
        }
    }
    let mut given = BTreeMap::new();
    if subject.loading.loads_gotchas() {
        let root = subject.root.clone().unwrap_or_else(|| project.root().to_owned());
        match subject.role {
            Role::Implementer => {
                let by_task = inject::for_work(project, &root, &subject.work);
                if let Some(text) = inject::section(&by_task) {
                    brief.contribute("gotchas", SectionKind::Gotchas, text);
                    given = inject::ids(&by_task);
                }
            }
            Role::Reviewer => {
                let entries = reviewed(project, &root, subject);
                if let Some(text) = inject::review_section(&entries) {
                    brief.contribute("gotchas", SectionKind::Gotchas, text);
                }
            }
        }
    }
    if subject.loading.loads_patterns()
        && let Some(f) = subject.feature
    {
        let root = subject.root.clone().unwrap_or_else(|| project.root().to_owned());
        let entries = inject::patterns_for(project, &root, &inject::topics_of(f.name()));
        if let Some(text) = inject::patterns_section(&entries) {
            brief.contribute("patterns", SectionKind::Template, text);
        }
    }
    let mut packed = brief.pack();
    if let Some(report) = packed.report() {
        packed.text.push_str(&report);
        packed.text.push('\n');
    }
    if !packed.kept.iter().any(|k| k.name == "gotchas") {
        given.clear();
    }
    Finished { packed, given }
}

/// What the reviewer checks: the gotchas the feature's build state records
/// for the work's tasks (all tasks when the work names none); when none
/// were recorded, the ones the implementer's brief would carry now.
fn reviewed(project: &Project, root: &std::path::Path, subject: &Subject<'_>) -> Vec<IndexEntry> {
    let recorded: Vec<String> = subject
        .feature
        .and_then(|f| f.read_review_cycles().ok().map(|c| (f.name().to_owned(), c)))
        .and_then(|(name, c)| c.sessions.get(&name).map(|s| s.build.gotchas.clone()))
        .map(|g| {
            let mut ids: Vec<String> = Vec::new();
            for (task, list) in g {
                let for_worker = task == WORKER_GIVEN.name();
                if for_worker || subject.work.is_empty() || subject.work.iter().any(|w| w.task == task) {
                    for id in list {
                        if !ids.contains(&id) {
                            ids.push(id);
                        }
                    }
                }
            }
            ids
        })
        .unwrap_or_default();
    if !recorded.is_empty() {
        return inject::entries_of(project, root, &recorded);
    }
    // A pipeline's implementer is a worker: it was given only what a hook
    // saw in its prompt, and nothing was seen.
    let pipeline = subject
        .feature
        .and_then(|f| f.load().ok())
        .is_some_and(|m| m.workflow == phasegate_core::feature::Workflow::Pipeline);
    if pipeline {
        return Vec::new();
    }
    let mut out: Vec<IndexEntry> = Vec::new();
    for e in inject::for_work(project, root, &subject.work).into_values().flatten() {
        if !out.iter().any(|x| x.id == e.id) {
            out.push(e);
        }
    }
    out
}

/// Remembers what a brief gave: in the feature's build state (for the
/// retrospective) and in the session's log (for the hook and compaction).
/// Best effort: a brief is never refused because this could not be written.
pub fn remember(env: &Env, project: &Project, feature: Option<&Feature>, given: &BTreeMap<String, Vec<String>>) {
    if given.is_empty() {
        return;
    }
    if let Some(f) = feature {
        let _ = inject::remember_for_tasks(env, f, given);
    }
    inject::remember_for_session(env, &project.runtime_dir(), given);
}
